package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.Objects;

/**
 * How a subresource is served, such as {@code scale} of {@code apps/v1 deployments}, which takes
 * and returns an {@code autoscaling/v1 Scale}. Immutable.
 *
 * @param resource the parent resource, such as {@code apps/v1, Resource=deployments}
 * @param subresource the subresource name, such as {@code scale}
 * @param groupVersionKind the kind it returns
 * @param scope the parent's scope
 */
public record SubresourceMapping(
    GroupVersionResource resource,
    String subresource,
    GroupVersionKind groupVersionKind,
    Scope scope) {
  /**
   * Checks for nulls.
   *
   * @param resource see the record description
   * @param subresource see the record description
   * @param groupVersionKind see the record description
   * @param scope see the record description
   */
  public SubresourceMapping {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(subresource, "subresource");
    Objects.requireNonNull(groupVersionKind, "groupVersionKind");
    Objects.requireNonNull(scope, "scope");
  }

  /**
   * Returns the path segment of the subresource, such as {@code deployments/scale}.
   *
   * @return the path
   */
  public String path() {
    return resource.resource() + "/" + subresource;
  }
}
