package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Events are kept for the server's event TTL after their last write, as kube-apiserver keeps them
 * for its {@code --event-ttl}: the storage then deletes them by itself, Events of the core group
 * and of {@code events.k8s.io} alike, while other objects stay.
 */
@Timeout(120)
class EventTtlTest {
  private static ApiResponse call(ApiServer server, String method, String path, String body) {
    return Requests.call(server, method, path, body);
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  private static void created(ApiServer server, String path, String body) {
    ApiResponse response = call(server, "POST", path, body);
    assertEquals(201, response.status(), () -> path + ": " + text(response));
  }

  @Test
  void eventsAreDeletedOnceTheirTimePassesAndOtherObjectsStay() throws Exception {
    ApiServer server = BuiltinKinds.apiServer().eventTtl(Duration.ofSeconds(2)).build();
    try {
      created(
          server,
          "/api/v1/namespaces",
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ttl\"}}");
      String core = "/api/v1/namespaces/ttl/events";
      created(
          server,
          core,
          "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"started\"},"
              + "\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"ttl\",\"name\":\"p\"},"
              + "\"reason\":\"Started\",\"message\":\"started\",\"type\":\"Normal\"}");
      String group = "/apis/events.k8s.io/v1/namespaces/ttl/events";
      created(
          server,
          group,
          "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"pulled\"},"
              + "\"eventTime\":\"2026-11-29T00:00:00.000000Z\",\"reportingController\":\"kubelet\","
              + "\"reportingInstance\":\"node-1\",\"action\":\"Pulling\",\"reason\":\"Pulled\","
              + "\"regarding\":{\"kind\":\"Pod\",\"namespace\":\"ttl\",\"name\":\"p\"},"
              + "\"type\":\"Normal\"}");
      String configMaps = "/api/v1/namespaces/ttl/configmaps";
      created(
          server,
          configMaps,
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"stays\"}}");
      assertEquals(200, call(server, "GET", core + "/started", null).status());

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while ((call(server, "GET", core + "/started", null).status() != 404
              || call(server, "GET", group + "/pulled", null).status() != 404)
          && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertEquals(404, call(server, "GET", core + "/started", null).status(), "core Event");
      assertEquals(404, call(server, "GET", group + "/pulled", null).status(), "events.k8s.io");
      assertEquals(200, call(server, "GET", configMaps + "/stays", null).status());
    } finally {
      server.close();
      server.storage().close();
    }
  }

  @Test
  void theEventTtlIsWholeSecondsOfAtLeastOne() {
    assertThrows(
        IllegalArgumentException.class,
        () -> BuiltinKinds.apiServer().eventTtl(Duration.ofMillis(1500)));
    assertThrows(
        IllegalArgumentException.class, () -> BuiltinKinds.apiServer().eventTtl(Duration.ZERO));
  }
}
