package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The union of several mappers (usually one per group), Kubernetes' {@code MultiRESTMapper}: every
 * delegate is asked, misses are skipped, and a single-answer lookup that finds more than one answer
 * raises {@link AmbiguousResourceException} listing every candidate. Wrap it in a {@link
 * PriorityRESTMapper} to choose among them instead.
 *
 * <p>Immutable and safe to share between threads when its delegates are.
 */
public final class MultiRESTMapper implements RESTMapper {
  private final List<RESTMapper> delegates;

  private MultiRESTMapper(List<RESTMapper> delegates) {
    this.delegates = delegates;
  }

  /**
   * Returns the union of mappers, asked in this order.
   *
   * @param delegates the mappers
   * @return the union
   */
  public static MultiRESTMapper of(RESTMapper... delegates) {
    return new MultiRESTMapper(List.of(delegates));
  }

  /**
   * Returns the union of mappers, asked in this order.
   *
   * @param delegates the mappers
   * @return the union
   */
  public static MultiRESTMapper of(List<? extends RESTMapper> delegates) {
    return new MultiRESTMapper(List.copyOf(delegates));
  }

  /** Mappers of this package answer a miss without an exception, which the union relies on. */
  private static boolean isIndexed(RESTMapper delegate) {
    return delegate instanceof DefaultRESTMapper || delegate instanceof DiscoveryRESTMapper;
  }

  private static ResourceIndex.Candidates candidatesOrNull(
      RESTMapper delegate, GroupVersionResource resource) {
    if (delegate instanceof DefaultRESTMapper) {
      return ((DefaultRESTMapper) delegate).candidatesOrNull(resource);
    }
    if (delegate instanceof DiscoveryRESTMapper) {
      return ((DiscoveryRESTMapper) delegate).candidatesOrNull(resource);
    }
    return null;
  }

  @Override
  public GroupVersionKind kindFor(GroupVersionResource resource) {
    List<GroupVersionKind> kinds = kindsFor(resource);
    if (kinds.size() == 1) {
      return kinds.get(0);
    }
    throw new AmbiguousResourceException(
        AmbiguousResourceException.spelled(resource), resourcesFor(resource), kinds);
  }

  @Override
  public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
    List<GroupVersionKind> all = new ArrayList<>();
    for (RESTMapper delegate : delegates) {
      List<GroupVersionKind> found;
      ResourceIndex.Candidates candidates = candidatesOrNull(delegate, resource);
      if (candidates != null || isIndexed(delegate)) {
        found = candidates == null ? List.of() : candidates.kinds;
      } else {
        try {
          found = delegate.kindsFor(resource);
        } catch (NoResourceMatchException miss) {
          found = List.of();
        }
      }
      for (GroupVersionKind kind : found) {
        if (!all.contains(kind)) {
          all.add(kind);
        }
      }
    }
    if (all.isEmpty()) {
      throw new NoResourceMatchException(resource);
    }
    return Collections.unmodifiableList(all);
  }

  @Override
  public GroupVersionResource resourceFor(GroupVersionResource resource) {
    List<GroupVersionResource> resources = resourcesFor(resource);
    if (resources.size() == 1) {
      return resources.get(0);
    }
    throw new AmbiguousResourceException(
        AmbiguousResourceException.spelled(resource), resources, List.of());
  }

  @Override
  public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
    List<GroupVersionResource> all = new ArrayList<>();
    for (RESTMapper delegate : delegates) {
      List<GroupVersionResource> found;
      ResourceIndex.Candidates candidates = candidatesOrNull(delegate, resource);
      if (candidates != null || isIndexed(delegate)) {
        found = candidates == null ? List.of() : candidates.resources;
      } else {
        try {
          found = delegate.resourcesFor(resource);
        } catch (NoResourceMatchException miss) {
          found = List.of();
        }
      }
      for (GroupVersionResource one : found) {
        if (!all.contains(one)) {
          all.add(one);
        }
      }
    }
    if (all.isEmpty()) {
      throw new NoResourceMatchException(resource);
    }
    return Collections.unmodifiableList(all);
  }

  @Override
  public RESTMapping restMapping(GroupKind kind, String... versions) {
    List<RESTMapping> mappings = restMappings(kind, versions);
    if (mappings.size() == 1) {
      return mappings.get(0);
    }
    List<GroupVersionKind> kinds = new ArrayList<>();
    mappings.forEach(mapping -> kinds.add(mapping.groupVersionKind()));
    throw new AmbiguousResourceException(kind.toString(), List.of(), kinds);
  }

  @Override
  public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
    List<RESTMapping> all = new ArrayList<>();
    for (RESTMapper delegate : delegates) {
      List<RESTMapping> found;
      if (delegate instanceof DefaultRESTMapper) {
        found = ((DefaultRESTMapper) delegate).mappingsOrEmpty(kind, versions);
      } else if (delegate instanceof DiscoveryRESTMapper) {
        found = ((DiscoveryRESTMapper) delegate).mappingsOrEmpty(kind, versions);
      } else {
        try {
          found = delegate.restMappings(kind, versions);
        } catch (NoKindMatchException miss) {
          found = List.of();
        }
      }
      for (RESTMapping mapping : found) {
        if (!all.contains(mapping)) {
          all.add(mapping);
        }
      }
    }
    if (all.isEmpty()) {
      throw new NoKindMatchException(kind, List.of(versions));
    }
    return Collections.unmodifiableList(all);
  }

  /** Returns the singular from the first delegate that knows the name. */
  @Override
  public String resourceSingularizer(String resource) {
    for (RESTMapper delegate : delegates) {
      try {
        return delegate.resourceSingularizer(resource);
      } catch (NoResourceMatchException miss) {
        // not in this delegate
      }
    }
    throw new NoResourceMatchException(GroupVersionResource.of("", "", resource));
  }
}
