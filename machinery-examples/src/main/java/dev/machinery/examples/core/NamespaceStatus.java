package dev.machinery.examples.core;

import dev.machinery.conversion.ProtoField;

/**
 * The observed state of a Namespace ({@code v1 NamespaceStatus}). Immutable.
 *
 * @param phase {@code Active} or {@code Terminating}
 */
public record NamespaceStatus(@ProtoField(1) String phase) {}
