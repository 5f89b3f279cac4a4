package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lists answered in compact JSON copy each item's encoding, made once per stored object: they hold
 * what the whole list's encoding holds (the pretty list is encoded whole), in the version asked
 * for, and never an encoding of an object that has since changed.
 */
class ListEncodingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static TestApiServer server;
  private static HttpClient http;

  @BeforeAll
  static void start() {
    server = TestApiServer.start();
    server.createCustomResourceDefinitions("lists/gadgets.yaml");
    http = HttpClient.newHttpClient();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static HttpResponse<byte[]> send(String method, String path, Object body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .header("Accept", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    HttpResponse<byte[]> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() >= 300) {
      throw new AssertionError(
          method + " " + path + ": " + response.statusCode() + " " + new String(response.body()));
    }
    return response;
  }

  private static JsonNode tree(HttpResponse<byte[]> response) throws IOException {
    return JSON.readTree(response.body());
  }

  /** The list compact and pretty: equal trees; returns the compact one. */
  private static JsonNode list(String path) throws IOException, InterruptedException {
    HttpResponse<byte[]> compact = send("GET", path, null);
    String pretty = path + (path.contains("?") ? "&" : "?") + "pretty=true";
    JsonNode whole = tree(send("GET", pretty, null));
    JsonNode fast = tree(compact);
    // The list's own resourceVersion is the store's revision when each was read: the test
    // server's simulated kubelets renew their Leases every 10 s, which can move it between the two.
    JsonNode fastAsWhole = fast.deepCopy();
    if (fastAsWhole.get("metadata") instanceof com.fasterxml.jackson.databind.node.ObjectNode meta
        && whole.get("metadata") != null
        && whole.get("metadata").has("resourceVersion")) {
      meta.set("resourceVersion", whole.get("metadata").get("resourceVersion"));
    }
    assertEquals(whole, fastAsWhole, "the list of " + path + " against its whole encoding");
    return fast;
  }

  private static JsonNode tableOf(String path) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
            .build();
    HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, response.statusCode(), new String(response.body()));
    return JSON.readTree(response.body());
  }

  private static ObjectNode configMap(String name, String value) {
    ObjectNode map = JSON.createObjectNode();
    map.put("apiVersion", "v1").put("kind", "ConfigMap");
    map.putObject("metadata").put("name", name).putObject("labels").put("n", name);
    map.putObject("data").put("value", value);
    return map;
  }

  private static List<String> values(JsonNode list) {
    List<String> values = new ArrayList<>();
    for (JsonNode item : list.path("items")) {
      values.add(
          item.path("metadata").path("name").asText()
              + "="
              + item.path("data").path("value").asText());
    }
    return values;
  }

  @Test
  void aListHoldsEachObjectAsLastWrittenAndAgreesWithItsWholeEncoding() throws Exception {
    send(
        "POST",
        "/api/v1/namespaces",
        JSON.createObjectNode()
            .put("apiVersion", "v1")
            .put("kind", "Namespace")
            .set("metadata", JSON.createObjectNode().put("name", "encoded")));
    String path = "/api/v1/namespaces/encoded/configmaps";
    for (int i = 0; i < 12; i++) {
      send("POST", path, configMap("cm-" + (char) ('a' + i), "v" + i));
    }
    // The namespace also holds kube-root-ca.crt, after the cm-* names.
    JsonNode first = list(path);
    assertEquals(13, first.path("items").size());
    assertEquals("cm-a=v0", values(first).get(0));
    byte[] again = send("GET", path, null).body();
    assertArrayEquals(send("GET", path, null).body(), again, "an unchanged list, twice");

    // An update: the list shows the new object, never the encoding of the one before.
    ObjectNode c = (ObjectNode) tree(send("GET", path + "/cm-c", null));
    ((ObjectNode) c.path("data")).put("value", "changed");
    JsonNode updated = tree(send("PUT", path + "/cm-c", c));
    JsonNode afterUpdate = list(path);
    assertEquals("cm-c=changed", values(afterUpdate).get(2));
    assertEquals(
        updated.path("metadata").path("resourceVersion"),
        afterUpdate.path("items").get(2).path("metadata").path("resourceVersion"));

    // As a Table (what kubectl get asks for): each row's metadata is the object's as last written.
    JsonNode table = tableOf(path);
    assertEquals(
        "cm-c", table.path("rows").get(2).path("object").path("metadata").path("name").asText());
    assertEquals(
        updated.path("metadata").path("resourceVersion"),
        table.path("rows").get(2).path("object").path("metadata").path("resourceVersion"));
    ((ObjectNode) updated.path("data")).put("value", "twice");
    JsonNode again2 = tree(send("PUT", path + "/cm-c", updated));
    assertEquals(
        again2.path("metadata").path("resourceVersion"),
        tableOf(path).path("rows").get(2).path("object").path("metadata").path("resourceVersion"));

    // Deleted and created again under the same name: the new object.
    String uid = first.path("items").get(3).path("metadata").path("uid").asText();
    send("DELETE", path + "/cm-d", null);
    assertEquals(12, list(path).path("items").size());
    send("POST", path, configMap("cm-d", "again"));
    JsonNode recreated = list(path);
    assertEquals("cm-d=again", values(recreated).get(3));
    assertNotEquals(uid, recreated.path("items").get(3).path("metadata").path("uid").asText());

    // Selected items and pages hold the same objects as the whole encoding.
    assertEquals(List.of("cm-e=v4"), values(list(path + "?labelSelector=n%3Dcm-e")));
    JsonNode page = list(path + "?limit=5");
    assertEquals(5, page.path("items").size());
    assertEquals(
        8,
        page.path("metadata").path("remainingItemCount").asInt(),
        page.path("metadata").toString());
    JsonNode tablePage = tableOf(path + "?limit=5");
    assertEquals(5, tablePage.path("rows").size());
    assertEquals(8, tablePage.path("metadata").path("remainingItemCount").asInt(), "as a Table");
    JsonNode next =
        list(path + "?limit=5&continue=" + page.path("metadata").path("continue").asText());
    assertEquals("cm-f=v5", values(next).get(0));
    // Across namespaces, the same.
    assertEquals(
        12,
        values(list("/api/v1/configmaps?labelSelector=n")).stream()
            .filter(v -> v.startsWith("cm-"))
            .count());
  }

  @Test
  void aCustomResourceIsListedInEachVersionAskedFor() throws Exception {
    send(
        "POST",
        "/api/v1/namespaces",
        JSON.createObjectNode()
            .put("apiVersion", "v1")
            .put("kind", "Namespace")
            .set("metadata", JSON.createObjectNode().put("name", "gadgets")));
    String v1 = "/apis/lists.machinery.dev/v1/namespaces/gadgets/gadgets";
    String v2 = "/apis/lists.machinery.dev/v2/namespaces/gadgets/gadgets";
    for (int i = 0; i < 3; i++) {
      ObjectNode gadget = JSON.createObjectNode();
      gadget.put("apiVersion", "lists.machinery.dev/v1").put("kind", "Gadget");
      gadget.putObject("metadata").put("name", "g" + i);
      gadget.putObject("spec").put("size", i).put("colour", "red");
      send("POST", v1, gadget);
    }
    // In turn, so that each version's encoding replaces the other's.
    for (int round = 0; round < 2; round++) {
      for (String path : List.of(v1, v2)) {
        JsonNode list = list(path);
        String version = path.equals(v1) ? "v1" : "v2";
        assertEquals("lists.machinery.dev/" + version, list.path("apiVersion").asText());
        assertEquals("GadgetList", list.path("kind").asText());
        assertEquals(3, list.path("items").size());
        for (JsonNode item : list.path("items")) {
          assertEquals("lists.machinery.dev/" + version, item.path("apiVersion").asText(), path);
          assertEquals("Gadget", item.path("kind").asText());
        }
      }
    }
    ObjectNode g1 = (ObjectNode) tree(send("GET", v2 + "/g1", null));
    ((ObjectNode) g1.path("spec")).put("colour", "blue");
    send("PUT", v2 + "/g1", g1);
    assertEquals("blue", list(v1).path("items").get(1).path("spec").path("colour").asText());
    assertEquals("blue", list(v2).path("items").get(1).path("spec").path("colour").asText());
  }
}
