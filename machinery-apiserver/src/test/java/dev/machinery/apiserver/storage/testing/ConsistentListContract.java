package dev.machinery.apiserver.storage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Consistent lists (no {@code resourceVersion}) over a {@link Storage} shared by two servers, one
 * writing and one reading, as kube-apiserver replicas share etcd: a list always shows every write
 * that was answered before it was asked, whether the reader's watch cache or the storage answers
 * it; where the store can tell that the cache is current ({@link Storage#unchangedSince}), the
 * cache answers without a range read of the objects (KEP-2340). Extend it and return, from {@link
 * #storage()}, a store over the test's key space (every call within one test shares it).
 */
public abstract class ConsistentListContract {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";
  private static final String BINDINGS =
      "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/rolebindings";
  private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));

  private final List<Storage> stores = new ArrayList<>();
  private ApiServer writer;
  private ApiServer reader;
  private Counting readerStore;

  /**
   * Returns a store over this test's key space; every call within one test reaches the same keys.
   *
   * @return the store
   */
  protected abstract Storage storage();

  @BeforeEach
  void start() {
    Storage written = storage();
    stores.add(written);
    readerStore = new Counting(storage());
    stores.add(readerStore);
    writer = server(written);
    reader = server(readerStore);
  }

  @AfterEach
  void stop() {
    writer.close();
    reader.close();
    stores.forEach(Storage::close);
  }

  private static ApiServer server(Storage storage) {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    return ApiServer.builder(scheme)
        .storage(storage)
        .addResource(ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
        .addResource(
            ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "RoleBinding"), true).build())
        .build();
  }

  private static ApiResponse call(ApiServer server, String method, String path, String body) {
    return call(server, method, path, Map.of(), body);
  }

  private static ApiResponse call(
      ApiServer server, String method, String path, Map<String, List<String>> query, String body) {
    return server.handleAs(
        ROOT,
        new ApiRequest(
            method,
            path,
            query,
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static long create(ApiServer server, String path, String kind, String name)
      throws IOException {
    ApiResponse response =
        call(
            server,
            "POST",
            path,
            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\""
                + kind
                + "\",\"metadata\":{\"name\":\""
                + name
                + "\"}"
                + (kind.equals("Role")
                    ? ",\"rules\":[]}"
                    : ",\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                        + "\"kind\":\"Role\",\"name\":\"r\"}}"));
    assertEquals(201, response.status(), new String(response.body(), StandardCharsets.UTF_8));
    return Long.parseLong(
        JSON.readTree(response.body()).path("metadata").path("resourceVersion").asText());
  }

  private static JsonNode list(ApiServer server, String path) throws IOException {
    return list(server, path, Map.of());
  }

  private static JsonNode list(ApiServer server, String path, Map<String, List<String>> query)
      throws IOException {
    ApiResponse response = call(server, "GET", path, query, null);
    assertEquals(200, response.status(), new String(response.body(), StandardCharsets.UTF_8));
    return JSON.readTree(response.body());
  }

  private static List<String> names(JsonNode list) {
    List<String> names = new ArrayList<>();
    list.path("items").forEach(item -> names.add(item.path("metadata").path("name").asText()));
    return names;
  }

  private static long revision(JsonNode list) {
    return Long.parseLong(list.path("metadata").path("resourceVersion").asText());
  }

  @Test
  void aListShowsEveryWriteAnsweredBeforeIt() throws IOException {
    assertEquals(List.of(), names(list(reader, ROLES)));
    for (int i = 0; i < 20; i++) {
      long created = create(writer, ROLES, "Role", "role-" + i);
      JsonNode seen = list(reader, ROLES);
      assertTrue(names(seen).contains("role-" + i), "role-" + i + " in " + names(seen));
      assertTrue(revision(seen) >= created, revision(seen) + " before " + created);
    }
    for (int i = 0; i < 20; i += 2) {
      ApiResponse deleted = call(writer, "DELETE", ROLES + "/role-" + i, null);
      assertEquals(200, deleted.status());
      assertFalse(names(list(reader, ROLES)).contains("role-" + i), "role-" + i + " deleted");
    }
    assertEquals(10, names(list(reader, ROLES)).size());
  }

  @Test
  void aPageOfAConsistentListContinuesAtItsRevision() throws IOException {
    for (int i = 0; i < 5; i++) {
      create(writer, ROLES, "Role", "role-" + i);
    }
    list(reader, ROLES);
    create(writer, BINDINGS, "RoleBinding", "other");
    JsonNode first = list(reader, ROLES, Map.of("limit", List.of("2")));
    assertEquals(List.of("role-0", "role-1"), names(first));
    assertEquals(3, first.path("metadata").path("remainingItemCount").asLong());
    String token = first.path("metadata").path("continue").asText();
    create(writer, ROLES, "Role", "role-5");
    JsonNode second =
        list(reader, ROLES, Map.of("limit", List.of("10"), "continue", List.of(token)));
    assertEquals(
        List.of("role-2", "role-3", "role-4"), names(second), "read at the first's revision");
    assertEquals(revision(first), revision(second));
  }

  @Test
  void whenTheStoreCanTellTheCacheAnswersWithoutReadingTheObjects()
      throws IOException, InterruptedException {
    for (int i = 0; i < 3; i++) {
      create(writer, ROLES, "Role", "role-" + i);
    }
    assertEquals(3, names(list(reader, ROLES)).size());
    // Another resource moves the store's revision on; the roles did not change.
    long other = create(writer, BINDINGS, "RoleBinding", "other");
    // A store answering from memory is read while the reader's cache has not yet seen the roles
    // (its lists never wait for the cache); once it has, the cache answers.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    do {
      readerStore.ranges.set(0);
      assertEquals(3, names(list(reader, ROLES)).size());
      if (readerStore.ranges.get() == 0) {
        break;
      }
      Thread.sleep(10);
    } while (System.nanoTime() < deadline);
    readerStore.ranges.set(0);
    for (int i = 0; i < 5; i++) {
      JsonNode seen = list(reader, ROLES);
      assertEquals(List.of("role-0", "role-1", "role-2"), names(seen));
      assertTrue(revision(seen) >= other, "at the store's current revision: " + revision(seen));
    }
    assertEquals(0, readerStore.ranges.get(), "no range read of the roles");
  }

  private static ApiResponse get(ApiServer server, String path) {
    return call(server, "GET", path, null);
  }

  @Test
  void aGetShowsEveryWriteAnsweredBeforeIt() throws IOException {
    for (int i = 0; i < 10; i++) {
      String path = ROLES + "/role-" + i;
      assertEquals(404, get(reader, path).status(), "before its create");
      long created = create(writer, ROLES, "Role", "role-" + i);
      ApiResponse seen = get(reader, path);
      assertEquals(200, seen.status(), "role-" + i + " after its create");
      assertEquals(created, revision(JSON.readTree(seen.body())));
      // Another resource's write between: the role is still read as it is.
      create(writer, BINDINGS, "RoleBinding", "b-" + i);
      ApiResponse updated =
          call(
              writer,
              "PUT",
              path,
              "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                  + "\"metadata\":{\"name\":\"role-"
                  + i
                  + "\",\"labels\":{\"step\":\""
                  + i
                  + "\"}},\"rules\":[]}");
      assertEquals(200, updated.status(), new String(updated.body(), StandardCharsets.UTF_8));
      JsonNode after = JSON.readTree(get(reader, path).body());
      assertEquals(String.valueOf(i), after.path("metadata").path("labels").path("step").asText());
      assertEquals(revision(JSON.readTree(updated.body())), revision(after));
      assertEquals(200, call(writer, "DELETE", path, null).status());
      assertEquals(404, get(reader, path).status(), "role-" + i + " after its delete");
    }
  }

  @Test
  void whenTheStoreCanTellTheCacheAnswersAGetWithoutReadingTheObject() throws IOException {
    assumeFalse(readerStore.answersFromMemory(), "a store answering from memory is read directly");
    create(writer, ROLES, "Role", "role-0");
    assertEquals(200, get(reader, ROLES + "/role-0").status());
    create(writer, BINDINGS, "RoleBinding", "other");
    readerStore.gets.set(0);
    readerStore.ranges.set(0);
    for (int i = 0; i < 5; i++) {
      assertEquals(200, get(reader, ROLES + "/role-0").status());
      assertEquals(404, get(reader, ROLES + "/role-1").status());
    }
    assertEquals(0, readerStore.gets.get(), "no read of the role");
    assertEquals(0, readerStore.ranges.get(), "no range read of the roles");
  }

  /** A store that counts the reads of values made through it. */
  private static final class Counting extends ForwardingStorage {
    final AtomicInteger ranges = new AtomicInteger();
    final AtomicInteger gets = new AtomicInteger();

    Counting(Storage store) {
      super(store);
    }

    @Override
    public Optional<KeyValue> get(String key) {
      gets.incrementAndGet();
      return store.get(key);
    }

    @Override
    public ListResult list(String prefix, long revision, String startKey, int limit) {
      ranges.incrementAndGet();
      return store.list(prefix, revision, startKey, limit);
    }

    @Override
    public ListResult list(
        String prefix, long revision, String startKey, int limit, boolean countRemaining) {
      ranges.incrementAndGet();
      return store.list(prefix, revision, startKey, limit, countRemaining);
    }
  }
}
