package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * NamespaceLifecycle on the sample server, first of its admission chain: no content is created in a
 * namespace being terminated or in one that does not exist, and default, kube-system and
 * kube-public are not deleted; a plugin the server adds runs after it.
 */
class SampleServerAdmissionTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final List<String> checked = new CopyOnWriteArrayList<>();
  private ApiServer server;

  @BeforeEach
  void start() {
    server =
        SampleServer.builder(
                Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100)
            .admission(
                new ValidatingAdmissionPlugin() {
                  @Override
                  public String name() {
                    return "Recorder";
                  }

                  @Override
                  public void validate(AdmissionAttributes a) {
                    checked.add(a.operation() + " " + a.resource() + " " + a.namespace());
                  }
                })
            .build();
    SampleServer.loadSamples(server);
    checked.clear();
  }

  private ApiResponse call(String method, String path, String body) {
    return server.handleAs(
        ApiServer.LOOPBACK_USER,
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static JsonNode json(ApiResponse response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String configMap(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"data\":{\"k\":\"v\"}}";
  }

  @Test
  void theImmortalNamespacesCannotBeDeleted() {
    call(
        "POST",
        "/api/v1/namespaces",
        "{\"kind\":\"Namespace\",\"apiVersion\":\"v1\","
            + "\"metadata\":{\"name\":\"kube-public\"}}");
    checked.clear();
    for (String name : List.of("default", "kube-system", "kube-public")) {
      ApiResponse response = call("DELETE", "/api/v1/namespaces/" + name, null);
      assertEquals(403, response.status(), name);
      assertEquals(
          "namespaces \"" + name + "\" is forbidden: this namespace may not be deleted",
          json(response).path("message").asText());
      assertEquals(200, call("GET", "/api/v1/namespaces/" + name, null).status());
    }
    assertEquals(List.of(), checked, "the plugins after NamespaceLifecycle never ran");
  }

  @Test
  void nothingIsCreatedInANamespaceBeingTerminated() {
    call(
        "POST",
        "/api/v1/namespaces",
        "{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"doomed\","
            + "\"finalizers\":[\"example.com/hold\"]}}");
    // Held by a finalizer of its own, it outlives the server's deletion of the namespace's content.
    assertEquals(
        201,
        call(
                "POST",
                "/api/v1/namespaces/doomed/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
                    + "\"finalizers\":[\"example.com/keep\"]},\"data\":{\"k\":\"v\"}}")
            .status());
    // Held by its finalizer: marked deleted and answered with the object (200), not gone.
    assertEquals(200, call("DELETE", "/api/v1/namespaces/doomed", null).status());
    checked.clear();
    ApiResponse refused = call("POST", "/api/v1/namespaces/doomed/configmaps", configMap("b"));
    JsonNode status = json(refused);
    assertEquals(403, refused.status());
    assertEquals(
        "configmaps \"b\" is forbidden: unable to create new content in namespace doomed because"
            + " it is being terminated",
        status.path("message").asText());
    JsonNode cause = status.path("details").path("causes").path(0);
    assertEquals("NamespaceTerminating", cause.path("reason").asText());
    assertEquals("namespace doomed is being terminated", cause.path("message").asText());
    assertEquals("metadata.namespace", cause.path("field").asText());
    assertEquals(List.of(), checked);
    // What is in it may still change (here the update also lets the ConfigMap go).
    assertEquals(
        200, call("PUT", "/api/v1/namespaces/doomed/configmaps/a", configMap("a")).status());
    assertEquals(List.of("UPDATE configmaps doomed"), checked);
  }

  @Test
  void createsInANamespaceThatDoesNotExistAreNotFound() {
    ApiResponse response = call("POST", "/api/v1/namespaces/nowhere/configmaps", configMap("c"));
    assertEquals(404, response.status());
    assertEquals("namespaces \"nowhere\" not found", json(response).path("message").asText());
    assertEquals(
        201, call("POST", "/api/v1/namespaces/default/configmaps", configMap("c")).status());
    assertEquals(List.of("CREATE configmaps default"), checked);
  }
}
