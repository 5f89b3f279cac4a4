package dev.machinery.apiserver.apiextensions;

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
import org.junit.jupiter.api.Test;

/**
 * A conversion registered in Java for a group of custom resources, in place of a conversion
 * webhook: a definition served in {@code v1} ({@code spec.size}) and {@code v2} ({@code
 * spec.replicas}, the storage version) keeps one object, read and written in either version; a
 * conversion that fails is a {@code 500} naming the versions.
 */
class CustomResourceConversionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BASE = "/apis/conv.example.com/";

  @SuppressWarnings("unchecked")
  private static ApiServer server() {
    return ApiServer.builder(CustomResourceDefinitionsTest.SCHEME)
        .customResourceDefinitions()
        .conversion(
            "conv.example.com",
            (object, to) -> {
              Map<String, Object> spec = (Map<String, Object>) object.get("spec");
              if (spec != null && spec.containsKey("fail")) {
                throw new IllegalArgumentException("spec.fail is set");
              }
              if (spec != null && to.version().equals("v2") && spec.containsKey("size")) {
                spec.put("replicas", spec.remove("size"));
              } else if (spec != null
                  && to.version().equals("v1")
                  && spec.containsKey("replicas")) {
                spec.put("size", spec.remove("replicas"));
              }
              object.put("apiVersion", to.toString());
            })
        .build();
  }

  @Test
  void oneObjectIsReadAndWrittenInEitherVersion() throws Exception {
    ApiServer server = server();
    ApiResponse crd =
        request(
            server,
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                + "\"metadata\":{\"name\":\"pools.conv.example.com\"},\"spec\":{\"group\":"
                + "\"conv.example.com\",\"scope\":\"Namespaced\",\"names\":{\"plural\":\"pools\","
                + "\"kind\":\"Pool\"},\"versions\":["
                + "{\"name\":\"v1\",\"served\":true,\"storage\":false,"
                + "\"additionalPrinterColumns\":[{\"name\":\"Size\",\"type\":\"integer\","
                + "\"jsonPath\":\".spec.size\"}],\"schema\":{\"openAPIV3Schema\":"
                + "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":"
                + "{\"size\":{\"type\":\"integer\"},\"fail\":{\"type\":\"boolean\"}}}}}}},"
                + "{\"name\":\"v2\",\"served\":true,\"storage\":true,"
                + "\"additionalPrinterColumns\":[{\"name\":\"Replicas\",\"type\":\"integer\","
                + "\"jsonPath\":\".spec.replicas\"}],\"schema\":{\"openAPIV3Schema\":"
                + "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":"
                + "{\"replicas\":{\"type\":\"integer\"}}}}}}}]}}");
    assertEquals(201, crd.status(), text(crd));
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline
        && request(server, "GET", BASE + "v1/namespaces/default/pools", null).status() != 200) {
      Thread.sleep(10);
    }
    assertEquals(
        200,
        request(server, "GET", BASE + "v1/namespaces/default/pools", null).status(),
        "the definition's resource is served within 60 s");
    ApiResponse created =
        request(
            server,
            "POST",
            BASE + "v1/namespaces/default/pools",
            "{\"apiVersion\":\"conv.example.com/v1\",\"kind\":\"Pool\","
                + "\"metadata\":{\"name\":\"p\"},\"spec\":{\"size\":3}}");
    assertEquals(201, created.status(), text(created));
    JsonNode asV1 = JSON.readTree(created.body());
    assertEquals("conv.example.com/v1", asV1.get("apiVersion").asText());
    assertEquals(3, asV1.at("/spec/size").asInt(), "answered in the version written");

    JsonNode asV2 =
        JSON.readTree(request(server, "GET", BASE + "v2/namespaces/default/pools/p", null).body());
    assertEquals("conv.example.com/v2", asV2.get("apiVersion").asText());
    assertEquals(3, asV2.at("/spec/replicas").asInt(), asV2.toString());
    assertFalse(asV2.get("spec").has("size"));

    ApiResponse patched =
        request(
            server,
            "PATCH",
            BASE + "v2/namespaces/default/pools/p",
            "{\"spec\":{\"replicas\":5}}",
            "application/merge-patch+json");
    assertEquals(200, patched.status(), text(patched));
    JsonNode listV1 =
        JSON.readTree(request(server, "GET", BASE + "v1/namespaces/default/pools", null).body());
    assertEquals(5, listV1.at("/items/0/spec/size").asInt(), listV1.toString());
    assertEquals("conv.example.com/v1", listV1.at("/items/0/apiVersion").asText());

    // Each version prints its own columns, of the object converted into it.
    JsonNode tableV1 =
        JSON.readTree(
            request(
                    server,
                    "GET",
                    BASE + "v1/namespaces/default/pools",
                    null,
                    null,
                    "application/json;as=Table;v=v1;g=meta.k8s.io")
                .body());
    assertEquals("Size", tableV1.at("/columnDefinitions/1/name").asText(), tableV1.toString());
    assertEquals(5, tableV1.at("/rows/0/cells/1").asInt());
    JsonNode tableV2 =
        JSON.readTree(
            request(
                    server,
                    "GET",
                    BASE + "v2/namespaces/default/pools",
                    null,
                    null,
                    "application/json;as=Table;v=v1;g=meta.k8s.io")
                .body());
    assertEquals("Replicas", tableV2.at("/columnDefinitions/1/name").asText(), tableV2.toString());
    assertEquals(5, tableV2.at("/rows/0/cells/1").asInt());

    ApiResponse failing =
        request(
            server,
            "POST",
            BASE + "v1/namespaces/default/pools",
            "{\"apiVersion\":\"conv.example.com/v1\",\"kind\":\"Pool\","
                + "\"metadata\":{\"name\":\"f\"},\"spec\":{\"fail\":true}}");
    assertEquals(500, failing.status(), text(failing));
    assertTrue(
        text(failing)
            .contains(
                "conversion of Pool from conv.example.com/v1 to conv.example.com/v2"
                    + " failed: spec.fail is set"),
        text(failing));
  }

  private static ApiResponse request(ApiServer server, String method, String path, String body) {
    return request(server, method, path, body, "application/json");
  }

  private static ApiResponse request(
      ApiServer server, String method, String path, String body, String contentType) {
    return request(server, method, path, body, contentType, null);
  }

  private static ApiResponse request(
      ApiServer server,
      String method,
      String path,
      String body,
      String contentType,
      String accept) {
    Map<String, List<String>> headers = new java.util.HashMap<>();
    if (body != null) {
      headers.put("Content-Type", List.of(contentType));
    }
    if (accept != null) {
      headers.put("Accept", List.of(accept));
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            headers,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
