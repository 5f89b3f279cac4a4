package dev.machinery.examples.core;

import dev.machinery.conversion.ProtoField;

/**
 * A reference to an object ({@code v1 ObjectReference}), as events name what they are about.
 * Immutable.
 *
 * @param kind the kind
 * @param namespace the namespace
 * @param name the name
 * @param uid the uid
 * @param apiVersion the API version
 * @param resourceVersion the resourceVersion
 * @param fieldPath a part of the object, such as {@code spec.containers{app}}
 */
public record ObjectReference(
    @ProtoField(1) String kind,
    @ProtoField(2) String namespace,
    @ProtoField(3) String name,
    @ProtoField(4) String uid,
    @ProtoField(5) String apiVersion,
    @ProtoField(6) String resourceVersion,
    @ProtoField(7) String fieldPath) {}
