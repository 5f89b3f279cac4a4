package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.discovery.ResourceInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The mapper of one group, or of a set of group versions, with Kubernetes' {@code
 * DefaultRESTMapper}'s rules: kinds registered with explicit plural and singular resources ({@link
 * Builder#addSpecific}) or with the names Kubernetes guesses ({@link Builder#add}: {@code Pod} →
 * {@code pods}, {@code Ingress} → {@code ingresses}, {@code NetworkPolicy} → {@code
 * networkpolicies}, a kind ending in {@code endpoints} unchanged, and the known quirk {@code
 * Gateway} → {@code gatewaies}, kept so that every client guesses the same path).
 *
 * <p>Lookups follow Go's: the resource asked for is lower-cased and an {@code __internal} version
 * means any version; a group with no version matches exactly, or else as a prefix ({@code storage}
 * finds {@code storage.k8s.io}); results are ordered by the default group versions, then by name; a
 * single-answer lookup that matches more than one is ambiguous; {@code restMapping} with no version
 * searches the default group versions of the kind's group. One difference: a resource whose
 * singular and plural are the same name ({@code endpoints}) is listed once, where Go's lists it
 * twice and so calls it ambiguous with itself.
 *
 * <p>Immutable after {@link Builder#build()} and safe to share between threads.
 */
public final class DefaultRESTMapper implements RESTMapper {
  private final List<GroupVersion> defaultVersions;

  /** Plural resource to singular, in registration order. */
  private final Map<GroupVersionResource, GroupVersionResource> pluralToSingular;

  /** Both the singular and the plural resource of every kind, to the kind. */
  private final Map<GroupVersionResource, GroupVersionKind> resourceToKind;

  private final Map<GroupVersionKind, GroupVersionResource> kindToPlural;
  private final Map<GroupVersionKind, Scope> kindToScope;

  private DefaultRESTMapper(Builder builder) {
    this.defaultVersions = builder.defaultVersions;
    this.pluralToSingular =
        Collections.unmodifiableMap(new LinkedHashMap<>(builder.pluralToSingular));
    this.resourceToKind = Collections.unmodifiableMap(new LinkedHashMap<>(builder.resourceToKind));
    this.kindToPlural = Collections.unmodifiableMap(new LinkedHashMap<>(builder.kindToPlural));
    this.kindToScope = Collections.unmodifiableMap(new LinkedHashMap<>(builder.kindToScope));
  }

  /**
   * Returns a builder whose results are ordered by these group versions, most preferred first, and
   * whose {@code restMapping} searches them when no version is named.
   *
   * @param defaultVersions the group versions, most preferred first
   * @return the builder
   */
  public static Builder builder(GroupVersion... defaultVersions) {
    return new Builder(List.of(defaultVersions));
  }

  /**
   * Returns Kubernetes' guess of a kind's plural and singular resources, in that order: both empty
   * for an empty kind.
   *
   * @param kind the kind
   * @return the plural and the singular resource
   */
  public static List<GroupVersionResource> guessResources(GroupVersionKind kind) {
    String singular = kind.kind().toLowerCase(Locale.ROOT);
    return List.of(
        kind.groupVersion().withResource(ResourceInfo.guessPlural(kind.kind())),
        kind.groupVersion().withResource(singular));
  }

  /**
   * Returns the default group versions, most preferred first.
   *
   * @return the group versions
   */
  public List<GroupVersion> defaultGroupVersions() {
    return defaultVersions;
  }

  /** Lower case, and {@code __internal} as no version: Go's coerceResourceForMatching. */
  private static GroupVersionResource coerce(GroupVersionResource input) {
    if (input.resource().isEmpty()) {
      throw new IllegalArgumentException("a resource must be present, got: " + input);
    }
    String version = input.version().equals(GroupVersion.INTERNAL_VERSION) ? "" : input.version();
    return GroupVersionResource.of(
        input.group(), version, input.resource().toLowerCase(Locale.ROOT));
  }

  @Override
  public List<GroupVersionResource> resourcesFor(GroupVersionResource input) {
    List<GroupVersionResource> found = resourcesMatching(input);
    if (found.isEmpty()) {
      throw new NoResourceMatchException(coerce(input));
    }
    return found;
  }

  @Override
  public List<GroupVersionResource> resourcesMatching(GroupVersionResource input) {
    GroupVersionResource query = coerce(input);
    List<GroupVersionResource> found = new ArrayList<>();
    boolean hasGroup = !query.group().isEmpty();
    boolean hasVersion = !query.version().isEmpty();
    if (hasGroup && hasVersion) {
      for (Map.Entry<GroupVersionResource, GroupVersionResource> entry :
          pluralToSingular.entrySet()) {
        if (entry.getValue().equals(query) || entry.getKey().equals(query)) {
          found.add(entry.getKey());
          break;
        }
      }
    } else if (hasGroup) {
      for (Map.Entry<GroupVersionResource, GroupVersionResource> entry :
          pluralToSingular.entrySet()) {
        if (sameGroupResource(entry.getValue(), query)
            || sameGroupResource(entry.getKey(), query)) {
          addOnce(found, entry.getKey());
        }
      }
      if (found.isEmpty()) { // a group prefix: "storage" finds storage.k8s.io
        for (Map.Entry<GroupVersionResource, GroupVersionResource> entry :
            pluralToSingular.entrySet()) {
          if (entry.getKey().group().startsWith(query.group())
              && (entry.getValue().resource().equals(query.resource())
                  || entry.getKey().resource().equals(query.resource()))) {
            addOnce(found, entry.getKey());
          }
        }
      }
    } else {
      for (Map.Entry<GroupVersionResource, GroupVersionResource> entry :
          pluralToSingular.entrySet()) {
        boolean versionMatches = !hasVersion || entry.getKey().version().equals(query.version());
        if (versionMatches
            && (entry.getValue().resource().equals(query.resource())
                || entry.getKey().resource().equals(query.resource()))) {
          addOnce(found, entry.getKey());
        }
      }
    }
    if (found.isEmpty()) {
      return List.of();
    }
    found.sort(preferred(GroupVersionResource::groupVersion, GroupVersionResource::resource));
    return Collections.unmodifiableList(found);
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
  public List<GroupVersionKind> kindsFor(GroupVersionResource input) {
    List<GroupVersionKind> found = kindsMatching(input);
    if (found.isEmpty()) {
      throw new NoResourceMatchException(input);
    }
    return found;
  }

  @Override
  public List<GroupVersionKind> kindsMatching(GroupVersionResource input) {
    GroupVersionResource query = coerce(input);
    List<GroupVersionKind> found = new ArrayList<>();
    boolean hasGroup = !query.group().isEmpty();
    boolean hasVersion = !query.version().isEmpty();
    if (hasGroup && hasVersion) {
      GroupVersionKind kind = resourceToKind.get(query);
      if (kind != null) {
        found.add(kind);
      }
    } else if (hasGroup) {
      resourceToKind.forEach(
          (resource, kind) -> {
            if (sameGroupResource(resource, query)) {
              addOnce(found, kind);
            }
          });
      if (found.isEmpty()) { // a group prefix
        resourceToKind.forEach(
            (resource, kind) -> {
              if (resource.group().startsWith(query.group())
                  && resource.resource().equals(query.resource())) {
                addOnce(found, kind);
              }
            });
      }
    } else {
      resourceToKind.forEach(
          (resource, kind) -> {
            if ((!hasVersion || resource.version().equals(query.version()))
                && resource.resource().equals(query.resource())) {
              addOnce(found, kind);
            }
          });
    }
    if (found.isEmpty()) {
      return List.of();
    }
    found.sort(preferred(GroupVersionKind::groupVersion, GroupVersionKind::kind));
    return Collections.unmodifiableList(found);
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
  public RESTMapping restMapping(GroupKind kind, String... versions) {
    return restMappings(kind, versions).get(0);
  }

  @Override
  public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
    List<RESTMapping> mappings = restMappingsMatching(kind, versions);
    if (mappings.isEmpty()) {
      if (potential(kind, versions).isEmpty()) {
        throw new NoKindMatchException(kind, searched(versions));
      }
      // Go names the kind as the resource; resources are lower case here.
      throw new NoResourceMatchException(
          GroupVersionResource.of(kind.group(), "", kind.kind().toLowerCase(Locale.ROOT)));
    }
    return mappings;
  }

  @Override
  public Optional<RESTMapping> restMappingMatching(GroupKind kind, String... versions) {
    List<RESTMapping> mappings = restMappingsMatching(kind, versions);
    return mappings.isEmpty() ? Optional.empty() : Optional.of(mappings.get(0));
  }

  @Override
  public List<RESTMapping> restMappingsMatching(GroupKind kind, String... versions) {
    List<GroupVersionKind> potential = potential(kind, versions);
    if (potential.isEmpty()) {
      return List.of();
    }
    List<RESTMapping> mappings = new ArrayList<>();
    for (GroupVersionKind candidate : potential) {
      GroupVersionResource resource = kindToPlural.get(candidate);
      if (resource != null) {
        mappings.add(new RESTMapping(resource, candidate, kindToScope.get(candidate)));
      }
    }
    return mappings.isEmpty() ? List.of() : Collections.unmodifiableList(mappings);
  }

  /** The kinds Go's RESTMappings would look up: the first given version served, or defaults. */
  private List<GroupVersionKind> potential(GroupKind kind, String... versions) {
    List<GroupVersionKind> potential = new ArrayList<>();
    boolean hadVersion = false;
    for (String version : versions) {
      if (version == null || version.isEmpty() || version.equals(GroupVersion.INTERNAL_VERSION)) {
        continue;
      }
      hadVersion = true;
      GroupVersionKind candidate = GroupVersionKind.of(kind.group(), version, kind.kind());
      if (kindToPlural.containsKey(candidate)) {
        potential.add(candidate);
        break;
      }
    }
    if (!hadVersion) {
      for (GroupVersion version : defaultVersions) {
        if (version.group().equals(kind.group())) {
          potential.add(version.withKind(kind.kind()));
        }
      }
    }
    return potential;
  }

  @Override
  public String resourceSingularizer(String resource) {
    List<GroupVersionResource> resources = resourcesFor(GroupVersionResource.of("", "", resource));
    String singular = null;
    for (GroupVersionResource plural : resources) {
      GroupVersionResource current = pluralToSingular.get(plural);
      if (current == null) {
        continue;
      }
      if (singular == null) {
        singular = current.resource();
      } else if (!singular.equals(current.resource())) {
        throw new AmbiguousResourceException(
            GroupVersionResource.of("", "", resource), resources, List.of());
      }
    }
    if (singular == null) {
      throw new NoResourceMatchException(GroupVersionResource.of("", "", resource));
    }
    return singular;
  }

  private static boolean sameGroupResource(GroupVersionResource a, GroupVersionResource b) {
    return a.group().equals(b.group()) && a.resource().equals(b.resource());
  }

  private static <T> void addOnce(List<T> list, T item) {
    if (!list.contains(item)) {
      list.add(item);
    }
  }

  private static List<String> searched(String... versions) {
    List<String> list = new ArrayList<>();
    for (String version : versions) {
      if (version != null) {
        list.add(version);
      }
    }
    return list;
  }

  /**
   * Go's order of results: by the position of their group version among the defaults (group
   * versions that are not among them last), then by name within one group version.
   */
  private <T> Comparator<T> preferred(
      Function<T, GroupVersion> groupVersion, Function<T, String> name) {
    return Comparator.<T>comparingInt(
            item -> {
              int index = defaultVersions.indexOf(groupVersion.apply(item));
              return index < 0 ? Integer.MAX_VALUE : index;
            })
        .thenComparing(item -> groupVersion.apply(item).toString())
        .thenComparing(name);
  }

  /** Collects the kinds of a {@link DefaultRESTMapper}. Not thread-safe. */
  public static final class Builder {
    private final List<GroupVersion> defaultVersions;
    private final Map<GroupVersionResource, GroupVersionResource> pluralToSingular =
        new LinkedHashMap<>();
    private final Map<GroupVersionResource, GroupVersionKind> resourceToKind =
        new LinkedHashMap<>();
    private final Map<GroupVersionKind, GroupVersionResource> kindToPlural = new LinkedHashMap<>();
    private final Map<GroupVersionKind, Scope> kindToScope = new LinkedHashMap<>();

    private Builder(List<GroupVersion> defaultVersions) {
      this.defaultVersions = defaultVersions;
    }

    /**
     * Adds a kind under the resource names Kubernetes guesses for it.
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
     * Adds a kind under explicit resource names; as in Go, a later registration of the same names
     * or kind replaces the earlier one.
     *
     * @param kind the kind
     * @param plural the plural resource
     * @param singular the singular resource
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
      pluralToSingular.put(plural, singular);
      resourceToKind.put(singular, kind);
      resourceToKind.put(plural, kind);
      kindToPlural.put(kind, plural);
      kindToScope.put(kind, scope);
      return this;
    }

    /**
     * Builds the immutable mapper.
     *
     * @return the mapper
     */
    public DefaultRESTMapper build() {
      return new DefaultRESTMapper(this);
    }
  }
}
