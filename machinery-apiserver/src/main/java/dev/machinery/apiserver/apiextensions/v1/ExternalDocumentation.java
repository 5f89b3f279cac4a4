package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A schema's {@code externalDocs}. Immutable.
 *
 * @param description what the documents are
 * @param url where they are
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExternalDocumentation(String description, String url) {}
