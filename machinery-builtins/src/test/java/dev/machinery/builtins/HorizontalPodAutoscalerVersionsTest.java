package dev.machinery.builtins;

import static dev.machinery.builtins.Requests.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HorizontalPodAutoscalers served in {@code autoscaling/v2} (preferred, and stored) and {@code
 * autoscaling/v1}, as kube-apiserver serves them: a {@code v1} client that reads an object written
 * in {@code v2} and writes it back loses none of what {@code v1} cannot say.
 */
@Timeout(60)
class HorizontalPodAutoscalerVersionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String V1 = "/apis/autoscaling/v1/namespaces/hpa/horizontalpodautoscalers";
  private static final String V2 = "/apis/autoscaling/v2/namespaces/hpa/horizontalpodautoscalers";

  private static ApiServer server;

  @BeforeAll
  static void start() throws IOException {
    server = Requests.serverWithNamespace("hpa");
  }

  @AfterAll
  static void stop() {
    server.storage().close();
  }

  private static ApiResponse call(String method, String path, String body) {
    return Requests.call(server, method, path, body);
  }

  @Test
  void autoscalingPrefersV2AndServesV1() throws IOException {
    JsonNode group = ok(call("GET", "/apis/autoscaling", null), 200);
    assertEquals("autoscaling/v2", group.at("/preferredVersion/groupVersion").asText());
    assertEquals("autoscaling/v2", group.at("/versions/0/groupVersion").asText());
    assertEquals("autoscaling/v1", group.at("/versions/1/groupVersion").asText());
    JsonNode v1 = ok(call("GET", "/apis/autoscaling/v1", null), 200);
    assertEquals("horizontalpodautoscalers", v1.at("/resources/0/name").asText());
    // Both versions are stored as autoscaling/v2.
    assertEquals(
        ok(call("GET", "/apis/autoscaling/v2", null), 200).at("/resources/0/storageVersionHash"),
        v1.at("/resources/0/storageVersionHash"));
  }

  @Test
  void aV1ClientsReadAndWriteBackKeepsWhatV1CannotSay() throws IOException {
    String created =
        "{\"apiVersion\":\"autoscaling/v2\",\"kind\":\"HorizontalPodAutoscaler\","
            + "\"metadata\":{\"name\":\"web\"},\"spec\":{\"scaleTargetRef\":{\"kind\":\"Deployment\","
            + "\"name\":\"web\",\"apiVersion\":\"apps/v1\"},\"minReplicas\":2,\"maxReplicas\":10,"
            + "\"metrics\":[{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"target\":"
            + "{\"type\":\"AverageValue\",\"averageValue\":\"500Mi\"}}},{\"type\":\"Resource\","
            + "\"resource\":{\"name\":\"cpu\",\"target\":{\"type\":\"Utilization\","
            + "\"averageUtilization\":75}}}],\"behavior\":{\"scaleDown\":"
            + "{\"stabilizationWindowSeconds\":600,\"policies\":[{\"type\":\"Pods\",\"value\":1,"
            + "\"periodSeconds\":120}]}}}}";
    JsonNode v2 = ok(call("POST", V2, created), 201);

    JsonNode v1 = ok(call("GET", V1 + "/web", null), 200);
    assertEquals("autoscaling/v1", v1.get("apiVersion").asText());
    assertEquals(75, v1.at("/spec/targetCPUUtilizationPercentage").asInt());
    assertTrue(v1.at("/spec/metrics").isMissingNode());
    JsonNode annotations = v1.at("/metadata/annotations");
    assertTrue(
        annotations.path("autoscaling.alpha.kubernetes.io/metrics").asText().contains("500Mi"),
        annotations.toString());
    assertTrue(
        annotations.path("autoscaling.alpha.kubernetes.io/behavior").asText().contains("600"),
        annotations.toString());
    assertEquals(0, v1.at("/status/currentReplicas").asInt());

    ((ObjectNode) v1.get("spec")).put("maxReplicas", 12);
    ok(call("PUT", V1 + "/web", JSON.writeValueAsString(v1)), 200);

    JsonNode after = ok(call("GET", V2 + "/web", null), 200);
    assertEquals(12, after.at("/spec/maxReplicas").asInt());
    assertEquals(v2.at("/spec/metrics"), after.at("/spec/metrics"));
    assertEquals(
        600,
        after.at("/spec/behavior/scaleDown/stabilizationWindowSeconds").asInt(),
        after.toString());
    assertEquals(
        v2.at("/spec/behavior/scaleDown/policies"), after.at("/spec/behavior/scaleDown/policies"));
    assertFalse(after.at("/metadata").has("annotations"), after.toString());
  }

  @Test
  void aV1ObjectWithoutTargetIsStoredWithKubesDefaultCpuTarget() throws IOException {
    ok(
        call(
            "POST",
            V1,
            "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"HorizontalPodAutoscaler\","
                + "\"metadata\":{\"name\":\"plain\"},\"spec\":{\"scaleTargetRef\":{\"kind\":"
                + "\"Deployment\",\"name\":\"web\"},\"maxReplicas\":4}}"),
        201);
    JsonNode v2 = ok(call("GET", V2 + "/plain", null), 200);
    assertEquals(1, v2.at("/spec/minReplicas").asInt());
    assertEquals("cpu", v2.at("/spec/metrics/0/resource/name").asText());
    assertEquals(80, v2.at("/spec/metrics/0/resource/target/averageUtilization").asInt());
    assertEquals(
        80,
        ok(call("GET", V1 + "/plain", null), 200)
            .at("/spec/targetCPUUtilizationPercentage")
            .asInt());
  }

  @Test
  void bothVersionsPrintKubesColumns() throws IOException {
    ok(
        call(
            "POST",
            V2,
            "{\"apiVersion\":\"autoscaling/v2\",\"kind\":\"HorizontalPodAutoscaler\","
                + "\"metadata\":{\"name\":\"printed\"},\"spec\":{\"scaleTargetRef\":{\"kind\":"
                + "\"Deployment\",\"name\":\"web\"},\"maxReplicas\":5,\"metrics\":["
                + "{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"target\":"
                + "{\"type\":\"Utilization\",\"averageUtilization\":70}}},"
                + "{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"target\":"
                + "{\"type\":\"AverageValue\",\"averageValue\":\"0.5Gi\"}}},"
                + "{\"type\":\"Pods\",\"pods\":{\"metric\":{\"name\":\"rps\"},\"target\":"
                + "{\"type\":\"AverageValue\",\"averageValue\":\"10\"}}}]}}"),
        201);
    String table = "application/json;as=Table;v=v1;g=meta.k8s.io";
    for (String path : List.of(V2, V1)) {
      JsonNode answer =
          ok(
              Requests.call(
                  server, "GET", path + "/printed", null, Map.of(), "application/json", table),
              200);
      List<String> columns = new java.util.ArrayList<>();
      answer.get("columnDefinitions").forEach(c -> columns.add(c.get("name").asText()));
      assertEquals(
          List.of("Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"),
          columns,
          path);
      JsonNode cells = answer.at("/rows/0/cells");
      assertEquals("Deployment/web", cells.get(1).asText(), path);
      // kube's printer: the first two metrics, then how many more, each quantity in its canonical
      // form (0.5Gi is stored 512Mi). kube prints the stored object; here a v1 answer is printed
      // from the v1 object, whose CPU target comes back last.
      assertEquals(
          path.equals(V2)
              ? "cpu: <unknown>/70%, memory: <unknown>/512Mi + 1 more..."
              : "memory: <unknown>/512Mi, <unknown>/10 + 1 more...",
          cells.get(2).asText(),
          path);
      assertEquals("1", cells.get(3).asText(), path);
      assertEquals(5, cells.get(4).asInt(), path);
      assertEquals(0, cells.get(5).asInt(), path);
    }
  }

  @Test
  void aMalformedRoundTripAnnotationIsRefusedNamingIt() throws IOException {
    ApiResponse refused =
        call(
            "POST",
            V1,
            "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"HorizontalPodAutoscaler\","
                + "\"metadata\":{\"name\":\"bad\",\"annotations\":"
                + "{\"autoscaling.alpha.kubernetes.io/metrics\":\"[{\"}},"
                + "\"spec\":{\"scaleTargetRef\":{\"kind\":\"Deployment\",\"name\":\"web\"},"
                + "\"maxReplicas\":4}}");
    String text = new String(refused.body(), StandardCharsets.UTF_8);
    assertEquals(400, refused.status(), text);
    assertTrue(text.contains("autoscaling.alpha.kubernetes.io/metrics"), text);
    assertEquals(404, call("GET", V1 + "/bad", null).status());
  }
}
