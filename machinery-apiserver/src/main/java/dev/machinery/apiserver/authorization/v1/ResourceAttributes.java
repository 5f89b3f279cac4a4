package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;

/**
 * What a resource request asks ({@code authorization.k8s.io/v1 ResourceAttributes}). Immutable.
 *
 * @param namespace the namespace, or {@code null} for all or the cluster scope
 * @param verb the verb, such as {@code list}
 * @param group the API group, {@code ""} or {@code null} for core
 * @param version the version, or {@code null}
 * @param resource the resource, such as {@code pods}
 * @param subresource the subresource, or {@code null}
 * @param name the name, or {@code null} for any
 */
public record ResourceAttributes(
    @ProtoField(1) String namespace,
    @ProtoField(2) String verb,
    @ProtoField(3) String group,
    @ProtoField(4) String version,
    @ProtoField(5) String resource,
    @ProtoField(6) String subresource,
    @ProtoField(7) String name) {}
