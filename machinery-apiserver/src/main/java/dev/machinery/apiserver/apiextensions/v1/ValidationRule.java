package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One CEL rule of {@code x-kubernetes-validations}. Immutable.
 *
 * @param rule the CEL expression, true when the value is valid
 * @param message the message when it is not
 * @param messageExpression a CEL expression giving the message
 * @param reason {@code FieldValueInvalid}, {@code FieldValueForbidden}, {@code FieldValueRequired}
 *     or {@code FieldValueDuplicate}
 * @param fieldPath the path, relative to the schema's value, the error names
 * @param optionalOldSelf whether a transition rule also runs when there is no old value
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ValidationRule(
    String rule,
    String message,
    String messageExpression,
    String reason,
    String fieldPath,
    Boolean optionalOldSelf) {}
