package dev.machinery.apiserver.storage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A list's {@code limit}, {@code continue}, {@code resourceVersion} and {@code
 * resourceVersionMatch} in every combination, with the watch cache on and off, as Kubernetes' own
 * integration test of them ({@code TestListOptions} of {@code test/integration/apiserver}) sets
 * them up and expects them answered: fifteen objects made, the first five deleted and the storage
 * compacted past the first one's revision, ten left; the limits 0 and 6; no continue token, a valid
 * one and an invalid one; no resourceVersion, {@code 0}, the compacted revision and one that is not
 * a number; no match, {@code NotOlderThan}, {@code Exact} and an unknown one. Where kube-apiserver
 * answers a list from its watch cache it ignores the limit; this server's cache honours it (the API
 * allows either), so those rows expect the limit's count. A GET's {@code resourceVersion} is
 * checked the same way. Extend it and return, from {@link #storage()}, a store over a key space of
 * the class's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ListResourceVersionContract {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";
  private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));
  private static final String INVALID_TOKEN = "invalidContinueToken";
  private static final String INVALID_VERSION = "invalid";
  private static final String INVALID_MATCH = "InvalidMatch";

  private Storage storage;
  private ApiServer cached;
  private ApiServer uncached;
  private String compacted;
  private String validToken;
  private String created;
  private String stored;
  private String latest;

  /**
   * Returns a store over this class's key space.
   *
   * @return the store
   */
  protected abstract Storage storage();

  @BeforeAll
  void setUp() throws IOException {
    storage = storage();
    cached = server(storage, ApiServer.DEFAULT_WATCH_CACHE_SIZE);
    uncached = server(storage, 0);
    String oldestKept = null;
    for (int i = 0; i < 15; i++) {
      ApiResponse made =
          call(
              cached,
              "POST",
              ROLES,
              Map.of(),
              "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                  + "\"metadata\":{\"name\":\"role-"
                  + i
                  + "\"},\"rules\":[]}");
      assertEquals(201, made.status(), text(made));
      String revision =
          JSON.readTree(made.body()).path("metadata").path("resourceVersion").asText();
      if (i == 0) {
        compacted = revision;
      }
      if (i == 14) {
        created = revision;
      }
      if (i < 5) {
        assertEquals(200, call(cached, "DELETE", ROLES + "/role-" + i, Map.of(), null).status());
        oldestKept = revision;
      }
    }
    storage.compact(Long.parseLong(oldestKept));
    stored = label("role-14", "updated");
    latest = label("role-13", "updated");
    ApiResponse first = call(cached, "GET", ROLES, Map.of("limit", List.of("6")), null);
    assertEquals(200, first.status(), text(first));
    validToken = JSON.readTree(first.body()).path("metadata").path("continue").asText();
    assertTrue(!validToken.isEmpty(), text(first));
  }

  /** Labels a role with {@code step}; returns the update's revision. */
  private String label(String name, String step) throws IOException {
    ApiResponse updated =
        call(
            cached,
            "PUT",
            ROLES + "/" + name,
            Map.of(),
            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                + "\"metadata\":{\"name\":\""
                + name
                + "\",\"labels\":{\"step\":\""
                + step
                + "\"}},\"rules\":[]}");
    assertEquals(200, updated.status(), text(updated));
    return JSON.readTree(updated.body()).path("metadata").path("resourceVersion").asText();
  }

  @AfterAll
  void tearDown() {
    cached.close();
    uncached.close();
    storage.close();
  }

  private static ApiServer server(Storage storage, int watchCacheSize) {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    return ApiServer.builder(scheme)
        .storage(storage)
        .watchCacheSize(watchCacheSize)
        .addResource(ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
        .build();
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

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  static Stream<Arguments> options() {
    List<Arguments> all = new ArrayList<>();
    for (boolean watchCache : List.of(true, false)) {
      for (int limit : List.of(0, 6)) {
        for (String token : List.of("empty", "valid", "invalid")) {
          for (String version : List.of("empty", "0", "compacted", "invalid")) {
            for (String match : List.of("", "NotOlderThan", "Exact", INVALID_MATCH)) {
              all.add(Arguments.of(watchCache, limit, token, version, match));
            }
          }
        }
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "watchCache={0} limit={1} continue={2} rv={3} rvMatch={4}")
  @MethodSource("options")
  void aListIsAnsweredAsKubeApiserverAnswersIt(
      boolean watchCache, int limit, String tokenName, String versionName, String match)
      throws IOException {
    String token =
        switch (tokenName) {
          case "valid" -> validToken;
          case "invalid" -> INVALID_TOKEN;
          default -> "";
        };
    String version =
        switch (versionName) {
          case "0" -> "0";
          case "compacted" -> compacted;
          case "invalid" -> INVALID_VERSION;
          default -> "";
        };
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (limit > 0) {
      query.put("limit", List.of(Integer.toString(limit)));
    }
    if (!token.isEmpty()) {
      query.put("continue", List.of(token));
    }
    if (!version.isEmpty()) {
      query.put("resourceVersion", List.of(version));
    }
    if (!match.isEmpty()) {
      query.put("resourceVersionMatch", List.of(match));
    }
    ApiResponse response = call(watchCache ? cached : uncached, "GET", ROLES, query, null);
    String body = text(response);

    String error = expectedError(limit, token, version, match);
    if (error != null) {
      assertTrue(response.status() >= 400, response.status() + " " + body);
      String message = JSON.readTree(body).path("message").asText();
      assertTrue(message.contains(error), "expected \"" + error + "\" in: " + message);
      return;
    }
    assertEquals(200, response.status(), body);
    int count = JSON.readTree(body).path("items").size();
    int expected = !token.isEmpty() ? 4 : limit > 0 ? limit : 10;
    assertEquals(expected, count, body);
  }

  static Stream<Arguments> gets() {
    List<Arguments> all = new ArrayList<>();
    for (boolean watchCache : List.of(true, false)) {
      for (String version :
          List.of("empty", "0", "created", "stored", "latest", "too high", "invalid")) {
        all.add(Arguments.of(watchCache, version));
      }
    }
    return all.stream();
  }

  /**
   * A GET's {@code resourceVersion}, as Kubernetes' storage tests expect it answered ({@code
   * RunTestGet} of {@code k8s.io/apiserver/pkg/storage/testing}): any revision is a state not older
   * than it, so the object's creation may be answered with it or with its update; the store's
   * latest revision answers the update; a revision the store has not reached is "Too large resource
   * version"; one that is not a number a {@code 400}. Here {@code 0} answers the update too, since
   * the cache holds the writes made through this server.
   */
  @ParameterizedTest(name = "watchCache={0} rv={1}")
  @MethodSource("gets")
  void aGetIsAnsweredAsKubeApiserverAnswersIt(boolean watchCache, String versionName)
      throws IOException {
    String version =
        switch (versionName) {
          case "0" -> "0";
          case "created" -> created;
          case "stored" -> stored;
          case "latest" -> latest;
          case "too high" -> Long.toString(Long.MAX_VALUE);
          case "invalid" -> INVALID_VERSION;
          default -> "";
        };
    Map<String, List<String>> query =
        version.isEmpty() ? Map.of() : Map.of("resourceVersion", List.of(version));
    ApiServer server = watchCache ? cached : uncached;
    ApiResponse response = call(server, "GET", ROLES + "/role-14", query, null);
    String body = text(response);
    switch (versionName) {
      case "too high" -> {
        assertEquals(504, response.status(), body);
        assertTrue(body.contains("Too large resource version: " + Long.MAX_VALUE), body);
      }
      case "invalid" -> {
        assertEquals(400, response.status(), body);
        assertTrue(body.contains("Invalid value"), body);
      }
      default -> {
        assertEquals(200, response.status(), body);
        JsonNode metadata = JSON.readTree(body).path("metadata");
        if (versionName.equals("created")) {
          assertTrue(
              List.of(created, stored).contains(metadata.path("resourceVersion").asText()), body);
        } else {
          assertEquals(stored, metadata.path("resourceVersion").asText(), body);
          assertEquals("updated", metadata.path("labels").path("step").asText(), body);
        }
      }
    }
    ApiResponse missing = call(server, "GET", ROLES + "/role-99", query, null);
    if (!versionName.equals("too high") && !versionName.equals("invalid")) {
      assertEquals(404, missing.status(), text(missing));
    }
  }

  /** The error kube-apiserver's test expects, in the order it checks them; null for success. */
  private String expectedError(int limit, String token, String version, String match) {
    if (version.isEmpty() && !match.isEmpty()) {
      return "resourceVersionMatch is forbidden unless resourceVersion is provided";
    }
    if (!token.isEmpty() && !match.isEmpty()) {
      return "resourceVersionMatch is forbidden when continue is provided";
    }
    if (match.equals(INVALID_MATCH)) {
      return "supported values";
    }
    if (match.equals("Exact") && version.equals("0")) {
      return "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"";
    }
    if (version.equals(INVALID_VERSION)) {
      return "Invalid value";
    }
    if (token.equals(INVALID_TOKEN)) {
      return "continue key is not valid";
    }
    if (!token.isEmpty() && !(version.isEmpty() || version.equals("0"))) {
      return "specifying resource version is not allowed when using continue";
    }
    boolean exact = match.equals("Exact") || (limit > 0 && match.isEmpty());
    if (version.equals(compacted) && exact) {
      return "The resourceVersion for the provided list is too old";
    }
    return null;
  }
}
