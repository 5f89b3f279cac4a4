/**
 * The {@code apiextensions.k8s.io/v1} types: {@link
 * dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinition}, its spec and status, and
 * {@link dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps}, the schema of a custom
 * resource. {@link dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1} registers them in a
 * Scheme. Nested values are records; the top-level kind is a mutable bean as every kind is.
 */
package dev.machinery.apiserver.apiextensions.v1;
