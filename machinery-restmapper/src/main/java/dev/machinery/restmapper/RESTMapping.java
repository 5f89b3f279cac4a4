package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.Objects;

/**
 * How one kind is served: its REST resource, its group/version/kind and its scope. Immutable.
 *
 * @param resource the plural resource, such as {@code apps/v1, Resource=deployments}
 * @param groupVersionKind the kind
 * @param scope namespaced or cluster-wide
 */
public record RESTMapping(
    GroupVersionResource resource, GroupVersionKind groupVersionKind, Scope scope) {
  /**
   * Checks for nulls.
   *
   * @param resource see the record description
   * @param groupVersionKind see the record description
   * @param scope see the record description
   */
  public RESTMapping {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(groupVersionKind, "groupVersionKind");
    Objects.requireNonNull(scope, "scope");
  }
}
