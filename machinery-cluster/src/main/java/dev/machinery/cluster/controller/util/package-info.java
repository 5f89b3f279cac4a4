/**
 * Helpers shared by the workload controllers, as Kubernetes' {@code pkg/controller} and {@code
 * pkg/api/v1/pod}: expectations of creations and deletions ({@link
 * dev.machinery.cluster.controller.util.ControllerExpectations}), pod predicates ({@link
 * dev.machinery.cluster.controller.util.Pods}), controller references, adoption and release of
 * matching objects ({@link dev.machinery.cluster.controller.util.ControllerRefManager}), pods
 * created from a template ({@link dev.machinery.cluster.controller.util.PodControl}) and the order
 * in which pods are deleted on a scale-down ({@link
 * dev.machinery.cluster.controller.util.ActivePods}).
 */
package dev.machinery.cluster.controller.util;
