package dev.machinery.cluster.controller.garbagecollector;

import dev.machinery.client.DiscoveryClient;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscovery;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscoveryList;
import dev.machinery.unversioned.discovery.v2.APIResourceDiscovery;
import dev.machinery.unversioned.discovery.v2.APIVersionDiscovery;
import dev.machinery.unversioned.meta.v1.APIGroup;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.GroupVersionForDiscovery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The server's resources as discovery lists them, each at its group's preferred version
 * (client-go's {@code ServerPreferredResources}: versions in the server's order of preference, the
 * first that serves a resource wins), subresources left out. Read from aggregated discovery when
 * the server serves it, the legacy documents otherwise.
 *
 * <p>Stateless; thread-safe.
 */
public final class ServerResources {
  private ServerResources() {}

  /**
   * A resource discovery lists.
   *
   * @param resource the group, version and resource
   * @param kind the kind of its objects
   * @param namespaced whether its objects live in namespaces
   * @param verbs the verbs it supports
   */
  public record Resource(
      GroupVersionResource resource,
      GroupVersionKind kind,
      boolean namespaced,
      List<String> verbs) {
    /**
     * Checks for nulls and copies the verbs.
     *
     * @param resource see the record description
     * @param kind see the record description
     * @param namespaced see the record description
     * @param verbs see the record description
     */
    public Resource {
      Objects.requireNonNull(resource, "resource");
      Objects.requireNonNull(kind, "kind");
      verbs = List.copyOf(verbs);
    }

    /**
     * Tells whether the resource supports every one of some verbs.
     *
     * @param wanted the verbs
     * @return true when it supports them all
     */
    public boolean supports(String... wanted) {
      for (String verb : wanted) {
        if (!verbs.contains(verb)) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Reads the preferred resources of every group.
   *
   * @param discovery the discovery client
   * @return the resources, in the server's order
   * @throws RuntimeException what the client throws when a document cannot be read
   */
  public static List<Resource> preferred(DiscoveryClient discovery) {
    Optional<List<APIGroupDiscoveryList>> aggregated = discovery.serverAggregated();
    if (aggregated.isPresent()) {
      return fromAggregated(aggregated.get());
    }
    Map<String, Resource> byGroupResource = new LinkedHashMap<>();
    for (APIGroup group : discovery.serverGroups().getGroups()) {
      String name = Objects.requireNonNullElse(group.getName(), "");
      for (GroupVersionForDiscovery version : group.getVersions()) {
        GroupVersion groupVersion = GroupVersion.of(name, version.getVersion());
        List<APIResource> resources = discovery.serverResources(groupVersion).getResources();
        if (resources == null) {
          continue;
        }
        for (APIResource resource : resources) {
          if (resource.getName().contains("/")) {
            continue;
          }
          byGroupResource.putIfAbsent(
              name + "/" + resource.getName(),
              new Resource(
                  GroupVersionResource.of(name, version.getVersion(), resource.getName()),
                  GroupVersionKind.of(name, version.getVersion(), resource.getKind()),
                  resource.isNamespaced(),
                  resource.getVerbs() == null ? List.of() : resource.getVerbs()));
        }
      }
    }
    return new ArrayList<>(byGroupResource.values());
  }

  static List<Resource> fromAggregated(List<APIGroupDiscoveryList> lists) {
    Map<String, Resource> byGroupResource = new LinkedHashMap<>();
    for (APIGroupDiscoveryList list : lists) {
      if (list.getItems() == null) {
        continue;
      }
      for (APIGroupDiscovery group : list.getItems()) {
        String name =
            group.getMetadata() == null || group.getMetadata().getName() == null
                ? ""
                : group.getMetadata().getName();
        if (group.getVersions() == null) {
          continue;
        }
        for (APIVersionDiscovery version : group.getVersions()) {
          if (version.getResources() == null) {
            continue;
          }
          for (APIResourceDiscovery resource : version.getResources()) {
            if (resource.getResponseKind() == null) {
              continue;
            }
            byGroupResource.putIfAbsent(
                name + "/" + resource.getResource(),
                new Resource(
                    GroupVersionResource.of(name, version.getVersion(), resource.getResource()),
                    GroupVersionKind.of(
                        name, version.getVersion(), resource.getResponseKind().getKind()),
                    "Namespaced".equals(resource.getScope()),
                    resource.getVerbs() == null ? List.of() : resource.getVerbs()));
          }
        }
      }
    }
    return new ArrayList<>(byGroupResource.values());
  }
}
