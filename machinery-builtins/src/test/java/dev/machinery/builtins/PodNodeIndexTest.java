package dev.machinery.builtins;

import static dev.machinery.builtins.DefaultAdmissionPluginsTest.request;
import static dev.machinery.builtins.DefaultAdmissionPluginsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.testing.ForwardingStorage;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pods listed by node ({@code fieldSelector=spec.nodeName=...}, what each kubelet asks) through the
 * watch cache's index of {@code spec.nodeName}, as kube-apiserver indexes it: the same pods as the
 * storage's own list, at {@code resourceVersion=0} and for consistent lists served from the cache.
 */
class PodNodeIndexTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PODS = "/api/v1/namespaces/test/pods";

  /** A memory store read as a remote one, so that consistent lists come from the cache. */
  private final Storage remote =
      new ForwardingStorage(new MemoryStorage()) {
        @Override
        public boolean answersFromMemory() {
          return false;
        }
      };

  private final ApiServer server = BuiltinKinds.apiServer().storage(remote).build();

  @AfterEach
  void stop() {
    server.close();
  }

  private void pod(String name, String node) {
    ApiResponse created =
        request(
            server,
            "POST",
            PODS,
            "{\"metadata\":{\"name\":\""
                + name
                + "\"},\"spec\":{"
                + (node == null ? "" : "\"nodeName\":\"" + node + "\",")
                + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
    assertEquals(201, created.status(), text(created));
  }

  private TreeSet<String> names(String path, String fieldSelector, String resourceVersion)
      throws Exception {
    Map<String, List<String>> query = new java.util.LinkedHashMap<>();
    query.put("fieldSelector", List.of(fieldSelector));
    if (resourceVersion != null) {
      query.put("resourceVersion", List.of(resourceVersion));
    }
    ApiResponse listed =
        server.handle(
            new ApiRequest("GET", path, query, Map.of(), new ByteArrayInputStream(new byte[0])));
    assertEquals(200, listed.status(), text(listed));
    TreeSet<String> names = new TreeSet<>();
    for (JsonNode item : JSON.readTree(listed.body()).path("items")) {
      names.add(item.at("/metadata/name").asText());
    }
    return names;
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          spec.nodeName=node-1                      | a1 a2 a3
          spec.nodeName==node-2                     | b1
          spec.nodeName=node-3                      | ''
          spec.nodeName=                            | u1 u2
          spec.nodeName=node-1,metadata.name=a2     | a2
          spec.nodeName=node-1,metadata.name!=a2    | a1 a3
          spec.nodeName!=node-1                     | b1 u1 u2
          """)
  void podsOfANodeAreThoseTheStorageLists(String selector, String expected) throws Exception {
    request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"test\"}}");
    request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"other\"}}");
    pod("a1", "node-1");
    pod("a2", "node-1");
    pod("b1", "node-2");
    pod("u1", null);
    pod("a3", "node-1");
    pod("u2", null);
    ApiResponse elsewhere =
        request(
            server,
            "POST",
            "/api/v1/namespaces/other/pods",
            "{\"metadata\":{\"name\":\"x1\"},\"spec\":{\"nodeName\":\"node-1\","
                + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
    assertEquals(201, elsewhere.status(), text(elsewhere));

    List<String> wanted = new ArrayList<>();
    for (String name : expected.trim().split(" ")) {
      if (!name.isEmpty()) {
        wanted.add(name);
      }
    }
    for (String resourceVersion : new String[] {"0", null}) {
      assertEquals(
          new TreeSet<>(wanted), names(PODS, selector, resourceVersion), "rv " + resourceVersion);
    }
    TreeSet<String> everywhere = new TreeSet<>(wanted);
    if (selector.equals("spec.nodeName=node-1") || selector.equals("spec.nodeName!=node-2")) {
      everywhere.add("x1");
    }
    if (selector.equals("spec.nodeName=node-1")) {
      assertEquals(everywhere, names("/api/v1/pods", selector, "0"), "all namespaces");
    }
  }

  @Test
  void aPodBoundToANodeMovesToItsIndex() throws Exception {
    request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"test\"}}");
    pod("p", null);
    assertEquals(new TreeSet<>(List.of("p")), names(PODS, "spec.nodeName=", "0"));
    ApiResponse bound =
        request(
            server,
            "POST",
            PODS + "/p/binding",
            "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p\"},"
                + "\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"node-7\"}}");
    assertEquals(201, bound.status(), text(bound));
    assertEquals(new TreeSet<>(List.of("p")), names(PODS, "spec.nodeName=node-7", null));
    assertEquals(new TreeSet<String>(), names(PODS, "spec.nodeName=", null));
    ApiResponse deleted =
        request(
            server,
            "DELETE",
            PODS + "/p",
            "{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"gracePeriodSeconds\":0}");
    assertEquals(200, deleted.status(), text(deleted));
    assertEquals(new TreeSet<String>(), names(PODS, "spec.nodeName=node-7", null));
  }
}
