package dev.machinery.examples.apps;

import java.util.List;

/**
 * The part of a pod spec this example models ({@code PodSpec}): containers and the restart policy.
 * Components are in Kubernetes' field order, so that the JSON is written as kube-apiserver writes
 * it.
 *
 * @param containers the containers
 * @param restartPolicy {@code Always}, {@code OnFailure} or {@code Never}
 * @param terminationGracePeriodSeconds how long a pod may take to stop
 */
public record PodSpec(
    List<Container> containers, String restartPolicy, Long terminationGracePeriodSeconds) {}
