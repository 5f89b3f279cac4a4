/**
 * The garbage collector, as kube-controller-manager's {@code garbage-collector-controller}
 * (Kubernetes' {@code pkg/controller/garbagecollector}): monitors of every deletable resource feed
 * a graph of owners and dependents keyed by uid ({@link
 * dev.machinery.cluster.controller.garbagecollector.GraphBuilder}); dependents whose owners are all
 * gone are deleted, the dependents of an owner deleted with the {@code orphan} finalizer lose their
 * references to it, and an owner deleted in the foreground goes once its blocking dependents are
 * gone ({@link dev.machinery.cluster.controller.garbagecollector.GarbageCollector}). Every read and
 * write goes through the API as the {@code generic-garbage-collector} service account.
 */
package dev.machinery.cluster.controller.garbagecollector;
