package dev.machinery.examples.apps;

import dev.machinery.core.patch.ListMapKeys;
import dev.machinery.core.patch.ListType;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
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
    @PatchStrategy("merge") @PatchMergeKey("name") @ListType("map") @ListMapKeys("name")
        List<Container> containers,
    String restartPolicy,
    Long terminationGracePeriodSeconds) {}
