package dev.machinery.apiserver.admission;

import dev.machinery.apiserver.http.ApiHandler;

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

  /**
   * Called once at the end of the server's construction, before it is served, with a handler that
   * answers requests in process as {@code system:apiserver} (without authentication), as
   * kube-apiserver's plugin initializers hand plugins a loopback client. A plugin that reads other
   * objects (a Pod's namespace, its service account) keeps it; one that makes objects at startup
   * (as kube-apiserver's post-start hooks make the system PriorityClasses) may write through it
   * here. By default it is ignored.
   *
   * @param loopback the server's in-process handler
   */
  default void initialize(ApiHandler loopback) {}
}
