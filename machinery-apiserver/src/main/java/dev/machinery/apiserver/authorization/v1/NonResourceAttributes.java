package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;

/**
 * What a non-resource request asks ({@code authorization.k8s.io/v1 NonResourceAttributes}).
 * Immutable.
 *
 * @param path the path, such as {@code /healthz}
 * @param verb the verb, such as {@code get}
 */
public record NonResourceAttributes(@ProtoField(1) String path, @ProtoField(2) String verb) {}
