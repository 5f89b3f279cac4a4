/**
 * kube-controller-manager's pod garbage collector ({@code pod-garbage-collector-controller}):
 * terminated pods over a threshold, pods of vanished nodes and unscheduled pods being deleted are
 * deleted.
 */
package dev.machinery.cluster.controller.podgc;
