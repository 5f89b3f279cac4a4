package dev.machinery.client;

import dev.machinery.client.transport.TransportRequest;
import dev.machinery.client.transport.TransportResponse;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.restmapper.DiscoveryRESTMapper;
import dev.machinery.restmapper.RESTMapper;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscoveryList;
import dev.machinery.unversioned.meta.v1.APIGroup;
import dev.machinery.unversioned.meta.v1.APIGroupList;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.APIVersions;
import dev.machinery.unversioned.meta.v1.GroupVersionForDiscovery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The server's discovery documents ({@code discovery.DiscoveryClient}): aggregated discovery
 * ({@code apidiscovery.k8s.io/v2}) when the server serves it, the legacy documents ({@code /api},
 * {@code /apis} and each group version's resource list) otherwise, and the REST mapper built from
 * them. Requests go through the client's rate limiter, retries and errors.
 *
 * <p>Immutable apart from the mapper it is attached to once, while the client is built; safe for
 * concurrent use.
 */
public final class DiscoveryClient {
  static final String AGGREGATED_ACCEPT =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
          + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
          + "application/json";

  private final Requests requests;
  private final Codecs codecs;
  private volatile RESTMapper mapper;

  DiscoveryClient(Requests requests, Codecs codecs) {
    this.requests = requests;
    this.codecs = codecs;
  }

  void attach(RESTMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * Returns the REST mapper the client uses: built from discovery on first use and rebuilt when a
   * kind or resource is not found (at most once per refresh interval), unless the client was given
   * its own.
   *
   * @return the mapper
   */
  public RESTMapper restMapper() {
    return mapper;
  }

  /**
   * Reads the aggregated discovery documents of {@code /api} and {@code /apis}.
   *
   * @return both documents, or empty when the server serves only legacy discovery
   */
  public Optional<List<APIGroupDiscoveryList>> serverAggregated() {
    List<APIGroupDiscoveryList> documents = new ArrayList<>();
    for (String path : List.of("/api", "/apis")) {
      Fetched fetched = fetch(path, AGGREGATED_ACCEPT);
      if (!fetched.contentType().contains("as=APIGroupDiscoveryList")) {
        return Optional.empty();
      }
      documents.add(codecs.metaJson.decode(fetched.body(), APIGroupDiscoveryList.class).object());
    }
    return Optional.of(documents);
  }

  /**
   * Reads the legacy group list: the core group (from {@code /api}) first, then {@code /apis}'
   * groups, as client-go's {@code ServerGroups} returns them.
   *
   * @return the groups
   */
  public APIGroupList serverGroups() {
    APIVersions core =
        codecs.metaJson.decode(fetch("/api", Codecs.JSON).body(), APIVersions.class).object();
    APIGroupList apis =
        codecs.metaJson.decode(fetch("/apis", Codecs.JSON).body(), APIGroupList.class).object();
    List<APIGroup> groups = new ArrayList<>();
    if (core.getVersions() != null && !core.getVersions().isEmpty()) {
      APIGroup legacy = new APIGroup();
      legacy.setName("");
      List<GroupVersionForDiscovery> versions = new ArrayList<>();
      for (String version : core.getVersions()) {
        GroupVersionForDiscovery v = new GroupVersionForDiscovery();
        v.setGroupVersion(version);
        v.setVersion(version);
        versions.add(v);
      }
      legacy.setVersions(versions);
      legacy.setPreferredVersion(versions.get(0));
      groups.add(legacy);
    }
    groups.addAll(apis.getGroups());
    APIGroupList all = new APIGroupList();
    all.setGroups(groups);
    return all;
  }

  /**
   * Reads the resource list of one group version ({@code /api/v1}, {@code /apis/apps/v1}).
   *
   * @param version the group version
   * @return the resources
   */
  public APIResourceList serverResources(GroupVersion version) {
    String path =
        version.group().isEmpty()
            ? "/api/" + version.version()
            : "/apis/" + version.group() + "/" + version.version();
    return codecs.metaJson.decode(fetch(path, Codecs.JSON).body(), APIResourceList.class).object();
  }

  /**
   * Builds a REST mapper from the server's discovery now: from the aggregated documents when
   * served, else from the legacy group list and every group version's resource list.
   *
   * @return the mapper
   */
  public DiscoveryRESTMapper freshMapper() {
    Optional<List<APIGroupDiscoveryList>> aggregated = serverAggregated();
    if (aggregated.isPresent()) {
      return DiscoveryRESTMapper.fromAggregated(
          aggregated.get().toArray(new APIGroupDiscoveryList[0]));
    }
    APIGroupList groups = serverGroups();
    List<APIResourceList> lists = new ArrayList<>();
    APIGroupList named = new APIGroupList();
    List<APIGroup> namedGroups = new ArrayList<>();
    for (APIGroup group : groups.getGroups()) {
      if (!group.getName().isEmpty()) {
        namedGroups.add(group);
      }
      for (GroupVersionForDiscovery version : group.getVersions()) {
        lists.add(serverResources(GroupVersion.of(group.getName(), version.getVersion())));
      }
    }
    named.setGroups(namedGroups);
    return DiscoveryRESTMapper.fromDiscovery(named, lists);
  }

  private record Fetched(byte[] body, String contentType) {}

  private Fetched fetch(String path, String accept) {
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put("Accept", List.of(accept));
    TransportRequest request = new TransportRequest("GET", path, Map.of(), headers, null, false);
    try (TransportResponse response = requests.send(request, Requests.Target.NONE)) {
      String contentType = response.header("Content-Type");
      return new Fetched(response.readBody(), contentType == null ? "" : contentType);
    } catch (IOException e) {
      throw new TransportException("GET " + path + ": reading the response failed", e);
    }
  }
}
