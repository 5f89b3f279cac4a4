/**
 * Kubernetes' built-in kinds for an {@code ApiServer}, served from Kubernetes' own OpenAPI
 * description ({@link dev.machinery.builtins.BuiltinKinds}).
 */
package dev.machinery.builtins;
