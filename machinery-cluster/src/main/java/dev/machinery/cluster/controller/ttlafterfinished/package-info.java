/**
 * The TTL-after-finished controller (kube-controller-manager's {@code
 * ttl-after-finished-controller}, Go's {@code pkg/controller/ttlafterfinished}): deletes finished
 * Jobs {@code ttlSecondsAfterFinished} after they finished, on the cluster's clock. Not exported:
 * it is set up through {@code dev.machinery.cluster.ControllerManager}.
 */
package dev.machinery.cluster.controller.ttlafterfinished;
