/**
 * OpenAPI documents generated from a Scheme and a discovery document, as kube-apiserver serves them
 * to kubectl: {@link dev.machinery.apiserver.openapi.OpenApiV3}, the {@code /openapi/v3} index and
 * one document per group version, with schemas from the Java types ({@link
 * dev.machinery.apiserver.openapi.SchemaGenerator}).
 */
package dev.machinery.apiserver.openapi;
