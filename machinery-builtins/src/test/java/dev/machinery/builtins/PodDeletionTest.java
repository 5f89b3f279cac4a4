package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Pod's graceful deletion through the server, as kube's pod strategy's {@code
 * CheckGracefulDelete} ({@code pkg/registry/core/pod/strategy_test.go}, {@code
 * TestCheckGracefulDelete}) and the generic registry's {@code BeforeDelete} decide it: the period
 * asked for, else the pod's {@code terminationGracePeriodSeconds} (30 by default); 0 for a pod
 * bound to no node or one that has ended; the kubelet's final delete with period 0.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PodDeletionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static ApiServer server;

  @BeforeAll
  static void start() {
    server = BuiltinKinds.apiServer().build();
    assertEquals(
        201,
        request("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"default\"}}").status());
  }

  /**
   * The pod's node and phase, its own grace period (empty: the default), the delete's query, and
   * the period it is kept with (-1: removed at once).
   */
  @ParameterizedTest(name = "[{index}] node={0} phase={1} spec={2} {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          something | Pending   | ''  | gracePeriodSeconds=30 | 30
          something | Failed    | ''  | gracePeriodSeconds=30 | -1
          ''        | Pending   | ''  | gracePeriodSeconds=30 | -1
          ''        | Succeeded | ''  | gracePeriodSeconds=30 | -1
          ''        | Pending   | ''  | ''                    | -1
          something | Succeeded | ''  | ''                    | -1
          something | Running   | ''  | ''                    | 30
          something | Running   | 5   | ''                    | 5
          something | Running   | 5   | gracePeriodSeconds=12 | 12
          something | Running   | ''  | gracePeriodSeconds=-7 | 1
          something | Running   | ''  | gracePeriodSeconds=0  | -1
          something | Running   | 0   | ''                    | -1
          """)
  void checkGracefulDelete(String node, String phase, String spec, String query, long kept)
      throws IOException {
    String name = "p" + NAMES.incrementAndGet();
    String path = createPod(name, node, spec);
    if (!phase.equals("Pending")) {
      ApiResponse status =
          request(
              "PATCH",
              path + "/status",
              "{\"status\":{\"phase\":\"" + phase + "\"}}",
              "application/merge-patch+json");
      assertEquals(200, status.status(), text(status));
    }
    ApiResponse deleted = request("DELETE", path + (query.isEmpty() ? "" : "?" + query), null);
    assertEquals(200, deleted.status(), text(deleted));
    JsonNode answered = JSON.readTree(deleted.body());
    assertEquals("Pod", answered.path("kind").asText(), "a Pod's delete answers the pod");
    ApiResponse read = request("GET", path, null);
    if (kept < 0) {
      assertEquals(404, read.status(), text(read));
      assertEquals(0, answered.at("/metadata/deletionGracePeriodSeconds").asLong(-1));
      return;
    }
    JsonNode pod = JSON.readTree(read.body());
    assertEquals(kept, pod.at("/metadata/deletionGracePeriodSeconds").asLong());
    assertFalse(pod.at("/metadata/deletionTimestamp").isMissingNode());
  }

  /** What a kubelet does: the pod Terminating with its period, then gone on the delete with 0. */
  @Test
  void theKubeletsFinalDeleteRemovesATerminatingPod() throws IOException {
    String path = createPod("terminating", "node-1", "");
    JsonNode marked = JSON.readTree(request("DELETE", path, null).body());
    assertEquals(30, marked.at("/metadata/deletionGracePeriodSeconds").asLong());
    // A longer period changes nothing; the pod is still there.
    JsonNode again = JSON.readTree(request("DELETE", path + "?gracePeriodSeconds=60", null).body());
    assertEquals(marked.at("/metadata"), again.at("/metadata"));
    assertEquals(200, request("GET", path, null).status());
    assertEquals(200, request("DELETE", path + "?gracePeriodSeconds=0", null).status());
    assertEquals(404, request("GET", path, null).status());
  }

  private static String createPod(String name, String node, String grace) {
    String spec =
        "{\"containers\":[{\"name\":\"c\",\"image\":\"busybox:1.36\"}]"
            + (node.isEmpty() ? "" : ",\"nodeName\":\"" + node + "\"")
            + (grace.isEmpty() ? "" : ",\"terminationGracePeriodSeconds\":" + grace)
            + "}";
    ApiResponse created =
        request("POST", PODS, "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":" + spec + "}");
    assertEquals(201, created.status(), text(created));
    return PODS + "/" + name;
  }

  private static ApiResponse request(String method, String path, String body) {
    return request(method, path, body, "application/json");
  }

  private static ApiResponse request(String method, String path, String body, String type) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    if (body != null) {
      headers.put("Content-Type", List.of(type));
    }
    Map<String, List<String>> query = new LinkedHashMap<>();
    int q = path.indexOf('?');
    if (q >= 0) {
      for (String pair : path.substring(q + 1).split("&")) {
        int eq = pair.indexOf('=');
        query.put(pair.substring(0, eq), List.of(pair.substring(eq + 1)));
      }
      path = path.substring(0, q);
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            query,
            headers,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
