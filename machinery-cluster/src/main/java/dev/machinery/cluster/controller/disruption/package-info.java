/**
 * The disruption controller (kube-controller-manager's {@code disruption-controller}, Go's {@code
 * pkg/controller/disruption}): the status of every PodDisruptionBudget, which the eviction API
 * reads.
 */
package dev.machinery.cluster.controller.disruption;
