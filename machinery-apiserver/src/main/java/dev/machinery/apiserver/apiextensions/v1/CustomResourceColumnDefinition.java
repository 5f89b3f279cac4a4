package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A column of the Tables custom resources are listed in. Immutable.
 *
 * @param name the header
 * @param type {@code integer}, {@code number}, {@code string}, {@code boolean} or {@code date}
 * @param format the format
 * @param description the description
 * @param priority 0 for the columns shown by default, more for {@code -o wide}
 * @param jsonPath the JSONPath of the cell, such as {@code .spec.cronSpec}
 */
@JsonInclude(JsonInclude.Include.NON_DEFAULT)
public record CustomResourceColumnDefinition(
    String name, String type, String format, String description, int priority, String jsonPath) {}
