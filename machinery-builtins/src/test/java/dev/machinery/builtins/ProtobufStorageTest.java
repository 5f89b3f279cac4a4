package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.StorageMediaType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Built-in objects written, read back, updated with what was read and read again, on a server
 * storing protobuf values (kube-apiserver's default) and on one storing JSON: both answer as
 * kube-apiserver 1.33 does.
 *
 * <p>Facts from Kubernetes' Go sources these tests carry over:
 *
 * <ul>
 *   <li>{@code pkg/apis/apps/v1/conversion.go}, {@code Convert_apps_StatefulSetSpec_To_v1_
 *       StatefulSetSpec}: every claim template of an apps/v1 StatefulSet is given {@code
 *       apiVersion: v1} and {@code kind: PersistentVolumeClaim} whenever the object is converted to
 *       apps/v1, so on every read; a protobuf value has no type meta for the embedded claims.
 *   <li>{@code pkg/apis/discovery/validation}, {@code validateEndpoints}: an EndpointSlice's
 *       endpoints are only checked for at most 1000 entries, never for at least one (each
 *       endpoint's {@code addresses} are: "must contain at least 1 address").
 *   <li>{@code pkg/apis/core/validation}, {@code ValidateLimitRange}: {@code spec.limits} is only
 *       iterated, never required non-empty.
 *   <li>{@code pkg/apis/storage/validation}, {@code validateCSINodeDrivers}: {@code spec.drivers}
 *       is only iterated, never required non-empty.
 *   <li>{@code pkg/apis/batch/validation}, {@code validatePodFailurePolicy}: a Job's {@code
 *       podFailurePolicy.rules} are checked for at most 20 entries, never for at least one.
 * </ul>
 *
 * Go writes each of those empty lists as {@code null} and protobuf carries none, so the object read
 * back lacks the list, and an update sending it back must be accepted.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ProtobufStorageTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ApiServer server(StorageMediaType mediaType) {
    ApiServer server = BuiltinKinds.apiServer().storageMediaType(mediaType).build();
    ApiResponse ns =
        request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"default\"}}");
    assertEquals(201, ns.status(), text(ns));
    return server;
  }

  @ParameterizedTest
  @EnumSource(StorageMediaType.class)
  void aStatefulSetsClaimTemplatesKeepTheirKindOnEveryRead(StorageMediaType mediaType)
      throws Exception {
    ApiServer server = server(mediaType);
    String path = "/apis/apps/v1/namespaces/default/statefulsets";
    ApiResponse created =
        request(
            server,
            "POST",
            path,
            """
            {"metadata":{"name":"db"},"spec":{"serviceName":"db",
             "selector":{"matchLabels":{"app":"db"}},
             "template":{"metadata":{"labels":{"app":"db"}},
              "spec":{"containers":[{"name":"c","image":"busybox:1.36"}]}},
             "volumeClaimTemplates":[{"metadata":{"name":"data"},
              "spec":{"accessModes":["ReadWriteOnce"],
               "resources":{"requests":{"storage":"1Gi"}}}}]}}
            """);
    assertEquals(201, created.status(), text(created));
    assertClaimTemplate(JSON.readTree(created.body()));

    JsonNode read = JSON.readTree(get(server, path + "/db").body());
    assertClaimTemplate(read);

    ObjectNode changed = (ObjectNode) read;
    ((ObjectNode) changed.get("spec")).put("replicas", 2);
    ApiResponse updated = request(server, "PUT", path + "/db", changed.toString());
    assertEquals(200, updated.status(), text(updated));
    assertClaimTemplate(JSON.readTree(updated.body()));

    ApiResponse listed = get(server, path);
    assertClaimTemplate(JSON.readTree(listed.body()).at("/items/0"));
    JsonNode again = JSON.readTree(get(server, path + "/db").body());
    assertClaimTemplate(again);
    assertEquals(2, again.at("/spec/replicas").asInt());
  }

  /**
   * A JSON value written without the claims' type meta (by another writer) is read as kube reads
   * it.
   */
  @Test
  void aJsonValueWithoutTheClaimsKindIsAnsweredWithIt() throws Exception {
    MemoryStorage storage = new MemoryStorage();
    storage.create(
        "statefulsets/default/old",
        """
        {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"old",
         "namespace":"default","uid":"6b1c5e1e-0c0d-4f4e-9a51-3a3f3c1d2e4f",
         "creationTimestamp":"2026-01-01T00:00:00Z","generation":1},
         "spec":{"replicas":1,"serviceName":"old","selector":{"matchLabels":{"app":"db"}},
          "template":{"metadata":{"labels":{"app":"db"}},
           "spec":{"containers":[{"name":"c","image":"busybox:1.36"}]}},
          "volumeClaimTemplates":[{"metadata":{"name":"data"},
           "spec":{"accessModes":["ReadWriteOnce"],
            "resources":{"requests":{"storage":"1Gi"}}}}]}}
        """
            .getBytes(StandardCharsets.UTF_8));
    ApiServer server = BuiltinKinds.apiServer().storage(storage).build();
    assertClaimTemplate(
        JSON.readTree(get(server, "/apis/apps/v1/namespaces/default/statefulsets/old").body()));
  }

  private static void assertClaimTemplate(JsonNode set) throws Exception {
    JsonNode claim = set.at("/spec/volumeClaimTemplates/0");
    assertEquals("v1", claim.path("apiVersion").asText(), set.toString());
    assertEquals("PersistentVolumeClaim", claim.path("kind").asText(), set.toString());
    assertEquals("data", claim.at("/metadata/name").asText());
    assertEquals("Filesystem", claim.at("/spec/volumeMode").asText());
    assertEquals(JSON.readTree("{\"phase\":\"Pending\"}"), claim.get("status"));
  }

  @ParameterizedTest
  @EnumSource(StorageMediaType.class)
  void anEndpointSliceWithoutEndpointsIsUpdatedWithWhatWasRead(StorageMediaType mediaType)
      throws Exception {
    ApiServer server = server(mediaType);
    String path = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices";
    roundTrip(
        server,
        path,
        "{\"metadata\":{\"name\":\"web-abc\"},\"addressType\":\"IPv4\",\"endpoints\":[]}",
        "web-abc");
    // Absent from the start, as Go's nil slice is: kube accepts it.
    ApiResponse absent =
        request(
            server, "POST", path, "{\"metadata\":{\"name\":\"web-def\"},\"addressType\":\"IPv4\"}");
    assertEquals(201, absent.status(), text(absent));
  }

  @ParameterizedTest
  @EnumSource(StorageMediaType.class)
  void aLimitRangeACsiNodeAndAJobWithEmptyListsAreUpdatedWithWhatWasRead(StorageMediaType mediaType)
      throws Exception {
    ApiServer server = server(mediaType);
    roundTrip(
        server,
        "/api/v1/namespaces/default/limitranges",
        "{\"metadata\":{\"name\":\"none\"},\"spec\":{\"limits\":[]}}",
        "none");
    roundTrip(
        server,
        "/apis/storage.k8s.io/v1/csinodes",
        "{\"metadata\":{\"name\":\"node-1\"},\"spec\":{\"drivers\":[]}}",
        "node-1");
    roundTrip(
        server,
        "/apis/batch/v1/namespaces/default/jobs",
        """
        {"metadata":{"name":"once"},"spec":{"podFailurePolicy":{"rules":[]},
         "template":{"spec":{"restartPolicy":"Never",
          "containers":[{"name":"c","image":"busybox:1.36"}]}}}}
        """,
        "once");
  }

  @ParameterizedTest
  @EnumSource(StorageMediaType.class)
  void listsKubeRequiresNonEmptyStayRequired(StorageMediaType mediaType) {
    ApiServer server = server(mediaType);
    ApiResponse noAddresses =
        request(
            server,
            "POST",
            "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
            "{\"metadata\":{\"name\":\"bad\"},\"addressType\":\"IPv4\",\"endpoints\":[{}]}");
    assertEquals(422, noAddresses.status(), text(noAddresses));
    assertTrue(text(noAddresses).contains("endpoints[0].addresses"), text(noAddresses));
    ApiResponse noContainers =
        request(
            server,
            "POST",
            "/api/v1/namespaces/default/pods",
            "{\"metadata\":{\"name\":\"bad\"},\"spec\":{}}");
    assertEquals(422, noContainers.status(), text(noContainers));
    assertTrue(text(noContainers).contains("spec.containers"), text(noContainers));
  }

  /** Creates, reads, updates with a label added to what was read, and reads again. */
  private static void roundTrip(ApiServer server, String path, String body, String name)
      throws Exception {
    ApiResponse created = request(server, "POST", path, body);
    assertEquals(201, created.status(), text(created));
    ObjectNode read = (ObjectNode) JSON.readTree(get(server, path + "/" + name).body());
    ((ObjectNode) read.get("metadata")).putObject("labels").put("touched", "yes");
    ApiResponse updated = request(server, "PUT", path + "/" + name, read.toString());
    assertEquals(200, updated.status(), text(updated));
    JsonNode again = JSON.readTree(get(server, path + "/" + name).body());
    assertEquals("yes", again.at("/metadata/labels/touched").asText(), again.toString());
  }

  private static ApiResponse get(ApiServer server, String path) {
    ApiResponse response = request(server, "GET", path, null);
    assertEquals(200, response.status(), text(response));
    return response;
  }

  private static ApiResponse request(ApiServer server, String method, String path, String body) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    if (body != null) {
      headers.put("Content-Type", List.of("application/json"));
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            headers,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
