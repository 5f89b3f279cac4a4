/**
 * The resource quota controller (kube-controller-manager's {@code resourcequota-controller}, Go's
 * {@code pkg/controller/resourcequota}): each ResourceQuota's {@code status.hard} and {@code
 * status.used}, computed from the objects of its namespace.
 */
package dev.machinery.cluster.controller.resourcequota;
