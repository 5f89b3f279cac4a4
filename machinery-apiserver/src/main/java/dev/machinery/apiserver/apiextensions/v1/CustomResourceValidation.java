package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A version's schema. Immutable.
 *
 * @param openAPIV3Schema the structural schema of the whole object
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CustomResourceValidation(JSONSchemaProps openAPIV3Schema) {}
