package dev.machinery.examples.apps;

import dev.machinery.core.patch.ListMapKeys;
import dev.machinery.core.patch.ListType;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
import java.util.List;

/**
 * The observed state of a Deployment ({@code DeploymentStatus}). Components are in Kubernetes'
 * field order, so that the JSON is written as kube-apiserver writes it.
 *
 * @param observedGeneration the generation observed
 * @param replicas the pods that exist
 * @param updatedReplicas the pods of the current template
 * @param readyReplicas the pods that are ready
 * @param availableReplicas the pods that are available
 * @param unavailableReplicas the pods that are not
 * @param conditions the conditions
 */
public record DeploymentStatus(
    Long observedGeneration,
    Integer replicas,
    Integer updatedReplicas,
    Integer readyReplicas,
    Integer availableReplicas,
    Integer unavailableReplicas,
    @PatchStrategy("merge") @PatchMergeKey("type") @ListType("map") @ListMapKeys("type")
        List<DeploymentCondition> conditions) {}
