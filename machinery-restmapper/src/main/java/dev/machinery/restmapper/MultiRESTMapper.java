package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

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
   * Returns a mapper over the delegates, asked in this order.
   *
   * @param delegates the delegates
   * @return the mapper
   */
  public static MultiRESTMapper of(RESTMapper... delegates) {
    return new MultiRESTMapper(List.of(delegates));
  }

  /**
   * Returns a mapper over the delegates, asked in this order.
   *
   * @param delegates the delegates
   * @return the mapper
   */
  public static MultiRESTMapper of(List<? extends RESTMapper> delegates) {
    return new MultiRESTMapper(List.copyOf(delegates));
  }

  @Override
  public GroupVersionKind kindFor(GroupVersionResource resource) {
    List<GroupVersionKind> kinds = kindsFor(resource);
    if (kinds.size() == 1) {
      return kinds.get(0);
    }
    throw new AmbiguousResourceException(resource, List.of(), kinds);
  }

  @Override
  public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
    List<GroupVersionKind> all = kindsMatching(resource);
    if (all.isEmpty()) {
      throw new NoResourceMatchException(resource);
    }
    return all;
  }

  @Override
  public List<GroupVersionKind> kindsMatching(GroupVersionResource resource) {
    List<GroupVersionKind> all = new ArrayList<>();
    for (RESTMapper delegate : delegates) {
      for (GroupVersionKind kind : delegate.kindsMatching(resource)) {
        if (!all.contains(kind)) {
          all.add(kind);
        }
      }
    }
    return all.isEmpty() ? List.of() : Collections.unmodifiableList(all);
  }

  @Override
  public GroupVersionResource resourceFor(GroupVersionResource resource) {
    List<GroupVersionResource> resources = resourcesFor(resource);
    if (resources.size() == 1) {
      return resources.get(0);
    }
    throw new AmbiguousResourceException(resource, resources, List.of());
  }

  @Override
  public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
    List<GroupVersionResource> all = resourcesMatching(resource);
    if (all.isEmpty()) {
      throw new NoResourceMatchException(resource);
    }
    return all;
  }

  @Override
  public List<GroupVersionResource> resourcesMatching(GroupVersionResource resource) {
    List<GroupVersionResource> all = new ArrayList<>();
    for (RESTMapper delegate : delegates) {
      for (GroupVersionResource one : delegate.resourcesMatching(resource)) {
        if (!all.contains(one)) {
          all.add(one);
        }
      }
    }
    return all.isEmpty() ? List.of() : Collections.unmodifiableList(all);
  }

  /**
   * Asks every delegate for its one mapping: a single answer wins even if other delegates failed
   * (their failures other than no-match are thrown only when nobody answered); two answers are
   * ambiguous, even two equal mappings from two delegates, as in Go.
   */
  @Override
  public RESTMapping restMapping(GroupKind kind, String... versions) {
    return restMappingMatching(kind, versions)
        .orElseThrow(() -> new NoKindMatchException(kind, List.of(versions)));
  }

  @Override
  public Optional<RESTMapping> restMappingMatching(GroupKind kind, String... versions) {
    List<RESTMapping> found = new ArrayList<>();
    RuntimeException failure = null;
    for (RESTMapper delegate : delegates) {
      try {
        delegate.restMappingMatching(kind, versions).ifPresent(found::add);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (found.size() == 1) {
      return Optional.of(found.get(0));
    }
    if (found.size() > 1) {
      List<GroupVersionKind> kinds = new ArrayList<>();
      found.forEach(mapping -> kinds.add(mapping.groupVersionKind()));
      throw new AmbiguousResourceException(
          GroupVersionKind.of(kind.group(), "", kind.kind()), List.of(), kinds);
    }
    if (failure != null) {
      throw failure;
    }
    return Optional.empty();
  }

  @Override
  public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
    List<RESTMapping> all = restMappingsMatching(kind, versions);
    if (all.isEmpty()) {
      throw new NoKindMatchException(kind, List.of(versions));
    }
    return all;
  }

  @Override
  public List<RESTMapping> restMappingsMatching(GroupKind kind, String... versions) {
    List<RESTMapping> all = new ArrayList<>();
    RuntimeException failure = null;
    for (RESTMapper delegate : delegates) {
      try {
        all.addAll(delegate.restMappingsMatching(kind, versions));
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return all.isEmpty() ? List.of() : Collections.unmodifiableList(all);
  }

  @Override
  public String resourceSingularizer(String resource) {
    NoMatchException last = null;
    for (RESTMapper delegate : delegates) {
      try {
        return delegate.resourceSingularizer(resource);
      } catch (NoMatchException miss) {
        last = miss;
      }
    }
    throw last != null
        ? last
        : new NoResourceMatchException(GroupVersionResource.of("", "", resource));
  }
}
