package dev.machinery.cluster;

/**
 * Sets one of Kubernetes' controllers up in a {@link ControllerContext}, as an init function of
 * kube-controller-manager does: it takes its informers and clients from the context and adds its
 * controllers to it. It runs once, before the manager starts; the controllers start when the
 * manager runs them (at once, or on becoming leader).
 */
@FunctionalInterface
public interface ControllerInitializer {
  /**
   * Sets the controller up.
   *
   * @param context the controller's context
   * @throws InterruptedException when interrupted
   */
  void initialize(ControllerContext context) throws InterruptedException;
}
