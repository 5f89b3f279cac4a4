package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Quantities of built-in kinds are written as kube-apiserver writes them: Go decodes each into a
 * {@code resource.Quantity} and encodes it in its canonical form, reading a JSON number as a
 * quantity too ({@code cpu: 0.5} in a manifest), and refuses an object holding text that is not a
 * quantity (its {@code Quantity} documentation: "1.5 will be serialized as "1500m"", "1.5Gi will be
 * serialized as "1536Mi""; quantity.go's grammar in the error).
 */
@Timeout(60)
class QuantityCanonicalFormTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PODS = "/api/v1/namespaces/quantities/pods";

  private static ApiServer server;

  @BeforeAll
  static void start() throws IOException {
    server = BuiltinKinds.apiServer().build();
    ok(
        call(
            "POST",
            "/api/v1/namespaces",
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"quantities\"}}"),
        201);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static ApiResponse call(String method, String path, String body) {
    return Requests.call(server, method, path, body);
  }

  private static JsonNode ok(ApiResponse response, int status) throws IOException {
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(status, response.status(), text);
    return JSON.readTree(text);
  }

  private static String pod(String name, String requests, String limits) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"resources\":{"
        + "\"requests\":"
        + requests
        + ",\"limits\":"
        + limits
        + "}}]}}";
  }

  @Test
  void aPodsQuantitiesAreWrittenCanonicalAndNumbersRead() throws IOException {
    JsonNode created =
        ok(
            call(
                "POST",
                PODS,
                pod(
                    "canonical",
                    "{\"cpu\":\"0.5\",\"memory\":\"1024Mi\",\"ephemeral-storage\":2}",
                    "{\"cpu\":1.5,\"memory\":\"1.5Gi\",\"ephemeral-storage\":\"+2\"}")),
            201);
    Map<String, String> requests = Map.of("cpu", "500m", "memory", "1Gi", "ephemeral-storage", "2");
    Map<String, String> limits =
        Map.of("cpu", "1500m", "memory", "1536Mi", "ephemeral-storage", "2");
    for (JsonNode pod : new JsonNode[] {created, ok(call("GET", PODS + "/canonical", null), 200)}) {
      JsonNode resources = pod.at("/spec/containers/0/resources");
      requests.forEach((k, v) -> assertEquals(v, resources.at("/requests/" + k).textValue(), k));
      limits.forEach((k, v) -> assertEquals(v, resources.at("/limits/" + k).textValue(), k));
    }
  }

  @Test
  void patchesAndStatusWritesAreWrittenCanonical() throws IOException {
    ok(call("POST", PODS, pod("patched", "{\"cpu\":\"100m\"}", "{}")), 201);
    JsonNode patched =
        ok(
            Requests.call(
                server,
                "PATCH",
                PODS + "/patched",
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"1.0\"}}}]}}",
                Map.of(),
                "application/strategic-merge-patch+json",
                "application/json"),
            200);
    assertEquals("1", patched.at("/spec/containers/0/resources/limits/cpu").textValue());
    assertEquals("100m", patched.at("/spec/containers/0/resources/requests/cpu").textValue());
    ok(
        call(
            "POST",
            "/api/v1/nodes",
            "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"quantities-node\"}}"),
        201);
    JsonNode status =
        ok(
            Requests.call(
                server,
                "PATCH",
                "/api/v1/nodes/quantities-node/status",
                "{\"status\":{\"capacity\":{\"cpu\":4,\"memory\":\"8192Mi\",\"pods\":\"110\"}}}",
                Map.of(),
                "application/merge-patch+json",
                "application/json"),
            200);
    assertEquals("4", status.at("/status/capacity/cpu").textValue());
    assertEquals("8Gi", status.at("/status/capacity/memory").textValue());
    assertEquals("110", status.at("/status/capacity/pods").textValue());
  }

  @Test
  void aQuotasHardLimitsAreWrittenCanonical() throws IOException {
    JsonNode quota =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/resourcequotas",
                "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"q\"},"
                    + "\"spec\":{\"hard\":{\"requests.cpu\":\"2000m\",\"pods\":10,"
                    + "\"requests.memory\":\"0.5Gi\"}}}"),
            201);
    assertEquals("2", quota.at("/spec/hard/requests.cpu").textValue());
    assertEquals("10", quota.at("/spec/hard/pods").textValue());
    assertEquals("512Mi", quota.at("/spec/hard/requests.memory").textValue());
  }

  @Test
  void textThatIsNotAQuantityIsRefusedNamingItsField() throws IOException {
    JsonNode refused = ok(call("POST", PODS, pod("refused", "{\"cpu\":\"abc\"}", "{}")), 400);
    assertEquals("BadRequest", refused.path("reason").asText());
    String message = refused.path("message").asText();
    assertTrue(
        message.startsWith(
            "Pod in version \"v1\" cannot be handled as a Pod: "
                + "spec.containers[0].resources.requests[cpu]: quantity \"abc\": quantities must"
                + " match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        message);
    ok(call("GET", PODS + "/refused", null), 404);
    JsonNode suffix = ok(call("POST", PODS, pod("refused", "{}", "{\"memory\":\"1Qi\"}")), 400);
    assertTrue(
        suffix.path("message").asText().contains("resources.limits[memory]: quantity \"1Qi\""),
        suffix.path("message").asText());
  }
}
