package dev.machinery.cluster;

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
            "node-lifecycle-controller",
            List.of("nodelifecycle"),
            true,
            dev.machinery.cluster.controller.nodelifecycle.NodeLifecycleController::initialize),
        new ControllerDescriptor(
            "taint-eviction-controller",
            List.of(),
            true,
            dev.machinery.cluster.controller.nodelifecycle.TaintEvictionController::initialize),
        new ControllerDescriptor(
            "pod-garbage-collector-controller",
            List.of("podgc"),
            true,
            dev.machinery.cluster.controller.podgc.PodGarbageCollector::initialize),
        new ControllerDescriptor(
            "kube-scheduler",
            List.of(),
            true,
            dev.machinery.cluster.scheduler.KubeScheduler::initialize),
        new ControllerDescriptor(
            "kubelet",
            List.of(),
            true,
            dev.machinery.cluster.kubelet.SimulatedKubelets::initialize));
  }
}
