package dev.machinery.apiserver.apiextensions.v1;

/**
 * A field a field selector may name. Immutable.
 *
 * @param jsonPath the field, such as {@code .spec.color}
 */
public record SelectableField(String jsonPath) {}
