package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Chooses among the answers of a delegate (usually a {@link MultiRESTMapper}) with ordered
 * patterns, Kubernetes' {@code PriorityRESTMapper}: the patterns are tried in order; one that
 * matches exactly one candidate picks it, one that matches several narrows the candidates to those.
 * A pattern names a group and a version, either of which may be {@link #ANY}: {@code ("", "v1")}
 * before {@code ("events.k8s.io", ANY)} makes {@code events} the core group's.
 *
 * <p>Immutable and safe to share between threads when its delegate is.
 */
public final class PriorityRESTMapper implements RESTMapper {
  /** The wildcard of a pattern part. */
  public static final String ANY = "*";

  /**
   * A group/version pattern; either part may be {@link #ANY}. Immutable.
   *
   * @param group the group, {@code ""} for the core group, or {@code *}
   * @param version the version, or {@code *}
   */
  public record Pattern(String group, String version) {
    /**
     * Checks for nulls.
     *
     * @param group see the record description
     * @param version see the record description
     */
    public Pattern {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(version, "version");
    }

    boolean matches(String group, String version) {
      return (this.group.equals(ANY) || this.group.equals(group))
          && (this.version.equals(ANY) || this.version.equals(version));
    }
  }

  private final RESTMapper delegate;
  private final List<Pattern> resourcePriority;
  private final List<Pattern> kindPriority;

  /**
   * Creates the mapper.
   *
   * @param delegate the mapper whose answers are chosen among
   * @param resourcePriority the patterns for resource lookups, in order
   * @param kindPriority the patterns for kind lookups and mappings, in order
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
        choose(candidates, kindPriority, kind -> new String[] {kind.group(), kind.version()});
    if (chosen == null) {
      throw new AmbiguousResourceException(
          AmbiguousResourceException.spelled(resource),
          delegate.resourcesFor(resource),
          candidates);
    }
    return chosen;
  }

  @Override
  public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
    return delegate.kindsFor(resource);
  }

  @Override
  public GroupVersionResource resourceFor(GroupVersionResource resource) {
    List<GroupVersionResource> candidates = delegate.resourcesFor(resource);
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    GroupVersionResource chosen =
        choose(
            candidates, resourcePriority, found -> new String[] {found.group(), found.version()});
    if (chosen == null) {
      throw new AmbiguousResourceException(
          AmbiguousResourceException.spelled(resource), candidates, List.of());
    }
    return chosen;
  }

  @Override
  public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
    return delegate.resourcesFor(resource);
  }

  @Override
  public RESTMapping restMapping(GroupKind kind, String... versions) {
    List<RESTMapping> candidates = delegate.restMappings(kind, versions);
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    RESTMapping chosen =
        choose(
            candidates,
            kindPriority,
            mapping ->
                new String[] {
                  mapping.groupVersionKind().group(), mapping.groupVersionKind().version()
                });
    if (chosen == null) {
      List<GroupVersionKind> kinds = new ArrayList<>();
      candidates.forEach(mapping -> kinds.add(mapping.groupVersionKind()));
      throw new AmbiguousResourceException(kind.toString(), List.of(), kinds);
    }
    return chosen;
  }

  @Override
  public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
    return delegate.restMappings(kind, versions);
  }

  @Override
  public String resourceSingularizer(String resource) {
    return delegate.resourceSingularizer(resource);
  }

  private static <T> T choose(
      List<T> candidates, List<Pattern> patterns, java.util.function.Function<T, String[]> parts) {
    List<T> remaining = candidates;
    for (Pattern pattern : patterns) {
      List<T> matched = new ArrayList<>();
      for (T candidate : remaining) {
        String[] groupVersion = parts.apply(candidate);
        if (pattern.matches(groupVersion[0], groupVersion[1])) {
          matched.add(candidate);
        }
      }
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
