package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.discovery.ResourceInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Legacy discovery's {@code storageVersionHash}, compared with kube-apiserver's own discovery
 * documents (Kubernetes' {@code api/discovery/}, machinery-test-fixtures): every resource of those
 * documents that this server serves in the same group version has kube's hash, {@code
 * events.k8s.io} Events the core Event's (they are stored as core Events), and the resources stored
 * nowhere (the reviews) none. The documents come from several commits; where one was taken while
 * kube still stored a resource in an older version, the table below names that version, and its
 * hash is checked to be that version's.
 */
class StorageVersionHashTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Resource to the version kube-apiserver stored it in when the document was written. */
  private static final Map<String, String> STORED_THEN =
      Map.of(
          "apiextensions.k8s.io/v1/customresourcedefinitions", "v1beta1",
          "discovery.k8s.io/v1/endpointslices", "v1beta1",
          "flowcontrol.apiserver.k8s.io/v1/flowschemas", "v1beta3",
          "flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations", "v1beta3");

  private static ApiServer server;

  @BeforeAll
  static void start() {
    server = BuiltinKinds.apiServer().build();
  }

  @AfterAll
  static void stop() {
    server.storage().close();
  }

  @Test
  void theHashIsKubesOfTheStorageVersion() {
    // Values of kube's discovery documents, each for its storage version.
    assertEquals(
        "r2yiGXH7wu8=",
        ResourceInfo.storageVersionHash(GroupVersion.of("", "v1").withKind("Event")));
    assertEquals(
        "qwQve8ut294=",
        ResourceInfo.storageVersionHash(
            GroupVersion.of("autoscaling", "v2").withKind("HorizontalPodAutoscaler")));
  }

  @Test
  void servedResourcesHaveKubeApiserversHashes() throws IOException {
    List<String> differences = new ArrayList<>();
    int compared = 0;
    int unstored = 0;
    for (String file : documents()) {
      JsonNode theirs = read(file);
      if (!theirs.has("groupVersion") || !theirs.has("resources")) {
        continue;
      }
      GroupVersion version = GroupVersion.parse(theirs.get("groupVersion").asText());
      Map<String, JsonNode> ours = served(version);
      for (JsonNode resource : theirs.get("resources")) {
        String name = resource.get("name").asText();
        JsonNode served = ours.get(name);
        if (name.contains("/") || served == null) {
          continue;
        }
        String key = version + "/" + name;
        String expected = resource.path("storageVersionHash").asText(null);
        String actual = served.path("storageVersionHash").asText(null);
        if (expected == null) {
          unstored++;
          if (actual != null) {
            differences.add(key + ": stores nothing in kube-apiserver, has hash " + actual);
          }
          continue;
        }
        compared++;
        String then = STORED_THEN.get(key);
        if (then != null) {
          String kind = resource.get("kind").asText();
          check(
              differences,
              key + " (stored in " + then + " then)",
              ResourceInfo.storageVersionHash(
                  GroupVersion.of(version.group(), then).withKind(kind)),
              expected);
          check(differences, key, ResourceInfo.storageVersionHash(version.withKind(kind)), actual);
        } else {
          check(differences, key, expected, actual);
        }
      }
    }
    assertEquals(List.of(), differences);
    assertTrue(compared >= 45, "compared " + compared);
    assertTrue(unstored >= 4, "resources without storage compared " + unstored);
  }

  @Test
  void subresourcesHaveNone() throws IOException {
    for (JsonNode resource : list("/api/v1").get("resources")) {
      boolean sub = resource.get("name").asText().contains("/");
      assertEquals(
          !sub && !resource.get("name").asText().equals("bindings"),
          resource.has("storageVersionHash"),
          resource.toString());
    }
  }

  @Test
  void aCustomResourceHasTheHashOfItsStorageVersion() throws Exception {
    String crd =
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
            + "\"metadata\":{\"name\":\"widgets.example.com\"},\"spec\":{\"group\":\"example.com\","
            + "\"scope\":\"Namespaced\",\"names\":{\"plural\":\"widgets\",\"kind\":\"Widget\"},"
            + "\"versions\":["
            + version("v1", false)
            + ","
            + version("v2", true)
            + "]}}";
    ApiResponse created =
        Requests.call(
            server, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    assertEquals(201, created.status(), new String(created.body(), StandardCharsets.UTF_8));
    String hash =
        ResourceInfo.storageVersionHash(GroupVersion.of("example.com", "v2").withKind("Widget"));
    long deadline = System.nanoTime() + 10_000_000_000L;
    JsonNode widgets = null;
    while (widgets == null && System.nanoTime() < deadline) {
      widgets = served(GroupVersion.of("example.com", "v1")).get("widgets");
      if (widgets == null) {
        Thread.sleep(20);
      }
    }
    assertTrue(widgets != null, "the custom resource is served");
    assertEquals(hash, widgets.get("storageVersionHash").asText());
    assertEquals(
        hash,
        served(GroupVersion.of("example.com", "v2"))
            .get("widgets")
            .get("storageVersionHash")
            .asText());
    assertNull(served(GroupVersion.of("example.com", "v2")).get("widgets/status"));
  }

  private static String version(String name, boolean storage) {
    return "{\"name\":\""
        + name
        + "\",\"served\":true,\"storage\":"
        + storage
        + ",\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
        + "\"x-kubernetes-preserve-unknown-fields\":true}}}";
  }

  private static void check(List<String> differences, String key, String expected, String actual) {
    if (!expected.equals(actual)) {
      differences.add(key + ": expected " + expected + ", served " + actual);
    }
  }

  private static List<String> documents() throws IOException {
    try (InputStream in =
        StorageVersionHashTest.class.getResourceAsStream("/discovery/index.txt")) {
      List<String> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("api") && line.endsWith(".json")) {
          out.add(line.trim());
        }
      }
      return out;
    }
  }

  private static JsonNode read(String name) throws IOException {
    try (InputStream in = StorageVersionHashTest.class.getResourceAsStream("/discovery/" + name)) {
      return JSON.readTree(in);
    }
  }

  /** This server's resources of a group version by name, empty when it does not serve it. */
  private static Map<String, JsonNode> served(GroupVersion version) throws IOException {
    Map<String, JsonNode> out = new HashMap<>();
    JsonNode list =
        list(version.group().isEmpty() ? "/api/" + version.version() : "/apis/" + version);
    if (list != null) {
      list.get("resources").forEach(r -> out.put(r.get("name").asText(), r));
    }
    return out;
  }

  private static JsonNode list(String path) throws IOException {
    ApiResponse response = Requests.call(server, "GET", path, null);
    return response.status() == 200 ? JSON.readTree(response.body()) : null;
  }
}
