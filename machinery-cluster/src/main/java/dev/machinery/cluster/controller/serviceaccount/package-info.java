/**
 * The service account controller (kube-controller-manager's {@code serviceaccount-controller}, Go's
 * {@code pkg/controller/serviceaccount}): the {@code default} ServiceAccount in every active
 * namespace.
 */
package dev.machinery.cluster.controller.serviceaccount;
