package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.List;
import java.util.Optional;

/**
 * Maps between kinds and REST resources, Kubernetes' {@code meta.RESTMapper}. A resource given as
 * input may be partial: its group or version (or both) left empty match any; its name may be the
 * plural ({@code deployments}), the singular ({@code deployment}) or the kind ({@code Deployment},
 * matched case-insensitively as the singular).
 *
 * <p>Lookups never return an empty list: a query that matches nothing raises {@link
 * NoResourceMatchException} or {@link NoKindMatchException}; a single-answer lookup that matches
 * several raises {@link AmbiguousResourceException} with every candidate. Implementations in this
 * package are immutable or internally synchronised and safe to share between threads.
 *
 * <p>The {@code ...Matching} forms answer a miss with an empty result instead: a mapper that
 * composes others ({@link MultiRESTMapper}) asks its delegates with them, since a delegate that
 * does not know a resource is the common case there, not an error. Their defaults call the throwing
 * forms; a mapper that can tell a miss without building an exception overrides them.
 */
public interface RESTMapper {
  /**
   * Returns the one kind a (possibly partial) resource names.
   *
   * @param resource the resource
   * @return the kind
   * @throws NoResourceMatchException if nothing matches
   * @throws AmbiguousResourceException if several kinds match
   */
  GroupVersionKind kindFor(GroupVersionResource resource);

  /**
   * Returns every kind a (possibly partial) resource may name, most preferred first.
   *
   * @param resource the resource
   * @return the kinds, at least one
   * @throws NoResourceMatchException if nothing matches
   */
  List<GroupVersionKind> kindsFor(GroupVersionResource resource);

  /**
   * Returns the one fully specified plural resource a (possibly partial) resource names.
   *
   * @param resource the resource
   * @return the resource
   * @throws NoResourceMatchException if nothing matches
   * @throws AmbiguousResourceException if several resources match
   */
  GroupVersionResource resourceFor(GroupVersionResource resource);

  /**
   * Returns every fully specified plural resource a (possibly partial) resource may name, most
   * preferred first.
   *
   * @param resource the resource
   * @return the resources, at least one
   * @throws NoResourceMatchException if nothing matches
   */
  List<GroupVersionResource> resourcesFor(GroupVersionResource resource);

  /**
   * Returns the mapping of a group kind in the first of {@code versions} that serves it, or in the
   * most preferred version when none is given.
   *
   * @param kind the group kind
   * @param versions the versions to try, in order; none means the preferred ones
   * @return the mapping
   * @throws NoKindMatchException if no version serves the kind
   * @throws AmbiguousResourceException if several mappings match equally
   */
  RESTMapping restMapping(GroupKind kind, String... versions);

  /**
   * Returns the mapping of a group kind in the first of {@code versions} that serves it, or its
   * mappings in every version serving it when none is given, most preferred first.
   *
   * @param kind the group kind
   * @param versions the versions to try, in order; none means all
   * @return the mappings, at least one
   * @throws NoKindMatchException if no version serves the kind
   */
  List<RESTMapping> restMappings(GroupKind kind, String... versions);

  /**
   * Returns the singular of a plural resource name, such as {@code deployment} for {@code
   * deployments}.
   *
   * @param resource the plural (or already singular) name
   * @return the singular
   * @throws NoResourceMatchException if the name is not a known resource
   */
  String resourceSingularizer(String resource);

  /**
   * Returns every kind a resource may name, as {@link #kindsFor}, or an empty list where it would
   * raise a {@link NoMatchException}.
   *
   * @param resource the resource
   * @return the kinds, most preferred first; empty if nothing matches
   */
  default List<GroupVersionKind> kindsMatching(GroupVersionResource resource) {
    try {
      return kindsFor(resource);
    } catch (NoMatchException miss) {
      return List.of();
    }
  }

  /**
   * Returns every resource a resource may name, as {@link #resourcesFor}, or an empty list where it
   * would raise a {@link NoMatchException}.
   *
   * @param resource the resource
   * @return the resources, most preferred first; empty if nothing matches
   */
  default List<GroupVersionResource> resourcesMatching(GroupVersionResource resource) {
    try {
      return resourcesFor(resource);
    } catch (NoMatchException miss) {
      return List.of();
    }
  }

  /**
   * Returns the mapping {@link #restMapping} gives, or empty where it would raise a {@link
   * NoMatchException}.
   *
   * @param kind the group kind
   * @param versions the versions to try, in order; none means the preferred ones
   * @return the mapping, or empty if no version serves the kind
   * @throws AmbiguousResourceException if several mappings match equally
   */
  default Optional<RESTMapping> restMappingMatching(GroupKind kind, String... versions) {
    try {
      return Optional.of(restMapping(kind, versions));
    } catch (NoMatchException miss) {
      return Optional.empty();
    }
  }

  /**
   * Returns the mappings {@link #restMappings} gives, or an empty list where it would raise a
   * {@link NoMatchException}.
   *
   * @param kind the group kind
   * @param versions the versions to try, in order; none means all
   * @return the mappings, most preferred first; empty if no version serves the kind
   */
  default List<RESTMapping> restMappingsMatching(GroupKind kind, String... versions) {
    try {
      return restMappings(kind, versions);
    } catch (NoMatchException miss) {
      return List.of();
    }
  }
}
