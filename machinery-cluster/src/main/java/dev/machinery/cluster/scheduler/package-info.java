/**
 * The simulated nodes' scheduler ({@code kube-scheduler}): it binds pending pods to nodes by kube's
 * default filters and scores, and {@link dev.machinery.cluster.scheduler.NodeFit} holds those
 * filters as functions the kubelets and the taint eviction controller share.
 */
package dev.machinery.cluster.scheduler;
