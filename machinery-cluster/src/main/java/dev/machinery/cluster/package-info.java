/**
 * Runs Kubernetes' controllers and simulated nodes against an API server: {@link
 * dev.machinery.cluster.ControllerManager} chooses them by name as kube-controller-manager's {@code
 * --controllers} does, gives each a {@link dev.machinery.cluster.ControllerContext} (clients under
 * the controller's own identity, shared informers, an event recorder and the cluster's clock) and,
 * with leader election, runs them only while it holds the {@code
 * kube-system/kube-controller-manager} Lease. How a client reaches the server is the caller's
 * {@link dev.machinery.cluster.ClientFactory}: in process through the server's whole request path,
 * or over HTTP.
 */
package dev.machinery.cluster;
