/**
 * The EndpointSlice controller (kube-controller-manager's {@code endpointslice-controller}, Go's
 * {@code pkg/controller/endpointslice}): the {@code discovery.k8s.io/v1} EndpointSlices of every
 * Service with a selector.
 */
package dev.machinery.cluster.controller.endpointslice;
