package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Chooses among the answers of a delegate (usually a {@link MultiRESTMapper}) with ordered
 * patterns, Kubernetes' {@code PriorityRESTMapper}: the patterns are tried in order; one that
 * matches exactly one candidate picks it, one that matches several narrows the candidates to those.
 * A pattern names a group, a version and a resource (or kind), any of which may be {@link #ANY}:
 * {@code ("", "v1", ANY)} before {@code ("events.k8s.io", ANY, ANY)} makes {@code events} the core
 * group's. {@code restMapping} with versions tries those versions of the kind's group first, as Go
 * does.
 *
 * <p>Immutable and safe to share between threads when its delegate is.
 */
public final class PriorityRESTMapper implements RESTMapper {
  /** The wildcard of a pattern part. */
  public static final String ANY = "*";

  /**
   * A group/version/name pattern; any part may be {@link #ANY}. The name is a resource in a
   * resource pattern and a kind in a kind pattern. Immutable.
   *
   * @param group the group, {@code ""} for the core group, or {@code *}
   * @param version the version, or {@code *}
   * @param name the resource or kind, or {@code *}
   */
  public record Pattern(String group, String version, String name) {
    /**
     * Checks for nulls.
     *
     * @param group see the record description
     * @param version see the record description
     * @param name see the record description
     */
    public Pattern {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(name, "name");
    }

    /**
     * A pattern on group and version that matches any resource or kind.
     *
     * @param group the group, {@code ""} for the core group, or {@code *}
     * @param version the version, or {@code *}
     */
    public Pattern(String group, String version) {
      this(group, version, ANY);
    }

    boolean matches(String group, String version, String name) {
      return (this.group.equals(ANY) || this.group.equals(group))
          && (this.version.equals(ANY) || this.version.equals(version))
          && (this.name.equals(ANY) || this.name.equals(name));
    }
  }

  private final RESTMapper delegate;
  private final List<Pattern> resourcePriority;
  private final List<Pattern> kindPriority;

  /**
   * Creates the mapper.
   *
   * @param delegate the mapper whose answers are chosen among
   * @param resourcePriority the patterns for resources, tried in order
   * @param kindPriority the patterns for kinds (and mappings), tried in order
   */
  public PriorityRESTMapper(
      RESTMapper delegate, List<Pattern> resourcePriority, List<Pattern> kindPriority) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.resourcePriority = List.copyOf(resourcePriority);
    this.kindPriority = List.copyOf(kindPriority);
  }

  @Override
  public GroupVersionKind kindFor(GroupVersionResource resource) {
    List<GroupVersionKind> candidates = delegate.kindsFor(resource);
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    GroupVersionKind chosen =
        choose(
            candidates,
            kindPriority,
            (pattern, kind) -> pattern.matches(kind.group(), kind.version(), kind.kind()));
    if (chosen == null) {
      throw new AmbiguousResourceException(resource, List.of(), candidates);
    }
    return chosen;
  }

  @Override
  public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
    return delegate.kindsFor(resource);
  }

  @Override
  public List<GroupVersionKind> kindsMatching(GroupVersionResource resource) {
    return delegate.kindsMatching(resource);
  }

  @Override
  public GroupVersionResource resourceFor(GroupVersionResource resource) {
    List<GroupVersionResource> candidates = delegate.resourcesFor(resource);
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    GroupVersionResource chosen =
        choose(
            candidates,
            resourcePriority,
            (pattern, found) -> pattern.matches(found.group(), found.version(), found.resource()));
    if (chosen == null) {
      throw new AmbiguousResourceException(resource, candidates, List.of());
    }
    return chosen;
  }

  @Override
  public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
    return delegate.resourcesFor(resource);
  }

  @Override
  public List<GroupVersionResource> resourcesMatching(GroupVersionResource resource) {
    return delegate.resourcesMatching(resource);
  }

  @Override
  public RESTMapping restMapping(GroupKind kind, String... versions) {
    List<RESTMapping> candidates = delegate.restMappings(kind, versions);
    List<Pattern> patterns = kindPriority;
    if (versions.length > 0) {
      patterns = new ArrayList<>();
      for (String version : versions) {
        patterns.add(new Pattern(kind.group(), version, ANY));
      }
      patterns.addAll(kindPriority);
    }
    List<RESTMapping> remaining = candidates;
    for (Pattern pattern : patterns) {
      List<RESTMapping> matching = filter(remaining, mapping -> matches(pattern, mapping));
      if (matching.size() == 1) {
        return matching.get(0);
      }
      if (matching.size() > 1) {
        remaining = matching;
      }
    }
    if (remaining.size() == 1) {
      return remaining.get(0);
    }
    List<GroupVersionKind> kinds = new ArrayList<>();
    candidates.forEach(mapping -> kinds.add(mapping.groupVersionKind()));
    throw new AmbiguousResourceException(
        GroupVersionKind.of(kind.group(), "", kind.kind()), List.of(), kinds);
  }

  private static boolean matches(Pattern pattern, RESTMapping mapping) {
    GroupVersionKind kind = mapping.groupVersionKind();
    return pattern.matches(kind.group(), kind.version(), kind.kind());
  }

  @Override
  public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
    return delegate.restMappings(kind, versions);
  }

  @Override
  public List<RESTMapping> restMappingsMatching(GroupKind kind, String... versions) {
    return delegate.restMappingsMatching(kind, versions);
  }

  @Override
  public String resourceSingularizer(String resource) {
    return delegate.resourceSingularizer(resource);
  }

  private static <T> List<T> filter(List<T> items, Predicate<T> keep) {
    List<T> kept = new ArrayList<>();
    for (T item : items) {
      if (keep.test(item)) {
        kept.add(item);
      }
    }
    return kept;
  }

  private static <T> T choose(
      List<T> candidates,
      List<Pattern> patterns,
      java.util.function.BiPredicate<Pattern, T> matches) {
    List<T> remaining = candidates;
    for (Pattern pattern : patterns) {
      List<T> matched = filter(remaining, candidate -> matches.test(pattern, candidate));
      if (matched.size() == 1) {
        return matched.get(0);
      }
      if (matched.size() > 1) {
        remaining = matched;
      }
    }
    return null;
  }
}
