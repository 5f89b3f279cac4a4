/**
 * The annotation processor that writes machinery-api's typed models of Kubernetes' built-in kinds
 * from Kubernetes' OpenAPI v2 document (and the field order from its {@code generated.proto} files)
 * while machinery-api compiles; see {@link dev.machinery.api.generator.ModelProcessor}. Build time
 * only.
 */
package dev.machinery.api.generator;
