/**
 * The DaemonSet controller (kube-controller-manager's {@code daemonset-controller}, Go's {@code
 * pkg/controller/daemon}): one pod per eligible node, bound to it by node affinity, updated by
 * revision. Not exported: it is set up through {@code dev.machinery.cluster.ControllerManager}.
 */
package dev.machinery.cluster.controller.daemonset;
