package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where the {@code scale} subresource finds its fields in a custom resource. Immutable.
 *
 * @param specReplicasPath the desired replicas, such as {@code .spec.replicas}
 * @param statusReplicasPath the observed replicas, such as {@code .status.replicas}
 * @param labelSelectorPath the selector in its string form, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomResourceSubresourceScale(
    String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {}
