package dev.machinery.cluster;

import dev.machinery.cluster.controller.deployment.DeploymentController;
import dev.machinery.cluster.controller.replicaset.ReplicaSetController;
import java.util.List;

/**
 * The controllers this module carries, by kube-controller-manager's names (1.33's {@code
 * cmd/kube-controller-manager/names}), with the older names its {@code --controllers} flag still
 * accepts, plus the simulated nodes' scheduler and kubelets.
 */
final class KnownControllers {
  private KnownControllers() {}

  /** Every controller, in the order they are set up. */
  static List<ControllerDescriptor> all() {
    return List.of(
        new ControllerDescriptor(
            "deployment-controller", List.of("deployment"), true, DeploymentController::initialize),
        new ControllerDescriptor(
            "replicaset-controller", List.of("replicaset"), true, ReplicaSetController::initialize),
        new ControllerDescriptor(
            "replicationcontroller-controller",
            List.of("replicationcontroller"),
            true,
            ReplicaSetController::initializeReplicationControllers));
  }
}
