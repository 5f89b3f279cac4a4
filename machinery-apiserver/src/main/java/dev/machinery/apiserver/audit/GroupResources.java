package dev.machinery.apiserver.audit;

import java.util.List;
import java.util.Objects;

/**
 * The resources of one API group a policy rule is about ({@code audit.k8s.io/v1 GroupResources}).
 * Immutable.
 *
 * @param group the API group, {@code ""} for the core group, {@code *} for any
 * @param resources the resources, such as {@code pods}, {@code pods/log} (a subresource), {@code *}
 *     (any resource or subresource), {@code *}{@code /scale} (that subresource of any resource) or
 *     {@code deployments/*} (any subresource of that resource); empty for every resource of the
 *     group
 * @param resourceNames the objects' names; empty for any
 */
public record GroupResources(String group, List<String> resources, List<String> resourceNames) {
  /**
   * Copies the lists.
   *
   * @param group see the record description
   * @param resources see the record description
   * @param resourceNames see the record description
   */
  public GroupResources {
    group = Objects.requireNonNullElse(group, "");
    resources = List.copyOf(resources);
    resourceNames = List.copyOf(resourceNames);
  }
}
