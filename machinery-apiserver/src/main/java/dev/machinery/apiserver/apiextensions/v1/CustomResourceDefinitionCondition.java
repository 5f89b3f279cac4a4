package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * One condition of a CustomResourceDefinition's status, such as {@code Established}. Immutable.
 *
 * @param type {@code NamesAccepted}, {@code Established}, {@code Terminating}, …
 * @param status {@code True}, {@code False} or {@code Unknown}
 * @param lastTransitionTime when the status last changed
 * @param reason a CamelCase reason
 * @param message a human-readable message
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomResourceDefinitionCondition(
    String type, String status, Instant lastTransitionTime, String reason, String message) {}
