package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * How objects convert between versions. Immutable.
 *
 * @param strategy {@code None} (only {@code apiVersion} changes) or {@code Webhook}
 * @param webhook the webhook's configuration, kept as given
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomResourceConversion(String strategy, JsonNode webhook) {}
