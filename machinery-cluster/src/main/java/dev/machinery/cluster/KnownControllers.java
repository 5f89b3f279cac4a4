package dev.machinery.cluster;

import dev.machinery.cluster.controller.deployment.DeploymentController;
import dev.machinery.cluster.controller.disruption.DisruptionController;
import dev.machinery.cluster.controller.endpoint.EndpointsController;
import dev.machinery.cluster.controller.endpointslice.EndpointSliceController;
import dev.machinery.cluster.controller.garbagecollector.GarbageCollectorController;
import dev.machinery.cluster.controller.namespace.NamespaceController;
import dev.machinery.cluster.controller.replicaset.ReplicaSetController;
import dev.machinery.cluster.controller.resourcequota.ResourceQuotaController;
import dev.machinery.cluster.controller.rootcacertpublisher.Publisher;
import dev.machinery.cluster.controller.serviceaccount.ServiceAccountsController;
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
            "garbage-collector-controller",
            List.of("garbagecollector"),
            true,
            GarbageCollectorController::initialize),
        new ControllerDescriptor(
            "namespace-controller", List.of("namespace"), true, NamespaceController::initialize),
        new ControllerDescriptor(
            "deployment-controller", List.of("deployment"), true, DeploymentController::initialize),
        new ControllerDescriptor(
            "replicaset-controller", List.of("replicaset"), true, ReplicaSetController::initialize),
        new ControllerDescriptor(
            "replicationcontroller-controller",
            List.of("replicationcontroller"),
            true,
            ReplicaSetController::initializeReplicationControllers),
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
            dev.machinery.cluster.kubelet.SimulatedKubelets::initialize),
        new ControllerDescriptor(
            ServiceAccountsController.NAME,
            List.of(ServiceAccountsController.ALIAS),
            true,
            ServiceAccountsController::initialize),
        new ControllerDescriptor(
            Publisher.NAME, List.of(Publisher.ALIAS), true, Publisher::initialize),
        new ControllerDescriptor(
            EndpointsController.NAME,
            List.of(EndpointsController.ALIAS),
            true,
            EndpointsController::initialize),
        new ControllerDescriptor(
            EndpointSliceController.NAME,
            List.of(EndpointSliceController.ALIAS),
            true,
            EndpointSliceController::initialize),
        new ControllerDescriptor(
            DisruptionController.NAME,
            List.of(DisruptionController.ALIAS),
            true,
            DisruptionController::initialize),
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
            dev.machinery.cluster.controller.daemonset.DaemonSetController::initialize),
        new ControllerDescriptor(
            ResourceQuotaController.NAME,
            List.of(ResourceQuotaController.ALIAS),
            true,
            ResourceQuotaController::initialize));
  }
}
