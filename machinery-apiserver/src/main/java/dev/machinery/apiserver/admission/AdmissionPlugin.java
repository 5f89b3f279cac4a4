package dev.machinery.apiserver.admission;

/**
 * An admission plugin, as Kubernetes' {@code admission.Interface}: a name and the operations it
 * handles. A plugin is a {@link MutatingAdmissionPlugin}, a {@link ValidatingAdmissionPlugin} or
 * both (then it runs in both phases).
 *
 * <p>Implementations are thread-safe: writes are admitted concurrently.
 */
public interface AdmissionPlugin {
  /**
   * Returns the plugin's name, such as {@code NamespaceLifecycle}.
   *
   * @return the name
   */
  String name();

  /**
   * Whether the plugin wants to see an operation; all by default.
   *
   * @param operation the operation
   * @return whether to call it
   */
  default boolean handles(Operation operation) {
    return true;
  }
}
