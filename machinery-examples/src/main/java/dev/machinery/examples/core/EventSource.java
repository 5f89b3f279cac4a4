package dev.machinery.examples.core;

import dev.machinery.conversion.ProtoField;

/**
 * The component that reported an event ({@code v1 EventSource}). Immutable.
 *
 * @param component the component
 * @param host the node it ran on
 */
public record EventSource(@ProtoField(1) String component, @ProtoField(2) String host) {}
