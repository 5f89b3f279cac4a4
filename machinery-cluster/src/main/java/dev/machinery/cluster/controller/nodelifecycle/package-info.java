/**
 * kube-controller-manager's node lifecycle controller ({@code node-lifecycle-controller}), which
 * marks nodes whose kubelet stopped heartbeating and taints nodes by their conditions, and its
 * taint eviction controller ({@code taint-eviction-controller}), which deletes the pods a node's
 * {@code NoExecute} taints no longer allow.
 */
package dev.machinery.cluster.controller.nodelifecycle;
