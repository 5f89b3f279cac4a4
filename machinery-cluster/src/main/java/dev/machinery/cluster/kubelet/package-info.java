/**
 * The simulated kubelets: each {@link dev.machinery.cluster.SimulatedNode} registers its Node,
 * heartbeats its Lease and runs the pods bound to it ({@link
 * dev.machinery.cluster.kubelet.SimulatedKubelets}).
 */
package dev.machinery.cluster.kubelet;
