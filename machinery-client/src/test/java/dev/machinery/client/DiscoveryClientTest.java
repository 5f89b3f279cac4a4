package dev.machinery.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.client.Fixtures.Gadget;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.NoKindMatchException;
import dev.machinery.restmapper.Scope;
import dev.machinery.unversioned.meta.v1.ListOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * REST mapping from discovery: aggregated documents when the server answers with them, the legacy
 * documents otherwise, read on first use and read again once when a kind is unknown (client-go's
 * deferred discovery mapper).
 */
class DiscoveryClientTest {
  private static final Map<String, List<String>> AGGREGATED =
      Map.of(
          "Content-Type",
          List.of("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"));

  private static String aggregated(String... groups) {
    return "{\"apiVersion\":\"apidiscovery.k8s.io/v2\",\"kind\":\"APIGroupDiscoveryList\","
        + "\"metadata\":{},\"items\":["
        + String.join(",", groups)
        + "]}";
  }

  private static String group(String name, String version, String resource, String kind) {
    return "{\"metadata\":{\"name\":\""
        + name
        + "\"},\"versions\":[{\"version\":\""
        + version
        + "\",\"resources\":[{\"resource\":\""
        + resource
        + "\",\"responseKind\":{\"group\":\""
        + name
        + "\",\"version\":\""
        + version
        + "\",\"kind\":\""
        + kind
        + "\"},\"scope\":\"Namespaced\",\"singularResource\":\""
        + kind.toLowerCase(java.util.Locale.ROOT)
        + "\",\"verbs\":[\"get\",\"list\"]}]}]}";
  }

  private static final String EMPTY_LIST =
      "{\"apiVersion\":\"demo.dev/v1\",\"kind\":\"GadgetList\",\"metadata\":{},\"items\":[]}";

  private static Client client(FakeTransport transport, Duration refresh) {
    return Client.builder(transport)
        .scheme(Fixtures.SCHEME)
        .rateLimiter(RateLimiter.unlimited())
        .discoveryRefreshInterval(refresh)
        .build();
  }

  @Test
  void aggregatedDiscoveryMapsTheKindAndIsReadOnce() {
    FakeTransport transport =
        new FakeTransport()
            .then(200, AGGREGATED, aggregated(group("", "v1", "pods", "Pod")))
            .then(200, AGGREGATED, aggregated(group("demo.dev", "v1", "gadgets", "Gadget")))
            .thenJson(200, EMPTY_LIST)
            .thenJson(200, EMPTY_LIST);
    Client client = client(transport, Duration.ofMinutes(1));
    ResourceClient<Gadget> gadgets = client.resources(Gadget.class).inNamespace("ns");
    gadgets.list(new ListOptions());
    gadgets.list(new ListOptions());
    assertEquals(
        List.of(
            "/api",
            "/apis",
            "/apis/demo.dev/v1/namespaces/ns/gadgets",
            "/apis/demo.dev/v1/namespaces/ns/gadgets"),
        transport.requests.stream().map(r -> r.path()).collect(Collectors.toList()));
    assertEquals(DiscoveryClient.AGGREGATED_ACCEPT, transport.requests.get(0).header("Accept"));
    assertEquals(Scope.NAMESPACE, gadgets.mapping().scope());
  }

  @Test
  void legacyDiscoveryWhenTheServerHasNoAggregatedDocuments() {
    FakeTransport transport =
        new FakeTransport()
            .thenJson(
                200,
                "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":[]}")
            .thenJson(
                200,
                "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[{\"name\":\"demo.dev\","
                    + "\"versions\":[{\"groupVersion\":\"demo.dev/v1\",\"version\":\"v1\"}],"
                    + "\"preferredVersion\":{\"groupVersion\":\"demo.dev/v1\",\"version\":\"v1\"}}]}")
            .thenJson(
                200,
                "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"v1\",\"resources\":[]}")
            .thenJson(
                200,
                "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"demo.dev/v1\","
                    + "\"resources\":[{\"name\":\"gadgets\",\"singularName\":\"gadget\","
                    + "\"namespaced\":false,\"kind\":\"Gadget\",\"verbs\":[\"get\",\"list\"]}]}")
            .thenJson(200, EMPTY_LIST);
    Client client = client(transport, Duration.ofMinutes(1));
    client.resources(GroupVersionResource.of("demo.dev", "v1", "gadgets")).list(new ListOptions());
    assertEquals(
        List.of("/api", "/apis", "/api/v1", "/apis/demo.dev/v1", "/apis/demo.dev/v1/gadgets"),
        transport.requests.stream().map(r -> r.path()).collect(Collectors.toList()),
        "/api read once, its legacy answer kept; a cluster-scoped resource's path has no namespace");
  }

  @Test
  void anUnknownKindReadsDiscoveryAgainOnceAndThenFails() {
    FakeTransport transport =
        new FakeTransport()
            .then(200, AGGREGATED, aggregated())
            .then(200, AGGREGATED, aggregated())
            .then(200, AGGREGATED, aggregated())
            .then(200, AGGREGATED, aggregated(group("demo.dev", "v1", "gadgets", "Gadget")))
            .thenJson(200, EMPTY_LIST)
            .then(200, AGGREGATED, aggregated())
            .then(200, AGGREGATED, aggregated());
    Client client = client(transport, Duration.ZERO);
    client.resources(Gadget.class).list(new ListOptions());
    assertEquals(5, transport.requests.size(), "discovery read twice, then the list");

    ResourceClient<?> ghosts = client.resources(GroupVersionKind.of("nowhere.dev", "v1", "Ghost"));
    assertThrows(NoKindMatchException.class, () -> ghosts.list(new ListOptions()));
    assertEquals(7, transport.requests.size(), "one more reading of discovery for the miss");
  }
}
