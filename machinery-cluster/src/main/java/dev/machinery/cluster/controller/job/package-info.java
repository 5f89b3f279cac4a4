/**
 * The Job controller (kube-controller-manager's {@code job-controller}, Go's {@code
 * pkg/controller/job}): runs a Job's pods to completion, NonIndexed or Indexed, with back-off, pod
 * failure policies, deadlines, suspension and the {@code batch.kubernetes.io/job-tracking}
 * finalizer. Not exported: it is set up through {@code dev.machinery.cluster.ControllerManager}.
 */
package dev.machinery.cluster.controller.job;
