package dev.machinery.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.client.transport.TransportRequest;
import dev.machinery.client.transport.TransportResponse;
import dev.machinery.core.codec.DecodeException;
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
    return aggregated(fetch("/api", AGGREGATED_ACCEPT));
  }

  private Optional<List<APIGroupDiscoveryList>> aggregated(Fetched api) {
    if (!isAggregated(api)) {
      return Optional.empty();
    }
    Fetched apis = fetch("/apis", AGGREGATED_ACCEPT);
    if (!isAggregated(apis)) {
      return Optional.empty();
    }
    return Optional.of(
        List.of(
            codecs.metaJson.decode(api.body(), APIGroupDiscoveryList.class).object(),
            codecs.metaJson.decode(apis.body(), APIGroupDiscoveryList.class).object()));
  }

  private static boolean isAggregated(Fetched fetched) {
    return fetched.contentType().contains("as=APIGroupDiscoveryList");
  }

  /**
   * Reads the legacy group list: the core group (from {@code /api}) first, then {@code /apis}'
   * groups, as client-go's {@code ServerGroups} returns them.
   *
   * @return the groups
   */
  public APIGroupList serverGroups() {
    return serverGroups(fetch("/api", Codecs.JSON));
  }

  private APIGroupList serverGroups(Fetched api) {
    APIVersions core = legacy(api.body(), APIVersions.class, "APIVersions");
    APIGroupList apis =
        legacy(fetch("/apis", Codecs.JSON).body(), APIGroupList.class, "APIGroupList");
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
    return legacy(fetch(path, Codecs.JSON).body(), APIResourceList.class, "APIResourceList");
  }

  /**
   * Decodes a legacy discovery document, which kube-apiserver writes without {@code apiVersion}
   * ({@code /api}'s APIVersions) or with {@code v1}: the unversioned kinds of the core group.
   */
  private <T> T legacy(byte[] body, Class<T> type, String kind) {
    JsonNode tree;
    try {
      tree = Codecs.TREES.readTree(body);
    } catch (IOException e) {
      throw new DecodeException("the " + kind + " document is not JSON: " + e.getMessage(), "");
    }
    if (tree == null || !tree.isObject()) {
      throw new DecodeException("the " + kind + " document is not a JSON object", "");
    }
    ObjectNode object = (ObjectNode) tree;
    if (!object.hasNonNull("apiVersion")) {
      object.put("apiVersion", "v1");
    }
    if (!object.hasNonNull("kind")) {
      object.put("kind", kind);
    }
    return codecs.metaJson.decode(ObjectKind.bytes(object), type).object();
  }

  /**
   * Builds a REST mapper from the server's discovery now: from the aggregated documents when
   * served, else from the legacy group list and every group version's resource list.
   *
   * @return the mapper
   */
  public DiscoveryRESTMapper freshMapper() {
    // one request for /api asks for both forms; a server without aggregated discovery answers it
    // with the legacy APIVersions, which the legacy path goes on with
    Fetched api = fetch("/api", AGGREGATED_ACCEPT);
    Optional<List<APIGroupDiscoveryList>> aggregated = aggregated(api);
    if (aggregated.isPresent()) {
      return DiscoveryRESTMapper.fromAggregated(
          aggregated.get().toArray(new APIGroupDiscoveryList[0]));
    }
    APIGroupList groups = isAggregated(api) ? serverGroups() : serverGroups(api);
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
