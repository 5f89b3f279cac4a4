/**
 * The ReplicaSet controller, as Kubernetes' {@code pkg/controller/replicaset}: keeps the number of
 * a ReplicaSet's active pods at its {@code spec.replicas}, adopting and releasing pods by its
 * selector, and reports its status.
 */
package dev.machinery.cluster.controller.replicaset;
