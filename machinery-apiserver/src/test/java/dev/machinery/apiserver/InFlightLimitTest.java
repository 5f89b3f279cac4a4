package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The limits of requests in flight under concurrent load, without timing: requests of the user
 * {@code slow} wait inside the server (in its authorizer, after their slot is taken) until the test
 * lets them go, so the slots are known to be taken when the next requests come.
 */
class InFlightLimitTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";
  private static final UserInfo SLOW = UserInfo.of("slow", List.of("system:authenticated"));
  private static final UserInfo OTHER = UserInfo.of("other", List.of("system:authenticated"));
  private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));

  private final CountDownLatch release = new CountDownLatch(1);
  private CountDownLatch inside;
  private ExecutorService pool;
  private ApiServer server;

  @BeforeEach
  void start() {
    pool = Executors.newCachedThreadPool();
  }

  @AfterEach
  void stop() throws InterruptedException {
    release.countDown();
    pool.shutdown();
    pool.awaitTermination(30, TimeUnit.SECONDS);
  }

  private void build(int readOnly, int mutating, int slowRequests) {
    inside = new CountDownLatch(slowRequests);
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    server =
        ApiServer.builder(scheme)
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .maxRequestsInFlight(readOnly)
            .maxMutatingRequestsInFlight(mutating)
            .authorizer(
                attributes -> {
                  if (attributes.user().name().equals("slow")
                      || attributes.namespace().equals("slow")) {
                    inside.countDown();
                    try {
                      // Bounded: a test that never releases fails on its own limit, and this
                      // handler thread ends.
                      release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }
                  return Authorization.allow("");
                })
            .build();
  }

  private ApiResponse call(UserInfo user, String method, String path, String body) {
    Map<String, List<String>> query = new TreeMap<>();
    if (method.equals("WATCH")) {
      method = "GET";
      query.put("watch", List.of("true"));
      query.put("timeoutSeconds", List.of("1"));
    }
    return server.handleAs(
        user,
        new ApiRequest(
            method,
            path,
            query,
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String role(String name) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
        + "\"metadata\":{\"name\":\""
        + name
        + "\"},\"rules\":[]}";
  }

  private List<Future<ApiResponse>> hold(int n, String method, String body) throws Exception {
    List<Future<ApiResponse>> held = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String each = body == null ? null : body.replace("NAME", "slow-" + i);
      held.add(pool.submit(() -> call(SLOW, method, ROLES, each)));
    }
    assertEquals(true, inside.await(30, TimeUnit.SECONDS), "the slow requests got in");
    return held;
  }

  private static void assertTooManyRequests(ApiResponse response) {
    assertEquals(429, response.status());
    assertEquals("1", response.header("Retry-After"));
    JsonNode status;
    try {
      status = JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertEquals("TooManyRequests", status.path("reason").asText());
    assertEquals("Too many requests, please try again later.", status.path("message").asText());
    assertEquals(1, status.path("details").path("retryAfterSeconds").asInt());
    assertEquals(429, status.path("code").asInt());
  }

  @Test
  void readOnlyRequestsBeyondTheLimitAreRefusedWhileOthersAreServed() throws Exception {
    build(2, 1, 2);
    List<Future<ApiResponse>> held = hold(2, "GET", null);
    assertTooManyRequests(call(OTHER, "GET", ROLES, null));
    assertTooManyRequests(call(OTHER, "GET", ROLES + "/x", null));
    // Mutating requests have slots of their own, watches and system:masters are not counted.
    assertEquals(201, call(OTHER, "POST", ROLES, role("fine")).status());
    assertEquals(200, call(OTHER, "WATCH", ROLES, null).status());
    assertEquals(200, call(ROOT, "GET", ROLES, null).status());
    release.countDown();
    for (Future<ApiResponse> f : held) {
      assertEquals(200, f.get(30, TimeUnit.SECONDS).status());
    }
    assertEquals(200, call(OTHER, "GET", ROLES, null).status());
  }

  @Test
  void mutatingRequestsBeyondTheLimitAreRefusedWhileReadsAreServed() throws Exception {
    build(1, 1, 1);
    List<Future<ApiResponse>> held = hold(1, "POST", role("NAME"));
    assertTooManyRequests(call(OTHER, "POST", ROLES, role("refused")));
    assertTooManyRequests(call(OTHER, "DELETE", ROLES + "/fine", null));
    assertEquals(200, call(OTHER, "GET", ROLES, null).status());
    assertEquals(201, call(ROOT, "POST", ROLES, role("by-root")).status());
    release.countDown();
    assertEquals(201, held.get(0).get(30, TimeUnit.SECONDS).status());
    assertEquals(201, call(OTHER, "POST", ROLES, role("after")).status());
    assertEquals(404, call(OTHER, "GET", ROLES + "/refused", null).status());
  }

  @Test
  void aFloodIsAnswered429WhileTheSlotsAreTakenAndServedAfter() throws Exception {
    build(4, 4, 4);
    List<Future<ApiResponse>> held = hold(4, "GET", null);
    List<Future<ApiResponse>> flood = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      flood.add(pool.submit(() -> call(OTHER, "GET", ROLES, null)));
    }
    for (Future<ApiResponse> f : flood) {
      assertTooManyRequests(f.get(30, TimeUnit.SECONDS));
    }
    release.countDown();
    for (Future<ApiResponse> f : held) {
      assertEquals(200, f.get(30, TimeUnit.SECONDS).status());
    }
    List<Future<ApiResponse>> after = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      after.add(pool.submit(() -> call(OTHER, "GET", ROLES, null)));
    }
    for (Future<ApiResponse> f : after) {
      assertEquals(200, f.get(30, TimeUnit.SECONDS).status());
    }
  }

  /** One request over HTTP: its status, Retry-After and body. */
  private record Http(int status, String retryAfter, String body) {}

  private static Http http(String url, String method, String body) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
    connection.setRequestMethod(method);
    if (body != null) {
      connection.setDoOutput(true);
      connection.setRequestProperty("Content-Type", "application/json");
      try (OutputStream out = connection.getOutputStream()) {
        out.write(body.getBytes(StandardCharsets.UTF_8));
      }
    }
    int status = connection.getResponseCode();
    InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
    String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    String retryAfter = connection.getHeaderField("Retry-After");
    connection.disconnect();
    return new Http(status, retryAfter, text);
  }

  @Test
  void overHttpTheRefusalCarriesRetryAfterAndOthersAreServed() throws Exception {
    build(1, 1, 1);
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      String base = "http://127.0.0.1:" + binding.port();
      Future<Http> held =
          pool.submit(
              () ->
                  http(
                      base + "/apis/rbac.authorization.k8s.io/v1/namespaces/slow/roles",
                      "GET",
                      null));
      assertEquals(true, inside.await(30, TimeUnit.SECONDS), "the slow request got in");
      Http refused = http(base + ROLES, "GET", null);
      assertEquals(429, refused.status());
      assertEquals("1", refused.retryAfter());
      assertEquals("TooManyRequests", JSON.readTree(refused.body()).path("reason").asText());
      Http write = http(base + ROLES, "POST", role("over-http"));
      assertEquals(201, write.status(), write.body());
      release.countDown();
      assertEquals(200, held.get(30, TimeUnit.SECONDS).status());
      assertEquals(200, http(base + ROLES, "GET", null).status());
    }
  }

  @Test
  void negativeLimitsAreRefused() {
    Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
    assertEquals(
        "the limit of requests in flight must not be negative, got -1",
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> ApiServer.builder(scheme).maxRequestsInFlight(-1))
            .getMessage());
    assertEquals(
        "the limit of mutating requests in flight must not be negative, got -2",
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> ApiServer.builder(scheme).maxMutatingRequestsInFlight(-2))
            .getMessage());
  }
}
