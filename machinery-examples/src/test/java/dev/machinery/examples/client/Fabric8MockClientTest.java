package dev.machinery.examples.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.client.Client;
import dev.machinery.client.PatchType;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.Watch;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.DefaultRESTMapper;
import dev.machinery.restmapper.Scope;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Machinery's client against fabric8's mock API server ({@code KubernetesMockServer} in CRUD mode,
 * the {@code KubernetesCrudDispatcher}), which serves no discovery, so the client is given its REST
 * mapper: get, list with label and field selectors, create, update, JSON merge and JSON patches and
 * delete of ConfigMaps, the mock's 404 and 409 as the client's typed errors, and what it does not
 * serve (strategic merge patches, server-side apply, streamed watches) refused as typed errors.
 * Runs in the {@code fabric8-mock} surefire execution of this module, whose class path holds the
 * Netty 4.1 the mock server's Vert.x 4 needs; elsewhere it is skipped.
 */
class Fabric8MockClientTest {
  private static final GroupVersionResource CONFIGMAPS =
      GroupVersionResource.of("", "v1", "configmaps");

  private KubernetesMockServer mock;
  private Client client;

  @BeforeEach
  void start() {
    Assumptions.assumeTrue(
        "netty-4.1".equals(System.getProperty("machinery.fabric8.mock.classpath")),
        "runs in the fabric8-mock execution, on Netty 4.1");
    mock =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(List.of()),
            false);
    mock.init(InetAddress.getLoopbackAddress(), 0);
    client =
        Client.builder(
                HttpTransport.builder(URI.create("http://127.0.0.1:" + mock.getPort())).build())
            .scheme(MetaV1.addToScheme(Scheme.builder()).build())
            .restMapper(
                DefaultRESTMapper.builder(GroupVersion.of("", "v1"))
                    .add(GroupVersionKind.of("", "v1", "ConfigMap"), Scope.NAMESPACE)
                    .build())
            .rateLimiter(RateLimiter.unlimited())
            .build();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (mock != null) {
      mock.destroy();
    }
  }

  private ResourceClient<Unstructured> configMaps() {
    return client.resources(CONFIGMAPS).inNamespace("ns");
  }

  static Unstructured configMap(String name, String value, Map<String, String> labels) {
    Unstructured cm = new Unstructured();
    cm.setApiVersion("v1");
    cm.setKind("ConfigMap");
    cm.setName(name);
    cm.setLabels(labels);
    cm.setField("data", Map.of("k", value));
    return cm;
  }

  static List<String> names(List<Unstructured> items) {
    return items.stream().map(Unstructured::getName).sorted().collect(Collectors.toList());
  }

  @Test
  void createGetUpdatePatchAndDelete() {
    Unstructured created = configMaps().create(configMap("a", "v1", Map.of("tier", "web")));
    assertEquals("ns", created.getNamespace());
    assertFalse(created.getResourceVersion().isEmpty());

    Unstructured got = configMaps().get("a");
    assertEquals(Optional.of("v1"), got.nestedString("data", "k"));
    assertEquals(Map.of("tier", "web"), got.getLabels());

    got.setField("data", Map.of("k", "v2"));
    Unstructured updated = configMaps().update(got);
    assertEquals(Optional.of("v2"), updated.nestedString("data", "k"));
    assertNotEquals(created.getResourceVersion(), updated.getResourceVersion());

    Unstructured patched =
        configMaps()
            .patch(
                "a",
                PatchType.MERGE,
                "{\"data\":{\"k\":\"v3\",\"other\":\"x\"}}",
                new PatchOptions());
    assertEquals(Optional.of("v3"), patched.nestedString("data", "k"));
    assertEquals(Optional.of("x"), configMaps().get("a").nestedString("data", "other"));

    configMaps().delete("a");
    StatusException gone = assertThrows(StatusException.class, () -> configMaps().get("a"));
    assertTrue(ApiErrors.isNotFound(gone), gone.getMessage());
    assertEquals(404, gone.statusCode());
  }

  @Test
  void listsWithALabelSelector() {
    configMaps().create(configMap("a", "1", Map.of("tier", "web")));
    configMaps().create(configMap("b", "2", Map.of("tier", "db")));
    configMaps().create(configMap("c", "3", Map.of("tier", "web")));
    client.resources(CONFIGMAPS).inNamespace("other").create(configMap("d", "4", Map.of()));

    assertEquals(List.of("a", "b", "c"), names(configMaps().list(new ListOptions()).items()));
    ListOptions web = new ListOptions();
    web.setLabelSelector("tier=web");
    assertEquals(List.of("a", "c"), names(configMaps().list(web).items()));
    ListOptions byName = new ListOptions();
    byName.setFieldSelector("metadata.name=b");
    assertEquals(List.of("b"), names(configMaps().list(byName).items()));
    assertEquals(
        List.of("a", "b", "c", "d"),
        names(client.resources(CONFIGMAPS).list(new ListOptions()).items()));
  }

  @Test
  void aJsonPatchApplies() {
    configMaps().create(configMap("a", "1", Map.of()));
    Unstructured patched =
        configMaps()
            .patch(
                "a",
                PatchType.JSON,
                "[{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"jp\"}]",
                new PatchOptions());
    assertEquals(Optional.of("jp"), patched.nestedString("data", "k"));
  }

  @Test
  void aSecondCreateAndAStaleUpdateAre409WithTheMocksReason() {
    Unstructured created = configMaps().create(configMap("a", "1", Map.of()));
    StatusException again =
        assertThrows(
            StatusException.class, () -> configMaps().create(configMap("a", "1", Map.of())));
    assertEquals(409, again.statusCode());
    assertEquals("ConfigMap 'a' already exists", again.getMessage());
    // The mock answers reason Invalid where kube-apiserver says AlreadyExists; client-go's
    // IsAlreadyExists, which reads the reason alone, is false for it as well.
    assertEquals("Invalid", again.statusReason());
    assertFalse(ApiErrors.isAlreadyExists(again));

    configMaps().patch("a", PatchType.MERGE, "{\"data\":{\"k\":\"2\"}}", new PatchOptions());
    created.setField("data", Map.of("k", "stale"));
    StatusException stale = assertThrows(StatusException.class, () -> configMaps().update(created));
    assertEquals(409, stale.statusCode());
    assertTrue(stale.getMessage().contains("the object has been modified"), stale.getMessage());
  }

  @Test
  void strategicMergePatchesAndAppliesAreUnsupportedMediaTypes() {
    Unstructured created = configMaps().create(configMap("a", "1", Map.of()));
    StatusException strategic =
        assertThrows(
            StatusException.class,
            () ->
                configMaps()
                    .patch(
                        "a",
                        PatchType.STRATEGIC_MERGE,
                        "{\"data\":{\"k\":\"2\"}}",
                        new PatchOptions()));
    assertEquals(415, strategic.statusCode());
    created.setResourceVersion(null);
    StatusException apply =
        assertThrows(StatusException.class, () -> configMaps().apply(created, "me", false));
    assertEquals(415, apply.statusCode());
  }

  @Test
  void aStreamedWatchIsRefusedAsABadRequest() {
    // The CRUD dispatcher serves watches over WebSocket only (fabric8's own client's way); a
    // streamed watch (watch=true on a plain GET, client-go's way and this client's) is answered
    // 400, "Connection" header must be "Upgrade".
    StatusException refused =
        assertThrows(
            StatusException.class,
            () -> {
              try (Watch<Unstructured> watch = configMaps().watch(new ListOptions())) {
                watch.hasNext();
              }
            });
    assertEquals(400, refused.statusCode());
    assertTrue(ApiErrors.isBadRequest(refused), refused.getMessage());
  }
}
