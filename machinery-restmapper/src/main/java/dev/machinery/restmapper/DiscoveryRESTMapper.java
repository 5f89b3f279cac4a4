package dev.machinery.restmapper;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscovery;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscoveryList;
import dev.machinery.unversioned.discovery.v2.APIResourceDiscovery;
import dev.machinery.unversioned.discovery.v2.APISubresourceDiscovery;
import dev.machinery.unversioned.discovery.v2.APIVersionDiscovery;
import dev.machinery.unversioned.discovery.v2.GroupVersionKindRef;
import dev.machinery.unversioned.meta.v1.APIGroup;
import dev.machinery.unversioned.meta.v1.APIGroupList;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.GroupVersionForDiscovery;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The mapper a client builds from a server's discovery documents, as kubectl does: every resource
 * of every served group version; when a name matches in several places, the core group's {@code v1}
 * first, then each group in discovery order with its preferred version before the others (so {@code
 * events} is the core group's, not {@code events.k8s.io}'s, and {@code deployments} is {@code
 * apps/v1}). Subresources ({@code deployments/scale}) are left out of plain lookups and reached
 * with {@link #subresource}. Short names ({@code deploy}, {@code po}, {@code hpa}) expand to their
 * resources unless a resource has that name, and {@link #expandCategory} lists a category ({@code
 * all}).
 *
 * <p>The result equals Kubernetes' {@code PriorityRESTMapper} over a {@code MultiRESTMapper} of one
 * {@code DefaultRESTMapper} per group version, but answers from one precomputed index: a hit
 * allocates nothing. {@link #withoutPriority()} gives the strict variant, which reports a name
 * found in several groups as ambiguous instead of choosing.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class DiscoveryRESTMapper implements RESTMapper {
  private final ResourceIndex index;
  private final Map<String, List<GroupResource>> shortNames;
  private final Map<String, List<GroupResource>> categories;
  private final Map<GroupVersionResource, Map<String, SubresourceMapping>> subresources;
  private final List<GroupVersion> versions;
  private final Map<GroupResource, GroupVersionResource> expanded = new HashMap<>();

  private DiscoveryRESTMapper(
      ResourceIndex index,
      Map<String, List<GroupResource>> shortNames,
      Map<String, List<GroupResource>> categories,
      Map<GroupVersionResource, Map<String, SubresourceMapping>> subresources,
      List<GroupVersion> versions) {
    this.index = index;
    this.shortNames = shortNames;
    this.categories = categories;
    this.subresources = subresources;
    this.versions = versions;
    shortNames.values().forEach(list -> list.forEach(gr -> expanded.put(gr, gr.withVersion(""))));
  }

  /**
   * Builds the mapper from legacy discovery: the group list of {@code /apis} (order and preferred
   * versions) and the resource lists of {@code /api/v1} and each {@code /apis/{group}/{version}}.
   * Resource lists of versions the group list does not announce are ignored, as a client would
   * never have fetched them.
   *
   * @param groups the {@code /apis} document
   * @param resourceLists the resource lists
   * @return the mapper
   */
  public static DiscoveryRESTMapper fromDiscovery(
      APIGroupList groups, List<APIResourceList> resourceLists) {
    Map<GroupVersion, APIResourceList> byVersion = new LinkedHashMap<>();
    for (APIResourceList list : resourceLists) {
      byVersion.put(GroupVersion.parse(list.getGroupVersion()), list);
    }
    List<GroupVersion> order = new ArrayList<>();
    byVersion.keySet().stream().filter(gv -> gv.group().isEmpty()).forEach(order::add);
    order.sort((a, b) -> Boolean.compare(!a.version().equals("v1"), !b.version().equals("v1")));
    for (APIGroup group : groups.getGroups()) {
      GroupVersionForDiscovery preferred = group.getPreferredVersion();
      if (preferred != null) {
        add(order, GroupVersion.of(group.getName(), preferred.getVersion()), byVersion);
      }
      for (GroupVersionForDiscovery version : group.getVersions()) {
        add(order, GroupVersion.of(group.getName(), version.getVersion()), byVersion);
      }
    }
    Builder builder = new Builder();
    for (GroupVersion version : order) {
      for (APIResource resource : byVersion.get(version).getResources()) {
        builder.legacy(version, resource);
      }
    }
    return builder.build(ResourceIndex.Policy.PRIORITY);
  }

  private static void add(
      List<GroupVersion> order, GroupVersion version, Map<GroupVersion, ?> available) {
    if (available.containsKey(version) && !order.contains(version)) {
      order.add(version);
    }
  }

  /**
   * Builds the mapper from aggregated discovery ({@code apidiscovery.k8s.io/v2}): the {@code /api}
   * document (core group) and the {@code /apis} document, in that order; each group's versions are
   * listed most preferred first.
   *
   * @param documents the aggregated documents
   * @return the mapper
   */
  public static DiscoveryRESTMapper fromAggregated(APIGroupDiscoveryList... documents) {
    List<APIGroupDiscovery> groups = new ArrayList<>();
    for (APIGroupDiscoveryList document : documents) {
      groups.addAll(document.getItems());
    }
    groups.sort((a, b) -> Boolean.compare(!groupName(a).isEmpty(), !groupName(b).isEmpty()));
    Builder builder = new Builder();
    for (APIGroupDiscovery group : groups) {
      if (group.getVersions() == null) {
        continue;
      }
      for (APIVersionDiscovery version : group.getVersions()) {
        GroupVersion gv = GroupVersion.of(groupName(group), version.getVersion());
        if (version.getResources() != null) {
          for (APIResourceDiscovery resource : version.getResources()) {
            builder.aggregated(gv, resource);
          }
        }
      }
    }
    return builder.build(ResourceIndex.Policy.PRIORITY);
  }

  private static String groupName(APIGroupDiscovery group) {
    String name = group.getMetadata() == null ? null : group.getMetadata().getName();
    return name == null ? "" : name;
  }

  /**
   * Builds the mapper from a Scheme: every registered external kind of every enabled group version
   * (unversioned kinds, option kinds ending in {@code Options} and {@code WatchEvent} left out),
   * under the names Kubernetes guesses, ordered as the Scheme orders each group's versions, the
   * core group first.
   *
   * @param scheme the scheme
   * @param enablement which group versions are served
   * @param clusterScoped the kinds that are cluster-wide; all others are namespaced
   * @return the mapper
   */
  public static DiscoveryRESTMapper fromScheme(
      Scheme scheme, Enablement enablement, Set<GroupKind> clusterScoped) {
    Builder builder = new Builder();
    List<String> groups = new ArrayList<>(scheme.groups());
    groups.sort((a, b) -> Boolean.compare(!a.isEmpty(), !b.isEmpty()));
    for (String group : groups) {
      for (GroupVersion version : scheme.prioritizedVersionsForGroup(group)) {
        if (!enablement.isEnabled(version)) {
          continue;
        }
        scheme
            .knownTypes(version)
            .forEach(
                (kind, type) -> {
                  if (scheme.isUnversioned(type)
                      || kind.endsWith("Options")
                      || kind.equals("WatchEvent")) {
                    return;
                  }
                  GroupVersionKind gvk = version.withKind(kind);
                  List<GroupVersionResource> names = DefaultRESTMapper.guessResources(gvk);
                  builder.entry(
                      gvk,
                      names.get(0),
                      names.get(1),
                      clusterScoped.contains(gvk.groupKind()) ? Scope.ROOT : Scope.NAMESPACE,
                      List.of(),
                      List.of());
                });
      }
    }
    return builder.build(ResourceIndex.Policy.PRIORITY);
  }

  /**
   * Returns the strict variant: a name found in several groups is ambiguous (listing every
   * candidate) instead of resolved by group order; within one group the preferred version still
   * wins.
   *
   * @return the strict mapper
   */
  public DiscoveryRESTMapper withoutPriority() {
    return new DiscoveryRESTMapper(
        new ResourceIndex(ResourceIndex.Policy.GROUP_AMBIGUOUS, index.entries()),
        shortNames,
        categories,
        subresources,
        versions);
  }

  /**
   * Returns the group versions the mapper serves, most preferred first.
   *
   * @return the group versions
   */
  public List<GroupVersion> groupVersions() {
    return versions;
  }

  /**
   * Returns every mapping, most preferred first.
   *
   * @return the mappings
   */
  public List<RESTMapping> allMappings() {
    List<RESTMapping> all = new ArrayList<>();
    index.entries().stream()
        .filter(entry -> !entry.derived())
        .forEach(entry -> all.add(entry.mapping()));
    return Collections.unmodifiableList(all);
  }

  /**
   * Returns the resources a category names ({@code all}: the resources {@code kubectl get all}
   * shows), in discovery order, each group resource once.
   *
   * @param category the category
   * @return the group resources; empty for an unknown category
   */
  public List<GroupResource> expandCategory(String category) {
    return categories.getOrDefault(category, List.of());
  }

  /**
   * Returns the short names and the resources they stand for.
   *
   * @return short name to group resources, the first of which a lookup uses
   */
  public Map<String, List<GroupResource>> shortNames() {
    return shortNames;
  }

  /**
   * Returns the mapping of a subresource, such as {@code scale} of {@code apps/v1 deployments}
   * (kind {@code autoscaling/v1 Scale}).
   *
   * @param resource the fully specified parent resource
   * @param subresource the subresource name
   * @return the mapping: the parent resource, the subresource, the kind it returns, the scope
   */
  public Optional<SubresourceMapping> subresource(
      GroupVersionResource resource, String subresource) {
    return Optional.ofNullable(subresources.getOrDefault(resource, Map.of()).get(subresource));
  }

  /**
   * Expands a short name the way kubectl does (client-go's shortcut expander): left as it is when a
   * resource of any version has that name or singular name (in the group asked for, if any);
   * otherwise the first resource whose short name it is, in the group asked for, with no version (a
   * version given with a short name is dropped, as kubectl drops it), or else in a group that
   * starts with the group asked for ({@code autoscal} → {@code autoscaling}), keeping the version.
   *
   * @param resource the resource as the user typed it
   * @return the resource to look up
   */
  public GroupVersionResource expandShortName(GroupVersionResource resource) {
    if (index.hasMatch(resource.group(), "", resource.resource())) {
      return resource; // a resource's own name, the common case: nothing to expand or allocate
    }
    return expandShortNameWithWarnings(resource).resource();
  }

  /**
   * The result of expanding a short name: the resource to look up, and kubectl's warnings when the
   * short name belongs to more than one resource ({@code short name "cj" could also match lower
   * priority resource cronjobs.example.dev}).
   *
   * @param resource the resource to look up
   * @param warnings the warnings, in the order kubectl prints them
   */
  public record ShortNameExpansion(GroupVersionResource resource, List<String> warnings) {
    /**
     * Copies the warnings.
     *
     * @param resource see the record description
     * @param warnings see the record description
     */
    public ShortNameExpansion {
      Objects.requireNonNull(resource, "resource");
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * Expands a short name as {@link #expandShortName} does, with the warnings kubectl gives when the
   * short name belongs to several resources.
   *
   * @param resource the resource as the user typed it
   * @return the resource to look up and the warnings
   */
  public ShortNameExpansion expandShortNameWithWarnings(GroupVersionResource resource) {
    if (index.hasMatch(resource.group(), "", resource.resource())) {
      return new ShortNameExpansion(resource, List.of());
    }
    List<GroupResource> longForms = shortNames.get(ResourceIndex.lower(resource.resource()));
    if (longForms == null) {
      return new ShortNameExpansion(resource, List.of());
    }
    GroupResource chosen = null;
    List<String> warnings = new ArrayList<>();
    for (GroupResource longForm : longForms) {
      if (!resource.group().isEmpty() && !resource.group().equals(longForm.group())) {
        continue;
      }
      if (chosen == null) {
        chosen = longForm;
      } else if (!longForm.equals(chosen)) {
        warnings.add(
            "short name \""
                + resource.resource()
                + "\" could also match lower priority resource "
                + (longForm.group().isEmpty()
                    ? longForm.resource()
                    : longForm.resource() + "." + longForm.group()));
      }
    }
    if (chosen != null) {
      return new ShortNameExpansion(expanded.get(chosen), warnings);
    }
    if (!resource.group().isEmpty()) {
      for (GroupResource longForm : longForms) {
        if (longForm.group().startsWith(resource.group())) {
          return new ShortNameExpansion(
              GroupVersionResource.of(longForm.group(), resource.version(), longForm.resource()),
              List.of());
        }
      }
    }
    return new ShortNameExpansion(resource, List.of());
  }

  /** The matching entries, or null when none; for the union, without an exception. */
  ResourceIndex.Candidates candidatesOrNull(GroupVersionResource query) {
    return index.match(expandShortName(query));
  }

  /** The mappings of a kind, empty when none; for the union, without an exception. */
  List<RESTMapping> mappingsOrEmpty(GroupKind kind, String... versions) {
    return index.mappingsOrEmpty(kind, versions);
  }

  @Override
  public GroupVersionKind kindFor(GroupVersionResource resource) {
    return index.kindFor(expandShortName(resource));
  }

  @Override
  public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
    return index.kindsFor(expandShortName(resource));
  }

  @Override
  public GroupVersionResource resourceFor(GroupVersionResource resource) {
    return index.resourceFor(expandShortName(resource));
  }

  @Override
  public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
    return index.resourcesFor(expandShortName(resource));
  }

  @Override
  public List<GroupVersionKind> kindsMatching(GroupVersionResource resource) {
    ResourceIndex.Candidates candidates = index.match(expandShortName(resource));
    return candidates == null ? List.of() : candidates.kinds;
  }

  @Override
  public List<GroupVersionResource> resourcesMatching(GroupVersionResource resource) {
    ResourceIndex.Candidates candidates = index.match(expandShortName(resource));
    return candidates == null ? List.of() : candidates.resources;
  }

  @Override
  public List<RESTMapping> restMappingsMatching(GroupKind kind, String... versions) {
    return index.mappingsOrEmpty(kind, versions);
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

  /** Collects entries in priority order. */
  private static final class Builder {
    private final List<ResourceIndex.Entry> entries = new ArrayList<>();
    private final Map<String, List<GroupResource>> shortNames = new LinkedHashMap<>();
    private final Map<String, Set<GroupResource>> categories = new LinkedHashMap<>();
    private final Map<GroupVersionResource, Map<String, SubresourceMapping>> subresources =
        new HashMap<>();
    private final Set<GroupVersion> versions = new LinkedHashSet<>();

    /** The group version whose resources are being added, for its List kind. */
    private GroupVersion lastVersion;

    void legacy(GroupVersion version, APIResource resource) {
      String name = resource.getName();
      int slash = name.indexOf('/');
      Scope scope = resource.isNamespaced() ? Scope.NAMESPACE : Scope.ROOT;
      if (slash >= 0) {
        GroupVersion kindVersion =
            resource.getVersion() == null || resource.getVersion().isEmpty()
                ? version
                : GroupVersion.of(
                    resource.getGroup() == null ? "" : resource.getGroup(), resource.getVersion());
        subresource(
            version.withResource(name.substring(0, slash)),
            name.substring(slash + 1),
            kindVersion.withKind(resource.getKind()),
            scope);
        return;
      }
      GroupVersionKind kind = version.withKind(resource.getKind());
      String singular = resource.getSingularName();
      entry(
          kind,
          version.withResource(name),
          singular == null || singular.isEmpty()
              ? DefaultRESTMapper.guessResources(kind).get(1)
              : version.withResource(singular),
          scope,
          nonNull(resource.getShortNames()),
          nonNull(resource.getCategories()));
    }

    void aggregated(GroupVersion version, APIResourceDiscovery resource) {
      GroupVersionKind kind = kindOf(version, resource.getResponseKind());
      Scope scope = "Cluster".equals(resource.getScope()) ? Scope.ROOT : Scope.NAMESPACE;
      String singular = resource.getSingularResource();
      GroupVersionResource plural = version.withResource(resource.getResource());
      entry(
          kind,
          plural,
          singular == null || singular.isEmpty()
              ? DefaultRESTMapper.guessResources(kind).get(1)
              : version.withResource(singular),
          scope,
          nonNull(resource.getShortNames()),
          nonNull(resource.getCategories()));
      if (resource.getSubresources() != null) {
        for (APISubresourceDiscovery sub : resource.getSubresources()) {
          subresource(plural, sub.getSubresource(), kindOf(version, sub.getResponseKind()), scope);
        }
      }
    }

    private static GroupVersionKind kindOf(GroupVersion version, GroupVersionKindRef ref) {
      if (ref == null) {
        throw new IllegalArgumentException("a resource of " + version + " has no responseKind");
      }
      String group = ref.getGroup() == null || ref.getGroup().isEmpty() ? "" : ref.getGroup();
      String kindVersion = ref.getVersion() == null ? "" : ref.getVersion();
      if (group.isEmpty() && kindVersion.isEmpty()) {
        return version.withKind(ref.getKind());
      }
      return GroupVersionKind.of(
          group, kindVersion.isEmpty() ? version.version() : kindVersion, ref.getKind());
    }

    private void subresource(
        GroupVersionResource parent, String name, GroupVersionKind kind, Scope scope) {
      subresources
          .computeIfAbsent(parent, p -> new LinkedHashMap<>())
          .putIfAbsent(name, new SubresourceMapping(parent, name, kind, scope));
    }

    void entry(
        GroupVersionKind kind,
        GroupVersionResource plural,
        GroupVersionResource singular,
        Scope scope,
        List<String> shorts,
        List<String> cats) {
      GroupVersion served = plural.groupVersion();
      if (lastVersion != null && !lastVersion.equals(served)) {
        listKind(lastVersion);
      }
      lastVersion = served;
      versions.add(kind.groupVersion());
      entries.add(
          new ResourceIndex.Entry(plural, singular, kind, new RESTMapping(plural, kind, scope)));
      // As client-go's discovery mapper: each kind's <Kind>List under the names Kubernetes guesses.
      GroupVersionKind listKind = served.withKind(kind.kind() + "List");
      List<GroupVersionResource> guessed = DefaultRESTMapper.guessResources(listKind);
      entries.add(
          new ResourceIndex.Entry(
              guessed.get(0),
              guessed.get(1),
              listKind,
              new RESTMapping(guessed.get(0), listKind, scope),
              true));
      GroupResource groupResource = plural.groupResource();
      for (String shortName : shorts) {
        List<GroupResource> list =
            shortNames.computeIfAbsent(ResourceIndex.lower(shortName), s -> new ArrayList<>());
        if (!list.contains(groupResource)) {
          list.add(groupResource);
        }
      }
      for (String category : cats) {
        categories.computeIfAbsent(category, c -> new LinkedHashSet<>()).add(groupResource);
      }
    }

    /** As client-go's discovery mapper: the generic List kind of each group version. */
    private void listKind(GroupVersion version) {
      GroupVersionKind list = version.withKind("List");
      List<GroupVersionResource> guessed = DefaultRESTMapper.guessResources(list);
      entries.add(
          new ResourceIndex.Entry(
              guessed.get(0),
              guessed.get(1),
              list,
              new RESTMapping(guessed.get(0), list, Scope.ROOT),
              true));
    }

    private static List<String> nonNull(List<String> list) {
      return list == null ? List.of() : list;
    }

    DiscoveryRESTMapper build(ResourceIndex.Policy policy) {
      if (lastVersion != null) {
        listKind(lastVersion);
        lastVersion = null;
      }
      Map<String, List<GroupResource>> shorts = new LinkedHashMap<>();
      shortNames.forEach((name, list) -> shorts.put(name, List.copyOf(list)));
      Map<String, List<GroupResource>> cats = new LinkedHashMap<>();
      categories.forEach((name, set) -> cats.put(name, List.copyOf(set)));
      Map<GroupVersionResource, Map<String, SubresourceMapping>> subs = new HashMap<>();
      subresources.forEach((parent, map) -> subs.put(parent, Collections.unmodifiableMap(map)));
      return new DiscoveryRESTMapper(
          new ResourceIndex(policy, entries),
          Collections.unmodifiableMap(shorts),
          Collections.unmodifiableMap(cats),
          Collections.unmodifiableMap(subs),
          List.copyOf(versions));
    }
  }

  @Override
  public String toString() {
    return "DiscoveryRESTMapper" + versions;
  }
}
