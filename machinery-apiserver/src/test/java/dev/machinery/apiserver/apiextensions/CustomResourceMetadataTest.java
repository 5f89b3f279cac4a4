package dev.machinery.apiserver.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A custom resource's {@code metadata} keeps only {@code ObjectMeta}'s fields, as kube-apiserver's
 * metadata coercion leaves it: another field is an unknown field under {@code Strict} and dropped
 * otherwise.
 */
class CustomResourceMetadataTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void unknownMetadataFieldsArePruned() throws Exception {
    ApiServer server =
        ApiServer.builder(CustomResourceDefinitionsTest.SCHEME).customResourceDefinitions().build();
    ApiResponse crd =
        request(
            server,
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            Map.of(),
            "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                + "\"metadata\":{\"name\":\"gadgets.example.com\"},\"spec\":{\"group\":\"example.com\","
                + "\"scope\":\"Namespaced\",\"names\":{\"plural\":\"gadgets\",\"kind\":\"Gadget\"},"
                + "\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":"
                + "{\"openAPIV3Schema\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}}}]}}");
    assertEquals(201, crd.status());
    String path = "/apis/example.com/v1/namespaces/default/gadgets";
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline
        && request(server, "GET", path, Map.of(), null).status() != 200) {
      Thread.sleep(10);
    }
    assertEquals(
        200,
        request(server, "GET", path, Map.of(), null).status(),
        "the definition's resource is served within 60 s");
    String body =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Gadget\","
            + "\"metadata\":{\"name\":\"g\",\"colour\":\"red\"},\"spec\":{\"anything\":1}}";
    ApiResponse strict =
        request(server, "POST", path, Map.of("fieldValidation", List.of("Strict")), body);
    assertEquals(400, strict.status(), text(strict));
    assertTrue(text(strict).contains("unknown field \\\"metadata.colour\\\""), text(strict));
    ApiResponse created = request(server, "POST", path, Map.of(), body);
    assertEquals(201, created.status(), text(created));
    assertFalse(JSON.readTree(created.body()).get("metadata").has("colour"), text(created));
    assertEquals(1, JSON.readTree(created.body()).at("/spec/anything").asInt(), "spec is kept");
  }

  private static ApiResponse request(
      ApiServer server, String method, String path, Map<String, List<String>> query, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            query,
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
