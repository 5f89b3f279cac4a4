package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.core.schema.GroupVersionKind;

/**
 * A resource as served in one version: its store, and its kind and class in that version.
 * Immutable.
 *
 * @param store the resource's store
 * @param kind the kind in the served version
 * @param type the class of that kind
 */
public record Served(ResourceStore store, GroupVersionKind kind, Class<?> type) {}
