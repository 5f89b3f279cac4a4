package dev.machinery.apiserver.admission;

/**
 * A plugin that may change what a create or update stores, before the resource's defaults and
 * validation, as Kubernetes' {@code admission.MutationInterface}. It refuses by throwing an {@link
 * AdmissionException} (answered 403) or a {@link dev.machinery.unversioned.errors.StatusException}
 * of its choice.
 *
 * <p>Implementations are thread-safe.
 */
public interface MutatingAdmissionPlugin extends AdmissionPlugin {
  /**
   * Admits a write.
   *
   * @param attributes the write
   * @return the object to store: {@code attributes.object()}, changed or not, or another object of
   *     the same class; ignored on delete
   * @throws AdmissionException to refuse the write
   */
  Object admit(AdmissionAttributes attributes);
}
