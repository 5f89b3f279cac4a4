package dev.machinery.examples.core;

import dev.machinery.conversion.ProtoField;
import java.util.List;

/**
 * The desired state of a Namespace ({@code v1 NamespaceSpec}). Immutable.
 *
 * @param finalizers what must finish before the namespace is removed
 */
public record NamespaceSpec(@ProtoField(1) List<String> finalizers) {}
