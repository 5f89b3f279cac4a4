package dev.machinery.cluster;

import dev.machinery.cluster.controller.disruption.DisruptionController;
import dev.machinery.cluster.controller.endpoint.EndpointsController;
import dev.machinery.cluster.controller.endpointslice.EndpointSliceController;
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
            DisruptionController::initialize));
  }
}
