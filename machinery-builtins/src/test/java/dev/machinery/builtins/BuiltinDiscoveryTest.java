package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The built-in resources as discovery lists them, compared with kube-apiserver's own discovery
 * documents (core {@code /api/v1}, and the aggregated {@code /apis} of about 1.31): every resource
 * both serve in the same group version has the same kind, scope, verbs, short names, categories,
 * singular name and {@code status}, {@code scale}, {@code finalize} and {@code approval}
 * subresources. The served set comes from Kubernetes' OpenAPI document, the expected values from
 * discovery: two sources.
 */
class BuiltinDiscoveryTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Resources kube-apiserver lists that a plain store does not serve here, and why. */
  private static final Map<String, String> NOT_SERVED =
      Map.of(
          "v1/bindings", "create-only, binds a pod to a node",
          "v1/componentstatuses", "virtual, read from the control plane's components",
          "authentication.k8s.io/v1/tokenreviews", "service account tokens are out of scope");

  private static ApiServer server;

  @BeforeAll
  static void start() {
    server = BuiltinKinds.apiServer().build();
  }

  @Test
  void servedResourcesMatchKubeApiserversDiscovery() throws Exception {
    Map<String, JsonNode> expected = new TreeMap<>();
    for (JsonNode resource : read("api__v1.json").get("resources")) {
      if (!resource.get("name").asText().contains("/")) {
        expected.put("v1/" + resource.get("name").asText(), legacy(resource, "v1", "api__v1"));
      }
    }
    for (JsonNode group : read("aggregated_v2.json").get("items")) {
      String name = group.at("/metadata/name").asText();
      for (JsonNode version : group.get("versions")) {
        String gv = name + "/" + version.get("version").asText();
        for (JsonNode resource : version.get("resources")) {
          expected.put(gv + "/" + resource.get("resource").asText(), resource);
        }
      }
    }
    int compared = 0;
    List<String> differences = new ArrayList<>();
    for (GroupVersionKind kind : BuiltinKinds.kubernetes().kinds()) {
      String gv = kind.groupVersion().toString();
      JsonNode list = json(get(kind.group().isEmpty() ? "/api/v1" : "/apis/" + gv));
      for (JsonNode served : list.get("resources")) {
        String name = served.get("name").asText();
        if (name.contains("/") || !served.get("kind").asText().equals(kind.kind())) {
          continue;
        }
        JsonNode theirs = expected.get(gv + "/" + name);
        if (theirs == null) {
          continue; // not in that release's discovery (GA after it, such as networking ipaddresses)
        }
        compared++;
        compare(gv + "/" + name, served, list, theirs, differences);
      }
    }
    assertTrue(differences.isEmpty(), String.join("\n", differences));
    assertEquals(52, BuiltinKinds.kubernetes().kinds().size(), "51 and CustomResourceDefinitions");
    assertTrue(compared >= 45, "compared " + compared);
    for (Map.Entry<String, JsonNode> entry : expected.entrySet()) {
      String key = entry.getKey();
      if (!isGa(key) || NOT_SERVED.containsKey(key) || key.endsWith("/customresourcedefinitions")) {
        continue;
      }
      String gv = key.substring(0, key.lastIndexOf('/'));
      String resource = key.substring(key.lastIndexOf('/') + 1);
      JsonNode list = json(get(gv.equals("v1") ? "/api/v1" : "/apis/" + gv));
      boolean found = false;
      for (JsonNode served : list.path("resources")) {
        found |= served.get("name").asText().equals(resource);
      }
      if (!found) {
        differences.add(key + " is listed by kube-apiserver and not served");
      }
    }
    assertTrue(differences.isEmpty(), String.join("\n", differences));
  }

  private static boolean isGa(String key) {
    String[] parts = key.split("/");
    String version = parts[parts.length - 2];
    return version.matches("v\\d+");
  }

  /** A legacy APIResource in the aggregated form's field names. */
  private static JsonNode legacy(JsonNode resource, String version, String source) {
    var node = JSON.createObjectNode();
    node.put("resource", resource.get("name").asText());
    node.set("responseKind", JSON.createObjectNode().put("kind", resource.get("kind").asText()));
    node.put("scope", resource.get("namespaced").asBoolean() ? "Namespaced" : "Cluster");
    node.put("singularResource", resource.path("singularName").asText());
    node.set("verbs", resource.get("verbs"));
    if (resource.has("shortNames")) {
      node.set("shortNames", resource.get("shortNames"));
    }
    if (resource.has("categories")) {
      node.set("categories", resource.get("categories"));
    }
    return node;
  }

  private static void compare(
      String key, JsonNode served, JsonNode list, JsonNode theirs, List<String> differences) {
    check(
        key,
        "kind",
        theirs.at("/responseKind/kind").asText(),
        served.get("kind").asText(),
        differences);
    check(
        key,
        "scope",
        theirs.get("scope").asText(),
        served.get("namespaced").asBoolean() ? "Namespaced" : "Cluster",
        differences);
    check(
        key,
        "singular",
        theirs.path("singularResource").asText(),
        served.path("singularName").asText(),
        differences);
    check(key, "verbs", set(theirs.get("verbs")), set(served.get("verbs")), differences);
    check(
        key,
        "shortNames",
        set(theirs.get("shortNames")),
        set(served.get("shortNames")),
        differences);
    check(
        key,
        "categories",
        set(theirs.get("categories")),
        set(served.get("categories")),
        differences);
    Set<String> subresources = new TreeSet<>();
    String name = served.get("name").asText();
    for (JsonNode other : list.get("resources")) {
      String n = other.get("name").asText();
      if (n.startsWith(name + "/")) {
        subresources.add(n.substring(name.length() + 1));
      }
    }
    Set<String> theirSubresources = new TreeSet<>();
    for (JsonNode sub : theirs.path("subresources")) {
      String n = sub.get("subresource").asText();
      if (n.equals("status") || n.equals("scale") || n.equals("finalize") || n.equals("approval")) {
        theirSubresources.add(n);
      }
    }
    if (theirs.has("subresources")) {
      check(key, "subresources", theirSubresources, subresources, differences);
    }
  }

  private static Set<String> set(JsonNode array) {
    Set<String> out = new TreeSet<>();
    if (array != null) {
      array.forEach(v -> out.add(v.asText()));
    }
    return out;
  }

  private static void check(
      String key, String what, Object expected, Object actual, List<String> differences) {
    if (!expected.equals(actual)) {
      differences.add(key + " " + what + ": kube-apiserver " + expected + ", served " + actual);
    }
  }

  @Test
  void subresourcesOfTheCoreGroupAreServed() throws Exception {
    JsonNode core = json(get("/api/v1"));
    Set<String> names = new TreeSet<>(core.findValuesAsText("name"));
    assertTrue(
        names.containsAll(
            List.of("pods/status", "services/status", "namespaces/status", "namespaces/finalize")));
    assertTrue(names.contains("replicationcontrollers/scale"), names.toString());
    for (JsonNode resource : core.get("resources")) {
      if (resource.get("name").asText().endsWith("/scale")) {
        assertEquals("autoscaling", resource.path("group").asText(), resource.toString());
        assertEquals("Scale", resource.get("kind").asText());
      }
    }
  }

  private static JsonNode read(String name) throws IOException {
    try (InputStream in = BuiltinDiscoveryTest.class.getResourceAsStream("/discovery/" + name)) {
      return JSON.readTree(in);
    }
  }

  private static ApiResponse get(String path) {
    return server.handle(
        new ApiRequest("GET", path, Map.of(), Map.of(), new ByteArrayInputStream(new byte[0])));
  }

  private static JsonNode json(ApiResponse response) throws IOException {
    return JSON.readTree(response.body());
  }
}
