package dev.machinery.apiserver.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ApiServer#close()} ends the threads the server runs (the CustomResourceDefinition
 * controller and every watch cache, the custom resources' too) and the server still answers from
 * its storage afterwards.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ApiServerCloseTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void closeEndsTheControllerAndEveryWatchCache() throws Exception {
    Set<Thread> before = threads();
    ApiServer server =
        ApiServer.builder(CustomResourceDefinitionsTest.SCHEME).customResourceDefinitions().build();
    assertEquals(
        201,
        request(
                server,
                "POST",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                CustomResourceDefinitionsTest.CRONTAB_CRD,
                Map.of())
            .status());
    awaitEstablished(server, "crontabs.stable.example.com");
    String crontabs = "/apis/stable.example.com/v1/namespaces/default/crontabs";
    ApiResponse created =
        request(
            server,
            "POST",
            crontabs,
            "{\"apiVersion\":\"stable.example.com/v1\",\"kind\":\"CronTab\","
                + "\"metadata\":{\"name\":\"a\"},\"spec\":{\"cronSpec\":\"* * * * *\"}}",
            Map.of());
    assertEquals(201, created.status(), new String(created.body(), StandardCharsets.UTF_8));
    assertEquals(
        200,
        request(server, "GET", crontabs, null, Map.of("resourceVersion", List.of("0"))).status());

    List<String> running = names(newThreads(before));
    assertTrue(running.contains("customresourcedefinitions controller"), running.toString());
    assertTrue(
        running.contains("watch-cache apiextensions.k8s.io/customresourcedefinitions/"),
        running.toString());
    assertTrue(
        running.stream().anyMatch(n -> n.startsWith("watch-cache ") && n.contains("crontabs")),
        running.toString());

    server.close();
    server.close();

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Set<Thread> left = newThreads(before);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
      left = newThreads(before);
    }
    assertEquals(List.of(), names(left), "threads left after close");
    assertEquals(
        200, request(server, "GET", crontabs + "/a", null, Map.of()).status(), "from the storage");
  }

  private static void awaitEstablished(ApiServer server, String name) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      JsonNode crd =
          JSON.readTree(
              request(
                      server,
                      "GET",
                      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name,
                      null,
                      Map.of())
                  .body());
      for (JsonNode condition : crd.at("/status/conditions")) {
        if (condition.path("type").asText().equals("Established")
            && condition.path("status").asText().equals("True")) {
          return;
        }
      }
      Thread.sleep(5);
    }
    throw new AssertionError(name + " was not Established");
  }

  private static ApiResponse request(
      ApiServer server, String method, String path, String body, Map<String, List<String>> query) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            query,
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static Set<Thread> threads() {
    Set<Thread> all = Collections.newSetFromMap(new IdentityHashMap<>());
    all.addAll(Thread.getAllStackTraces().keySet());
    return all;
  }

  private static Set<Thread> newThreads(Set<Thread> before) {
    Set<Thread> now = threads();
    now.removeAll(before);
    now.removeIf(t -> !t.isAlive());
    return now;
  }

  private static List<String> names(Set<Thread> threads) {
    return threads.stream().map(Thread::getName).sorted().collect(Collectors.toList());
  }
}
