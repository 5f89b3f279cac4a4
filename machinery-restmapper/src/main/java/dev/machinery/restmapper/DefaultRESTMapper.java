package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.discovery.ResourceInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The mapper of one group, or of a set of group versions, Kubernetes' {@code DefaultRESTMapper}:
 * kinds registered with explicit plural and singular resources ({@link Builder#addSpecific}) or
 * with the names Kubernetes guesses ({@link Builder#add}: {@code Pod} → {@code pods}, {@code
 * Ingress} → {@code ingresses}, {@code NetworkPolicy} → {@code networkpolicies}, {@code Endpoints}
 * → {@code endpoints}, and the known quirk {@code Gateway} → {@code gatewaies}, kept so that every
 * client guesses the same path). Results come in the order of the default group versions; a
 * single-answer lookup that matches more than one is ambiguous.
 *
 * <p>Immutable after {@link Builder#build()} and safe to share between threads.
 */
public final class DefaultRESTMapper implements RESTMapper {
  private final ResourceIndex index;
  private final List<GroupVersion> defaultVersions;

  private DefaultRESTMapper(ResourceIndex index, List<GroupVersion> defaultVersions) {
    this.index = index;
    this.defaultVersions = defaultVersions;
  }

  /**
   * Returns a builder whose results are ordered by these group versions, most preferred first.
   *
   * @param defaultVersions the group versions, most preferred first
   * @return the builder
   */
  public static Builder builder(GroupVersion... defaultVersions) {
    return new Builder(List.of(defaultVersions));
  }

  /**
   * Returns the plural and singular resources Kubernetes guesses for a kind, {@code
   * UnsafeGuessKindToResource}.
   *
   * @param kind the kind
   * @return the plural resource, then the singular one
   */
  public static List<GroupVersionResource> guessResources(GroupVersionKind kind) {
    String singular = kind.kind().toLowerCase(Locale.ROOT);
    return List.of(
        kind.groupVersion().withResource(ResourceInfo.guessPlural(kind.kind())),
        kind.groupVersion().withResource(singular));
  }

  /**
   * Returns the group versions results are ordered by.
   *
   * @return the default group versions, most preferred first
   */
  public List<GroupVersion> defaultGroupVersions() {
    return defaultVersions;
  }

  /** The matching entries, or null when none; for the union, without an exception. */
  ResourceIndex.Candidates candidatesOrNull(GroupVersionResource query) {
    return index.match(query);
  }

  /** The mappings of a kind, empty when none; for the union, without an exception. */
  List<RESTMapping> mappingsOrEmpty(GroupKind kind, String... versions) {
    return index.mappingsOrEmpty(kind, versions);
  }

  @Override
  public GroupVersionKind kindFor(GroupVersionResource resource) {
    return index.kindFor(resource);
  }

  @Override
  public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
    return index.kindsFor(resource);
  }

  @Override
  public GroupVersionResource resourceFor(GroupVersionResource resource) {
    return index.resourceFor(resource);
  }

  @Override
  public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
    return index.resourcesFor(resource);
  }

  @Override
  public RESTMapping restMapping(GroupKind kind, String... versions) {
    return index.restMapping(kind, versions);
  }

  @Override
  public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
    return index.restMappings(kind, versions);
  }

  @Override
  public String resourceSingularizer(String resource) {
    return index.singular(resource);
  }

  /** Collects kinds for a {@link DefaultRESTMapper}. Not thread-safe. */
  public static final class Builder {
    private final List<GroupVersion> defaultVersions;
    private final List<ResourceIndex.Entry> entries = new ArrayList<>();

    private Builder(List<GroupVersion> defaultVersions) {
      this.defaultVersions = defaultVersions;
    }

    /**
     * Adds a kind under the resource names Kubernetes guesses for it ({@link #guessResources}).
     *
     * @param kind the kind
     * @param scope its scope
     * @return this builder
     */
    public Builder add(GroupVersionKind kind, Scope scope) {
      List<GroupVersionResource> guessed = guessResources(kind);
      return addSpecific(kind, guessed.get(0), guessed.get(1), scope);
    }

    /**
     * Adds a kind under explicit plural and singular resources.
     *
     * @param kind the kind
     * @param plural the plural resource, such as {@code apps/v1, Resource=deployments}
     * @param singular the singular resource, such as {@code apps/v1, Resource=deployment}
     * @param scope its scope
     * @return this builder
     */
    public Builder addSpecific(
        GroupVersionKind kind,
        GroupVersionResource plural,
        GroupVersionResource singular,
        Scope scope) {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(plural, "plural");
      Objects.requireNonNull(singular, "singular");
      Objects.requireNonNull(scope, "scope");
      GroupVersionResource lowerPlural =
          plural.groupVersion().withResource(ResourceIndex.lower(plural.resource()));
      GroupVersionResource lowerSingular =
          singular.groupVersion().withResource(ResourceIndex.lower(singular.resource()));
      entries.add(
          new ResourceIndex.Entry(
              lowerPlural, lowerSingular, kind, new RESTMapping(lowerPlural, kind, scope)));
      return this;
    }

    /**
     * Builds the immutable mapper.
     *
     * @return the mapper
     */
    public DefaultRESTMapper build() {
      List<ResourceIndex.Entry> ordered = new ArrayList<>(entries);
      ordered.sort(Comparator.comparingInt(entry -> rank(entry.kind().groupVersion())));
      return new DefaultRESTMapper(
          new ResourceIndex(ResourceIndex.Policy.AMBIGUOUS, ordered), defaultVersions);
    }

    private int rank(GroupVersion version) {
      int index = defaultVersions.indexOf(version);
      return index < 0 ? defaultVersions.size() : index;
    }
  }
}
