package dev.machinery.apiserver.admission;

/**
 * A plugin that may refuse a write, after every mutating plugin, the resource's defaults and its
 * validation, as Kubernetes' {@code admission.ValidationInterface}; it must not change the objects.
 *
 * <p>Implementations are thread-safe.
 */
public interface ValidatingAdmissionPlugin extends AdmissionPlugin {
  /**
   * Validates a write.
   *
   * @param attributes the write
   * @throws AdmissionException to refuse the write (answered 403)
   */
  void validate(AdmissionAttributes attributes);
}
