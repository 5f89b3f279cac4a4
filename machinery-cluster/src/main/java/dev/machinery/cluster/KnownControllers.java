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
            "job-controller",
            List.of("job"),
            true,
            dev.machinery.cluster.controller.job.JobController::initialize),
        new ControllerDescriptor(
            "ttl-after-finished-controller",
            List.of("ttl-after-finished"),
            true,
            dev.machinery.cluster.controller.ttlafterfinished.TtlAfterFinishedController
                ::initialize),
        new ControllerDescriptor(
            "cronjob-controller",
            List.of("cronjob"),
            true,
            dev.machinery.cluster.controller.cronjob.CronJobController::initialize),
        new ControllerDescriptor(
            "statefulset-controller",
            List.of("statefulset"),
            true,
            dev.machinery.cluster.controller.statefulset.StatefulSetController::initialize),
        new ControllerDescriptor(
            "daemonset-controller",
            List.of("daemonset"),
            true,
            dev.machinery.cluster.controller.daemonset.DaemonSetController::initialize));
  }
}
