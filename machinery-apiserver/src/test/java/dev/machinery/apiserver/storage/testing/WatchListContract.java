package dev.machinery.apiserver.storage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Watch lists ({@code sendInitialEvents}, KEP-3157) and bookmarks served over a {@link Storage}, as
 * kube-apiserver's watch handler and cacher serve them: the validation of {@code
 * resourceVersionMatch} and {@code sendInitialEvents} (k8s.io/apimachinery's {@code
 * ValidateListOptions} messages), where each combination of resourceVersion, {@code
 * allowWatchBookmarks} and {@code sendInitialEvents} starts (the cases of the cacher's {@code
 * TestGetWatchCacheResourceVersion} and {@code TestGetBookmarkAfterResourceVersionLockedFunc}), the
 * synthetic {@code ADDED} events with selectors applied, the bookmark annotated {@code
 * k8s.io/initial-events-end} at the revision the state was read at, and the changes after it.
 * Extend it and return a fresh, empty store from {@link #newStorage()}; shipped in the test jar so
 * that the etcd store runs the same cases.
 */
public abstract class WatchListContract {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";
  private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));

  private ApiServer server;
  private final List<Storage> storages = new ArrayList<>();

  /**
   * Returns a new, empty store.
   *
   * @return the store
   */
  protected abstract Storage newStorage();

  @BeforeEach
  void start() {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    server =
        ApiServer.builder(scheme)
            .storage(storage())
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .bookmarkInterval(Duration.ofMillis(200))
            .build();
  }

  @AfterEach
  void stop() {
    server.close();
    storages.forEach(Storage::close);
  }

  private Storage storage() {
    Storage storage = newStorage();
    storages.add(storage);
    return storage;
  }

  private ApiResponse call(String method, String path, Map<String, String> query, String body) {
    Map<String, List<String>> parameters = new LinkedHashMap<>();
    query.forEach((k, v) -> parameters.put(k, List.of(v)));
    return server.handleAs(
        ROOT,
        new ApiRequest(
            method,
            path,
            parameters,
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private long create(String namespace, String name, String app) throws IOException {
    String path = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/roles";
    ApiResponse response =
        call(
            "POST",
            path,
            Map.of(),
            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                + "\"metadata\":{\"name\":\""
                + name
                + "\",\"labels\":{\"app\":\""
                + app
                + "\"}},\"rules\":[]}");
    assertEquals(201, response.status(), new String(response.body(), StandardCharsets.UTF_8));
    return revision(JSON.readTree(response.body()));
  }

  private long delete(String name) throws IOException {
    ApiResponse response = call("DELETE", ROLES + "/" + name, Map.of(), null);
    assertEquals(200, response.status(), new String(response.body(), StandardCharsets.UTF_8));
    return listRevision();
  }

  private long listRevision() throws IOException {
    ApiResponse list = call("GET", ROLES, Map.of(), null);
    return Long.parseLong(
        JSON.readTree(list.body()).path("metadata").path("resourceVersion").asText());
  }

  private static long revision(JsonNode object) {
    return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
  }

  /** The events of a watch, each as {@code TYPE name} ({@code BOOKMARK rv [end]} for bookmarks). */
  private static List<String> summary(List<JsonNode> events) {
    List<String> out = new ArrayList<>();
    for (JsonNode event : events) {
      String type = event.path("type").asText();
      JsonNode object = event.path("object");
      if (type.equals("BOOKMARK")) {
        boolean end =
            object
                .path("metadata")
                .path("annotations")
                .path("k8s.io/initial-events-end")
                .asText()
                .equals("true");
        out.add("BOOKMARK" + (end ? " end" : ""));
      } else if (type.equals("ERROR")) {
        out.add("ERROR " + object.path("code").asInt() + " " + object.path("message").asText());
      } else {
        out.add(type + " " + object.path("metadata").path("name").asText());
      }
    }
    return out;
  }

  /** Runs a watch for one second; {@code during} runs once the first {@code ready} events came. */
  private List<JsonNode> watch(Map<String, String> query, int ready, Runnable during)
      throws Exception {
    Map<String, String> all = new LinkedHashMap<>(query);
    all.put("watch", "true");
    all.putIfAbsent("timeoutSeconds", "1");
    ApiResponse response = call("GET", ROLES, all, null);
    if (!response.isStreaming()) {
      assertEquals(200, response.status(), new String(response.body(), StandardCharsets.UTF_8));
      return parse(response.body());
    }
    assertEquals(200, response.status());
    CountDownLatch started = new CountDownLatch(1);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    OutputStream out =
        new OutputStream() {
          private int lines;

          @Override
          public synchronized void write(int b) {
            bytes.write(b);
            if (b == '\n' && ++lines >= ready) {
              started.countDown();
            }
          }
        };
    if (ready == 0) {
      started.countDown();
    }
    CompletableFuture<Void> writing =
        CompletableFuture.runAsync(
            () -> {
              try {
                response.writeBody(out);
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    assertTrue(started.await(10, TimeUnit.SECONDS), "the watch's first events came");
    during.run();
    writing.get(20, TimeUnit.SECONDS);
    synchronized (out) {
      return parse(bytes.toByteArray());
    }
  }

  private static List<JsonNode> parse(byte[] body) throws IOException {
    List<JsonNode> events = new ArrayList<>();
    for (String line : new String(body, StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        events.add(JSON.readTree(line));
      }
    }
    return events;
  }

  private Runnable creating(String name) {
    return () -> {
      try {
        create("ns", name, "web");
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    };
  }

  /** Watches without the periodic bookmarks (the end bookmark is not periodic). */
  private static List<String> withoutPeriodicBookmarks(List<String> events) {
    return events.stream().filter(e -> !e.equals("BOOKMARK")).toList();
  }

  static Stream<Arguments> invalidOptions() {
    return Stream.of(
        // watch: k8s.io/apimachinery's validateWatchOptions
        Arguments.of(
            Map.of("watch", "true", "sendInitialEvents", "true"),
            List.of(
                "resourceVersionMatch: Forbidden: sendInitialEvents requires setting"
                    + " resourceVersionMatch to NotOlderThan")),
        Arguments.of(
            Map.of("watch", "true", "sendInitialEvents", "false", "resourceVersionMatch", "Exact"),
            List.of(
                "resourceVersionMatch: Forbidden: sendInitialEvents requires setting"
                    + " resourceVersionMatch to NotOlderThan",
                "resourceVersionMatch: Unsupported value: \"Exact\": supported values:"
                    + " \"NotOlderThan\"")),
        Arguments.of(
            Map.of("watch", "true", "resourceVersionMatch", "NotOlderThan"),
            List.of(
                "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch"
                    + " unless sendInitialEvents is provided")),
        Arguments.of(
            Map.of(
                "watch",
                "true",
                "sendInitialEvents",
                "true",
                "resourceVersionMatch",
                "NotOlderThan",
                "continue",
                "abc"),
            List.of(
                "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue"
                    + " is provided")),
        // list: ValidateListOptions
        Arguments.of(
            Map.of("sendInitialEvents", "true"),
            List.of("sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list")),
        Arguments.of(
            Map.of("resourceVersionMatch", "NotOlderThan"),
            List.of(
                "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless"
                    + " resourceVersion is provided")),
        Arguments.of(
            Map.of("resourceVersionMatch", "Exact", "resourceVersion", "0"),
            List.of(
                "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for"
                    + " resourceVersion \"0\"")),
        Arguments.of(
            Map.of("resourceVersionMatch", "Newest", "resourceVersion", "5"),
            List.of(
                "resourceVersionMatch: Unsupported value: \"Newest\": supported values:"
                    + " \"Exact\", \"NotOlderThan\", \"\"")));
  }

  @ParameterizedTest
  @MethodSource("invalidOptions")
  void invalidOptionsAreRefusedAsKubeApiserverRefusesThem(
      Map<String, String> query, List<String> messages) throws IOException {
    ApiResponse response = call("GET", ROLES, query, null);
    assertEquals(422, response.status(), new String(response.body(), StandardCharsets.UTF_8));
    JsonNode status = JSON.readTree(response.body());
    assertEquals("Invalid", status.path("reason").asText());
    assertEquals(
        "ListOptions.meta.k8s.io \"\" is invalid: "
            + (messages.size() == 1 ? messages.get(0) : "[" + String.join(", ", messages) + "]"),
        status.path("message").asText());
  }

  /**
   * The state of the watch list's start: objects of another namespace and ones the selector leaves
   * out are not sent; the bookmark closes them at the revision the state was read at.
   */
  @ParameterizedTest(name = "resourceVersion={0}")
  @MethodSource("latestOrAny")
  void watchListSendsTheStateThenTheEndBookmarkThenTheChanges(String rv) throws Exception {
    create("ns", "a", "web");
    create("ns", "b", "db");
    create("other", "c", "web");
    long read = create("ns", "d", "web");
    Map<String, String> query = new LinkedHashMap<>();
    query.put("sendInitialEvents", "true");
    query.put("resourceVersionMatch", "NotOlderThan");
    query.put("allowWatchBookmarks", "true");
    query.put("labelSelector", "app=web");
    if (rv != null) {
      query.put("resourceVersion", rv);
    }
    List<JsonNode> events = watch(query, 3, creating("e"));
    assertEquals(
        List.of("ADDED a", "ADDED d", "BOOKMARK end", "ADDED e"),
        withoutPeriodicBookmarks(summary(events)));
    JsonNode end = events.get(2).path("object");
    assertEquals(read, revision(end), "the end bookmark is at the revision the state was read at");
    assertEquals("Role", end.path("kind").asText());
    assertEquals("rbac.authorization.k8s.io/v1", end.path("apiVersion").asText());
  }

  static Stream<String> latestOrAny() {
    return Stream.of(null, "", "0");
  }

  /**
   * A watch list at a given revision sends a state not older than it: the state of now, with what
   * was created after it and without what was deleted after it.
   */
  @Test
  void watchListAtAnOlderRevisionSendsTheCurrentState() throws Exception {
    long first = create("ns", "a", "web");
    create("ns", "b", "web");
    delete("a");
    long now = create("ns", "c", "web");
    List<JsonNode> events =
        watch(
            Map.of(
                "sendInitialEvents",
                "true",
                "resourceVersionMatch",
                "NotOlderThan",
                "allowWatchBookmarks",
                "true",
                "resourceVersion",
                Long.toString(first)),
            3,
            () -> {});
    assertEquals(
        List.of("ADDED b", "ADDED c", "BOOKMARK end"), withoutPeriodicBookmarks(summary(events)));
    assertEquals(now, revision(events.get(2).path("object")));
  }

  /** A revision the storage has not reached yet: {@code Too large resource version}, as kube. */
  @Test
  void watchListAtAFutureRevisionEndsWithTooLargeResourceVersion() throws Exception {
    long now = create("ns", "a", "web");
    List<JsonNode> events =
        watch(
            Map.of(
                "sendInitialEvents",
                "true",
                "resourceVersionMatch",
                "NotOlderThan",
                "allowWatchBookmarks",
                "true",
                "resourceVersion",
                Long.toString(now + 100)),
            1,
            () -> {});
    assertEquals(
        List.of(
            "ERROR 504 Timeout: Too large resource version: " + (now + 100) + ", current: " + now),
        summary(events));
  }

  /** Without {@code allowWatchBookmarks} the initial events come, but no bookmark ends them. */
  @Test
  void watchListWithoutBookmarksSendsNoEndBookmark() throws Exception {
    create("ns", "a", "web");
    List<JsonNode> events =
        watch(
            Map.of("sendInitialEvents", "true", "resourceVersionMatch", "NotOlderThan"),
            1,
            creating("b"));
    assertEquals(List.of("ADDED a", "ADDED b"), summary(events));
  }

  /** {@code sendInitialEvents=false}: no initial events, the changes after the start's revision. */
  @ParameterizedTest(name = "resourceVersion={0}")
  @MethodSource("latestOrAny")
  void sendInitialEventsFalseStartsFromTheMostRecentRevision(String rv) throws Exception {
    create("ns", "a", "web");
    Map<String, String> query = new LinkedHashMap<>();
    query.put("sendInitialEvents", "false");
    query.put("resourceVersionMatch", "NotOlderThan");
    if (rv != null) {
      query.put("resourceVersion", rv);
    }
    List<JsonNode> events = watch(query, 0, creating("b"));
    assertEquals(List.of("ADDED b"), summary(events));
  }

  /** {@code sendInitialEvents=false} at a revision: the changes after it. */
  @Test
  void sendInitialEventsFalseAtARevisionSendsTheChangesAfterIt() throws Exception {
    long first = create("ns", "a", "web");
    create("ns", "b", "web");
    delete("a");
    List<JsonNode> events =
        watch(
            Map.of(
                "sendInitialEvents",
                "false",
                "resourceVersionMatch",
                "NotOlderThan",
                "resourceVersion",
                Long.toString(first)),
            2,
            () -> {});
    assertEquals(List.of("ADDED b", "DELETED a"), summary(events));
  }

  /**
   * A plain watch that allows bookmarks gets them at the server's interval, never annotated as the
   * end of initial events; one that does not allow them gets none.
   */
  @Test
  void everyWatchThatAllowsBookmarksGetsThem() throws Exception {
    long now = create("ns", "a", "web");
    List<JsonNode> events =
        watch(
            Map.of(
                "allowWatchBookmarks",
                "true",
                "resourceVersion",
                Long.toString(now),
                "timeoutSeconds",
                "3"),
            1,
            () -> {});
    List<String> summary = summary(events);
    assertFalse(summary.isEmpty());
    assertTrue(summary.stream().allMatch(e -> e.equals("BOOKMARK")), summary.toString());
    assertTrue(revision(events.get(0).path("object")) >= now);
    assertEquals(
        List.of(), summary(watch(Map.of("resourceVersion", Long.toString(now)), 0, () -> {})));
  }

  /**
   * The table of kube's cacher tests {@code TestGetWatchCacheResourceVersion} and {@code
   * TestGetBookmarkAfterResourceVersionLockedFunc}: resourceVersion unset, {@code 0} or an older
   * revision ("95": the revision of {@code a}'s create, {@code b} created after it), bookmarks
   * allowed or not, sendInitialEvents unset, true or false; then {@code c} is created. What comes
   * is the initial state (or not), the end bookmark at the current revision (only for
   * sendInitialEvents=true with bookmarks), then the changes after the start.
   */
  @ParameterizedTest(name = "rv={0} allowWatchBookmarks={1} sendInitialEvents={2}")
  @MethodSource("resourceVersionTable")
  void theResourceVersionTableOfKubesCacher(
      String rv, boolean allowBookmarks, Boolean sendInitialEvents, List<String> expected)
      throws Exception {
    long a = create("ns", "a", "web");
    long b = create("ns", "b", "web");
    Map<String, String> query = new LinkedHashMap<>();
    if (rv != null) {
      query.put("resourceVersion", rv.equals("95") ? Long.toString(a) : rv);
    }
    if (allowBookmarks) {
      query.put("allowWatchBookmarks", "true");
    }
    if (sendInitialEvents != null) {
      query.put("sendInitialEvents", sendInitialEvents.toString());
      query.put("resourceVersionMatch", "NotOlderThan");
    }
    int before = (int) expected.stream().takeWhile(e -> !e.equals("ADDED c")).count();
    List<JsonNode> events = watch(query, before, creating("c"));
    List<String> summary = summary(events);
    assertEquals(expected, withoutPeriodicBookmarks(summary));
    for (int i = 0; i < summary.size(); i++) {
      if (summary.get(i).equals("BOOKMARK end")) {
        assertEquals(b, revision(events.get(i).path("object")), "the end bookmark's revision");
      }
    }
  }

  static Stream<Arguments> resourceVersionTable() {
    List<String> state = List.of("ADDED a", "ADDED b");
    List<Arguments> rows = new ArrayList<>();
    for (String rv : new String[] {null, "0", "95"}) {
      for (boolean bookmarks : new boolean[] {true, false}) {
        for (Boolean send : new Boolean[] {null, true, false}) {
          List<String> expected = new ArrayList<>();
          if (Boolean.TRUE.equals(send) || send == null && !"95".equals(rv)) {
            expected.addAll(state);
          } else if ("95".equals(rv)) {
            expected.add("ADDED b");
          }
          if (Boolean.TRUE.equals(send) && bookmarks) {
            expected.add("BOOKMARK end");
          }
          expected.add("ADDED c");
          rows.add(Arguments.of(rv, bookmarks, send, expected));
        }
      }
    }
    return rows.stream();
  }

  /**
   * kube's cache watcher sends a bookmark 2 s before a watch ends, whatever the interval, so that
   * the client resumes from a recent revision: a watch of 3 s on a server whose interval is a
   * minute gets exactly one.
   */
  @Test
  void aBookmarkComesTwoSecondsBeforeTheWatchEnds() throws Exception {
    server.close();
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    server =
        ApiServer.builder(scheme)
            .storage(storage())
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .build();
    long now = create("ns", "a", "web");
    List<JsonNode> events =
        watch(
            Map.of(
                "allowWatchBookmarks",
                "true",
                "resourceVersion",
                Long.toString(now),
                "timeoutSeconds",
                "3"),
            0,
            () -> {});
    assertEquals(List.of("BOOKMARK"), summary(events));
    assertEquals(now, revision(events.get(0).path("object")));
  }

  /** A legacy watch (no sendInitialEvents, no resourceVersion) still starts with the state. */
  @Test
  void aWatchWithoutResourceVersionStillStartsWithTheState() throws Exception {
    create("ns", "a", "web");
    assertEquals(List.of("ADDED a", "ADDED b"), summary(watch(Map.of(), 1, creating("b"))));
  }
}
