package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A version's subresources. Immutable.
 *
 * @param status {@code {}} to serve the {@code status} subresource, or {@code null}
 * @param scale the {@code scale} subresource, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomResourceSubresources(JsonNode status, CustomResourceSubresourceScale scale) {}
