package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.testing.LateRemoteStorage;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Reads at {@code resourceVersion=0}, as kube-apiserver answers them from its watch cache (an
 * informer's first list, a lister, an admission plugin's read): no request to the storage, and on
 * this server every write made through it is in the answer, even when the cache's watch brings the
 * write late. And reads at a revision {@code N} not older than it: from the cache once it holds
 * {@code N} (a list waits for it), {@code 504} for a revision the storage has not reached. The
 * storage here is a memory store that says it is remote (as etcd) and delivers its watch events 300
 * ms late, so a read that did not wait for the writes made here would miss them.
 */
class ReadsAtAResourceVersionTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
  private static final Map<String, List<String>> AT_ZERO = Map.of("resourceVersion", List.of("0"));

  private final LateRemoteStorage storage = new LateRemoteStorage(Duration.ofMillis(300));
  private final ApiServer server =
      ApiServer.builder(RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build())
          .storage(storage)
          .addResource(
              ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "ClusterRole"), false).build())
          .build();

  @AfterEach
  void close() {
    server.close();
  }

  private ApiResponse call(
      String method, String path, Map<String, List<String>> query, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            query,
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private JsonNode write(String method, String path, String name, String label) throws IOException {
    ApiResponse response =
        call(
            method,
            path,
            Map.of(),
            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"name\":\""
                + name
                + "\",\"labels\":{\"step\":\""
                + label
                + "\"}}}");
    assertTrue(
        response.status() == 200 || response.status() == 201,
        new String(response.body(), StandardCharsets.UTF_8));
    return JSON.readTree(response.body());
  }

  private JsonNode read(String path) throws IOException {
    ApiResponse response = call("GET", path, AT_ZERO, null);
    assertEquals(200, response.status(), new String(response.body(), StandardCharsets.UTF_8));
    return JSON.readTree(response.body());
  }

  private static List<String> names(JsonNode list) {
    List<String> names = new ArrayList<>();
    list.path("items").forEach(item -> names.add(item.path("metadata").path("name").asText()));
    return names;
  }

  @Test
  void aGetAtZeroIsAnsweredFromTheCacheWithEveryWriteMadeHere() throws IOException {
    read(ROLES); // starts the cache
    for (int i = 0; i < 3; i++) {
      String path = ROLES + "/role-" + i;
      JsonNode created = write("POST", ROLES, "role-" + i, "created");
      storage.takeReads();
      JsonNode got = read(path);
      assertEquals(created.path("metadata"), got.path("metadata"), "the create, at once");
      JsonNode updated = write("PUT", path, "role-" + i, "updated");
      storage.takeReads();
      assertEquals(updated.path("metadata"), read(path).path("metadata"), "the update, at once");
      assertEquals(404, call("GET", ROLES + "/none", AT_ZERO, null).status());
      assertEquals(0, storage.takeReads(), "no request to the storage");
    }
    assertEquals(200, call("DELETE", ROLES + "/role-1", Map.of(), null).status());
    storage.takeReads();
    ApiResponse gone = call("GET", ROLES + "/role-1", AT_ZERO, null);
    assertEquals(404, gone.status(), new String(gone.body(), StandardCharsets.UTF_8));
    assertEquals(0, storage.takeReads(), "no request to the storage");
  }

  private ApiResponse list(String version, String match) {
    return call(
        "GET",
        ROLES,
        match.isEmpty()
            ? Map.of("resourceVersion", List.of(version))
            : Map.of("resourceVersion", List.of(version), "resourceVersionMatch", List.of(match)),
        null);
  }

  @Test
  void aListNotOlderThanARevisionWaitsForTheCacheToHoldIt() throws IOException {
    read(ROLES); // starts the cache
    for (String match : List.of("", "NotOlderThan")) {
      String revision =
          write("POST", ROLES, "role-" + match.length(), "created")
              .path("metadata")
              .path("resourceVersion")
              .asText();
      storage.takeReads();
      ApiResponse response = list(revision, match);
      assertEquals(200, response.status(), new String(response.body(), StandardCharsets.UTF_8));
      JsonNode list = JSON.readTree(response.body());
      assertTrue(names(list).contains("role-" + match.length()), list.toString());
      assertTrue(
          list.path("metadata").path("resourceVersion").asLong() >= Long.parseLong(revision));
      assertEquals(0, storage.takeReads(), "from the cache, once it held the revision");
    }
  }

  @Test
  void aReadAtARevisionTheStorageHasNotReachedIsTooLarge() throws IOException {
    read(ROLES); // starts the cache
    String beyond = Long.toString(Long.MAX_VALUE);
    for (ApiResponse response :
        List.of(
            list(beyond, ""),
            list(beyond, "NotOlderThan"),
            list(beyond, "Exact"),
            call("GET", ROLES + "/none", Map.of("resourceVersion", List.of(beyond)), null))) {
      String body = new String(response.body(), StandardCharsets.UTF_8);
      assertEquals(504, response.status(), body);
      assertTrue(body.contains("Too large resource version: " + beyond + ", current: "), body);
    }
  }

  @Test
  void aGetAtARevisionTheCacheHoldsMakesNoRequestToTheStorage() throws IOException {
    JsonNode created = write("POST", ROLES, "role-0", "created");
    String revision = created.path("metadata").path("resourceVersion").asText();
    read(ROLES); // the cache holds the revision from its first list on
    storage.takeReads();
    ApiResponse got =
        call("GET", ROLES + "/role-0", Map.of("resourceVersion", List.of(revision)), null);
    assertEquals(200, got.status(), new String(got.body(), StandardCharsets.UTF_8));
    assertEquals(created.path("metadata"), JSON.readTree(got.body()).path("metadata"));
    assertEquals(0, storage.takeReads(), "no request to the storage");
  }

  @Test
  void aListAtZeroIsAnsweredFromTheCacheWithEveryWriteMadeHere() throws IOException {
    read(ROLES); // starts the cache
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      JsonNode created = write("POST", ROLES, "role-" + i, "created");
      expected.add("role-" + i);
      storage.takeReads();
      JsonNode list = read(ROLES);
      assertEquals(expected, names(list));
      assertTrue(
          list.path("metadata").path("resourceVersion").asLong()
              >= created.path("metadata").path("resourceVersion").asLong(),
          list.path("metadata").toString());
      assertEquals(0, storage.takeReads(), "no request to the storage");
    }
  }
}
