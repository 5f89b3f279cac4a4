package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pod's {@code binding} subresource, with kube-apiserver's answers (pod storage_test's {@code
 * TestEtcdCreateBinding*}): the node set with {@code PodScheduled=True} and the Binding's
 * annotations, {@code 201 Success}; a second binding, a pod being deleted and a UID that differs
 * are conflicts; a name that differs from the URL's is a bad request; the target is validated.
 */
class PodBindingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PODS = "/api/v1/namespaces/default/pods";
  private ApiServer server;

  private static ApiRequest request(String method, String path, String body) {
    return new ApiRequest(
        method,
        path,
        Map.of(),
        Map.of("Content-Type", List.of("application/json")),
        new ByteArrayInputStream(
            body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8)));
  }

  private JsonNode call(int expected, String method, String path, String body) throws Exception {
    ApiResponse response = server.handle(request(method, path, body));
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(expected, response.status(), text);
    return JSON.readTree(text);
  }

  private static String binding(String name, String node, String extraMeta) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\""
        + name
        + "\""
        + extraMeta
        + "},\"target\":{\"kind\":\"Node\",\"name\":\""
        + node
        + "\"}}";
  }

  @BeforeEach
  void start() throws Exception {
    server = BuiltinKinds.apiServer().build();
    call(
        201,
        "POST",
        "/api/v1/namespaces",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"default\"}}");
    call(
        201,
        "POST",
        PODS,
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx\"}]}}");
  }

  @Test
  void bindingSetsTheNodeAndPodScheduled() throws Exception {
    JsonNode status =
        call(
            201,
            "POST",
            PODS + "/web/binding",
            binding("web", "node-1", ",\"annotations\":{\"example.com/why\":\"test\"}"));
    assertEquals("Status", status.path("kind").asText());
    assertEquals("Success", status.path("status").asText());
    JsonNode pod = call(200, "GET", PODS + "/web", null);
    assertEquals("node-1", pod.path("spec").path("nodeName").asText());
    assertEquals("test", pod.path("metadata").path("annotations").path("example.com/why").asText());
    JsonNode scheduled = pod.path("status").path("conditions").get(0);
    assertEquals("PodScheduled", scheduled.path("type").asText());
    assertEquals("True", scheduled.path("status").asText());
    assertFalse(scheduled.path("lastTransitionTime").asText("").isEmpty());

    JsonNode again = call(409, "POST", PODS + "/web/binding", binding("web", "node-2", ""));
    assertEquals(
        "Operation cannot be fulfilled on pods/binding \"web\": pod web is already assigned to"
            + " node \"node-1\"",
        again.path("message").asText());
    assertEquals("Conflict", again.path("reason").asText());
  }

  @Test
  void theBindingIsChecked() throws Exception {
    assertEquals(
        "name in URL does not match name in Binding object",
        call(400, "POST", PODS + "/web/binding", binding("other", "node-1", ""))
            .path("message")
            .asText());
    JsonNode invalid =
        call(
            422,
            "POST",
            PODS + "/web/binding",
            "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"web\"},"
                + "\"target\":{\"kind\":\"Pod\"}}");
    String message = invalid.path("message").asText();
    assertTrue(message.startsWith("Binding \"web\" is invalid: "), message);
    assertTrue(message.contains("target.kind: Unsupported value: \"Pod\""), message);
    assertTrue(message.contains("target.name: Required value"), message);
    JsonNode uid =
        call(409, "POST", PODS + "/web/binding", binding("web", "node-1", ",\"uid\":\"nope\""));
    assertTrue(
        uid.path("message").asText().contains("Precondition failed: UID in precondition: nope"),
        uid.toString());
    call(404, "POST", PODS + "/missing/binding", binding("missing", "node-1", ""));
    assertTrue(call(200, "GET", PODS + "/web", null).path("spec").path("nodeName").isMissingNode());
  }

  @Test
  void aPodBeingDeletedIsNotBound() throws Exception {
    call(
        201,
        "POST",
        PODS,
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"held\","
            + "\"finalizers\":[\"example.com/hold\"]},"
            + "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx\"}]}}");
    server.handle(request("DELETE", PODS + "/held", null));
    JsonNode refused = call(409, "POST", PODS + "/held/binding", binding("held", "node-1", ""));
    assertEquals(
        "Operation cannot be fulfilled on pods/binding \"held\": pod held is being deleted, cannot"
            + " be assigned to a host",
        refused.path("message").asText());
  }
}
