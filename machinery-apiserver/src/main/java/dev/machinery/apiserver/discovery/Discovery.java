package dev.machinery.apiserver.discovery;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.discovery.ResourceInfo;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscovery;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscoveryList;
import dev.machinery.unversioned.discovery.v2.APIResourceDiscovery;
import dev.machinery.unversioned.discovery.v2.APISubresourceDiscovery;
import dev.machinery.unversioned.discovery.v2.APIVersionDiscovery;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.discovery.v2.GroupVersionKindRef;
import dev.machinery.unversioned.meta.v1.APIGroup;
import dev.machinery.unversioned.meta.v1.APIGroupList;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.APIVersions;
import dev.machinery.unversioned.meta.v1.GroupVersionForDiscovery;
import dev.machinery.unversioned.meta.v1.ServerAddressByClientCIDR;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The discovery documents of a server, built from a {@link Scheme} (groups, versions and their
 * order of preference), the resources each group version serves, and an {@link Enablement}: {@code
 * /api} ({@link #apiVersions()}), {@code /apis} ({@link #apiGroupList()}), {@code /apis/{group}}
 * ({@link #apiGroup}), {@code /apis/{group}/{version}} and {@code /api/v1} ({@link
 * #apiResourceList}), and the aggregated {@code apidiscovery.k8s.io/v2} forms ({@link
 * #aggregatedGroups()} for {@code /apis}, {@link #aggregatedLegacy()} for {@code /api}).
 *
 * <p>A group version is served when it has resources and is enabled; a group is served when one of
 * its versions is, and its preferred version is the first served one in the Scheme's order of
 * preference. Disabled groups and versions vanish from every document.
 *
 * <p>Immutable and safe to share between threads; each call returns new documents, which belong to
 * the caller.
 */
public final class Discovery {
  private final Map<String, List<GroupVersion>> served;
  private final Map<GroupVersion, List<ResourceInfo>> resources;
  private final List<ServerAddressByClientCIDR> addresses;

  private Discovery(
      Map<String, List<GroupVersion>> served,
      Map<GroupVersion, List<ResourceInfo>> resources,
      List<ServerAddressByClientCIDR> addresses) {
    this.served = served;
    this.resources = resources;
    this.addresses = addresses;
  }

  /**
   * Returns a builder over a scheme.
   *
   * @param scheme the scheme whose groups and versions are served
   * @return the builder
   */
  public static Builder builder(Scheme scheme) {
    return new Builder(scheme);
  }

  /**
   * Returns the served groups and their served versions, most preferred first ({@code ""} is the
   * legacy core group).
   *
   * @return group to versions
   */
  public Map<String, List<GroupVersion>> servedVersions() {
    return served;
  }

  /**
   * Returns {@code GET /api}: the served versions of the legacy core group.
   *
   * @return the document
   */
  public APIVersions apiVersions() {
    APIVersions versions = new APIVersions();
    versions.setKind("APIVersions");
    List<String> names = new ArrayList<>();
    served.getOrDefault("", List.of()).forEach(version -> names.add(version.version()));
    versions.setVersions(names);
    versions.setServerAddressByClientCIDRs(addresses());
    return versions;
  }

  /**
   * Returns {@code GET /apis}: every served named group with its served versions and preferred
   * version.
   *
   * @return the document
   */
  public APIGroupList apiGroupList() {
    APIGroupList list = new APIGroupList();
    list.setKind("APIGroupList");
    list.setApiVersion("v1");
    List<APIGroup> groups = new ArrayList<>();
    served.keySet().stream()
        .filter(group -> !group.isEmpty())
        .forEach(group -> groups.add(group(group, false)));
    list.setGroups(groups);
    return list;
  }

  /**
   * Returns {@code GET /apis/{group}}.
   *
   * @param group the group
   * @return the document, or empty when the group is not served
   */
  public Optional<APIGroup> apiGroup(String group) {
    return group.isEmpty() || !served.containsKey(group)
        ? Optional.empty()
        : Optional.of(group(group, true));
  }

  /**
   * Returns {@code GET /apis/{group}/{version}}, or {@code GET /api/v1} for the legacy core group.
   *
   * @param version the group version
   * @return the document, or empty when the version is not served
   */
  public Optional<APIResourceList> apiResourceList(GroupVersion version) {
    if (!served.getOrDefault(version.group(), List.of()).contains(version)) {
      return Optional.empty();
    }
    APIResourceList list = new APIResourceList();
    list.setKind("APIResourceList");
    list.setApiVersion("v1");
    list.setGroupVersion(version.toString());
    List<APIResource> entries = new ArrayList<>();
    for (ResourceInfo info : resources.get(version)) {
      APIResource resource = new APIResource();
      resource.setName(info.resource());
      resource.setSingularName(info.singular());
      resource.setNamespaced(info.namespaced());
      resource.setKind(info.kind());
      resource.setVerbs(info.verbs());
      resource.setShortNames(info.shortNames().isEmpty() ? null : info.shortNames());
      resource.setCategories(info.categories().isEmpty() ? null : info.categories());
      resource.setStorageVersionHash(info.storageVersionHash());
      entries.add(resource);
      for (ResourceInfo.Subresource sub : info.subresources()) {
        APIResource subresource = new APIResource();
        subresource.setName(info.resource() + "/" + sub.name());
        subresource.setSingularName("");
        subresource.setNamespaced(info.namespaced());
        GroupVersionKind kind = sub.kind();
        if (kind != null && !kind.groupVersion().equals(version)) {
          subresource.setGroup(kind.group());
          subresource.setVersion(kind.version());
        }
        subresource.setKind(kind == null ? info.kind() : kind.kind());
        subresource.setVerbs(sub.verbs());
        entries.add(subresource);
      }
    }
    list.setResources(entries);
    return Optional.of(list);
  }

  /**
   * Returns the aggregated discovery of the named groups, {@code GET /apis} with {@code Accept:
   * application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList}.
   *
   * @return the document
   */
  public APIGroupDiscoveryList aggregatedGroups() {
    return aggregated(false);
  }

  /**
   * Returns the aggregated discovery of the legacy core group, {@code GET /api} with the aggregated
   * Accept header.
   *
   * @return the document
   */
  public APIGroupDiscoveryList aggregatedLegacy() {
    return aggregated(true);
  }

  private APIGroupDiscoveryList aggregated(boolean legacy) {
    APIGroupDiscoveryList list = new APIGroupDiscoveryList();
    list.setApiVersion(DiscoveryV2.V2.toString());
    list.setKind("APIGroupDiscoveryList");
    List<APIGroupDiscovery> items = new ArrayList<>();
    served.forEach(
        (group, versions) -> {
          if (group.isEmpty() != legacy) {
            return;
          }
          APIGroupDiscovery item = new APIGroupDiscovery();
          item.getMetadata().setName(group.isEmpty() ? null : group);
          List<APIVersionDiscovery> entries = new ArrayList<>();
          for (GroupVersion version : versions) {
            APIVersionDiscovery entry = new APIVersionDiscovery();
            entry.setVersion(version.version());
            entry.setFreshness("Current");
            List<APIResourceDiscovery> described = new ArrayList<>();
            for (ResourceInfo info : resources.get(version)) {
              described.add(aggregatedResource(version, info));
            }
            entry.setResources(described);
            entries.add(entry);
          }
          item.setVersions(entries);
          items.add(item);
        });
    list.setItems(items);
    return list;
  }

  private static APIResourceDiscovery aggregatedResource(GroupVersion version, ResourceInfo info) {
    APIResourceDiscovery resource = new APIResourceDiscovery();
    resource.setResource(info.resource());
    resource.setResponseKind(ref(version.withKind(info.kind())));
    resource.setScope(info.namespaced() ? "Namespaced" : "Cluster");
    resource.setSingularResource(info.singular());
    resource.setVerbs(info.verbs());
    resource.setShortNames(info.shortNames().isEmpty() ? null : info.shortNames());
    resource.setCategories(info.categories().isEmpty() ? null : info.categories());
    if (!info.subresources().isEmpty()) {
      List<APISubresourceDiscovery> subresources = new ArrayList<>();
      for (ResourceInfo.Subresource sub : info.subresources()) {
        APISubresourceDiscovery subresource = new APISubresourceDiscovery();
        subresource.setSubresource(sub.name());
        subresource.setResponseKind(
            ref(sub.kind() == null ? version.withKind(info.kind()) : sub.kind()));
        subresource.setVerbs(sub.verbs());
        subresources.add(subresource);
      }
      resource.setSubresources(subresources);
    }
    return resource;
  }

  private static GroupVersionKindRef ref(GroupVersionKind kind) {
    GroupVersionKindRef ref = new GroupVersionKindRef();
    ref.setGroup(kind.group());
    ref.setVersion(kind.version());
    ref.setKind(kind.kind());
    return ref;
  }

  private APIGroup group(String group, boolean withType) {
    APIGroup document = new APIGroup();
    if (withType) {
      document.setKind("APIGroup");
      document.setApiVersion("v1");
    }
    document.setName(group);
    List<GroupVersionForDiscovery> versions = new ArrayList<>();
    for (GroupVersion version : served.get(group)) {
      versions.add(forDiscovery(version));
    }
    document.setVersions(versions);
    document.setPreferredVersion(forDiscovery(served.get(group).get(0)));
    document.setServerAddressByClientCIDRs(addresses.isEmpty() ? null : addresses());
    return document;
  }

  private static GroupVersionForDiscovery forDiscovery(GroupVersion version) {
    GroupVersionForDiscovery entry = new GroupVersionForDiscovery();
    entry.setGroupVersion(version.toString());
    entry.setVersion(version.version());
    return entry;
  }

  private List<ServerAddressByClientCIDR> addresses() {
    List<ServerAddressByClientCIDR> copies = new ArrayList<>();
    for (ServerAddressByClientCIDR address : addresses) {
      ServerAddressByClientCIDR copy = new ServerAddressByClientCIDR();
      copy.setClientCIDR(address.getClientCIDR());
      copy.setServerAddress(address.getServerAddress());
      copies.add(copy);
    }
    return copies;
  }

  /**
   * Collects resources and settings for a {@link Discovery}; {@link #build()} reports every problem
   * at once. Not thread-safe: confine a builder to one thread.
   */
  public static final class Builder {
    private final Scheme scheme;
    private final Map<GroupVersion, List<ResourceInfo>> resources = new LinkedHashMap<>();
    private final java.util.Set<ResourceInfo> unregistered =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private final List<ServerAddressByClientCIDR> addresses = new ArrayList<>();
    private Enablement enablement = Enablement.all();

    private Builder(Scheme scheme) {
      this.scheme = Objects.requireNonNull(scheme, "scheme");
    }

    /**
     * Adds a resource served in a group version; its kind must be registered there.
     *
     * @param version the group version
     * @param resource the resource
     * @return this builder
     */
    public Builder addResource(GroupVersion version, ResourceInfo resource) {
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(resource, "resource");
      resources.computeIfAbsent(version, v -> new ArrayList<>()).add(resource);
      return this;
    }

    /**
     * Adds a resource served in a group version whose kind no class in the Scheme stands for, such
     * as a custom resource. A group the Scheme does not know is served in the order its versions
     * are first added, so add them most preferred first.
     *
     * @param version the group version
     * @param resource the resource
     * @return this builder
     */
    public Builder addUnregisteredResource(GroupVersion version, ResourceInfo resource) {
      addResource(version, resource);
      unregistered.add(resource);
      return this;
    }

    /**
     * Sets which groups and versions are served.
     *
     * @param enablement the setting
     * @return this builder
     */
    public Builder enablement(Enablement enablement) {
      this.enablement = Objects.requireNonNull(enablement, "enablement");
      return this;
    }

    /**
     * Adds a server address for clients of a network ({@code serverAddressByClientCIDRs}).
     *
     * @param clientCidr the client network, such as {@code 0.0.0.0/0}
     * @param serverAddress the address, such as {@code 10.0.0.1:6443}
     * @return this builder
     */
    public Builder addServerAddress(String clientCidr, String serverAddress) {
      ServerAddressByClientCIDR address = new ServerAddressByClientCIDR();
      address.setClientCIDR(Objects.requireNonNull(clientCidr, "clientCidr"));
      address.setServerAddress(Objects.requireNonNull(serverAddress, "serverAddress"));
      addresses.add(address);
      return this;
    }

    /**
     * Checks the resources against the scheme and builds the documents' source.
     *
     * @return the discovery
     * @throws DiscoveryBuildException listing every resource whose kind is not registered in its
     *     group version, and every resource name given twice in one group version
     */
    public Discovery build() {
      List<String> problems = new ArrayList<>();
      resources.forEach(
          (version, infos) -> {
            List<String> names = new ArrayList<>();
            for (ResourceInfo info : infos) {
              if (!unregistered.contains(info)
                  && !scheme.recognizes(version.withKind(info.kind()))) {
                problems.add(
                    "resource \""
                        + info.resource()
                        + "\" of "
                        + version
                        + " serves kind \""
                        + info.kind()
                        + "\", which is not registered in "
                        + version);
              }
              if (names.contains(info.resource())) {
                problems.add("resource \"" + info.resource() + "\" is added twice to " + version);
              }
              names.add(info.resource());
            }
          });
      if (!problems.isEmpty()) {
        throw new DiscoveryBuildException(problems);
      }
      Map<String, List<GroupVersion>> served = new LinkedHashMap<>();
      List<String> groups = new ArrayList<>(scheme.groups());
      for (GroupVersion version : resources.keySet()) {
        if (!groups.contains(version.group())) {
          groups.add(version.group());
        }
      }
      for (String group : groups) {
        List<GroupVersion> versions = new ArrayList<>();
        // The Scheme's order for the versions it serves resources of; the others in the order they
        // were added (a group's HorizontalPodAutoscalers held without classes are served in
        // autoscaling/v2 and v1, most preferred first, where the Scheme knows autoscaling/v1 for
        // the Scale kind alone).
        List<GroupVersion> order = new ArrayList<>();
        for (GroupVersion version : scheme.prioritizedVersionsForGroup(group)) {
          if (resources.getOrDefault(version, List.of()).stream()
              .anyMatch(info -> !unregistered.contains(info))) {
            order.add(version);
          }
        }
        for (GroupVersion version : resources.keySet()) {
          if (version.group().equals(group) && !order.contains(version)) {
            order.add(version);
          }
        }
        for (GroupVersion version : order) {
          if (resources.containsKey(version) && enablement.isEnabled(version)) {
            versions.add(version);
          }
        }
        if (!versions.isEmpty()) {
          served.put(group, List.copyOf(versions));
        }
      }
      Map<GroupVersion, List<ResourceInfo>> frozen = new LinkedHashMap<>();
      resources.forEach((version, infos) -> frozen.put(version, List.copyOf(infos)));
      return new Discovery(
          java.util.Collections.unmodifiableMap(served),
          java.util.Collections.unmodifiableMap(frozen),
          List.copyOf(addresses));
    }
  }
}
