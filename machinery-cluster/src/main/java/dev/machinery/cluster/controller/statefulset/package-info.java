/**
 * The StatefulSet controller (kube-controller-manager's {@code statefulset-controller}, Go's {@code
 * pkg/controller/statefulset}): pods with stable names and claims, created and deleted in order or
 * in parallel, updated by revision. Not exported: it is set up through {@code
 * dev.machinery.cluster.ControllerManager}.
 */
package dev.machinery.cluster.controller.statefulset;
