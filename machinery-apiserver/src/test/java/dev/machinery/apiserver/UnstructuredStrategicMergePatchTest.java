package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.core.patch.OpenApiPatchSchemas;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kinds served as {@code Unstructured} objects take strategic merge patches when their resource
 * declares the patch strategies (from OpenAPI), and only then: a kind without them answers 415 as
 * kube-apiserver answers for custom resources, and the OpenAPI document lists the patch type for
 * the one and not the other.
 */
class UnstructuredStrategicMergePatchTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final GroupVersion V1 = GroupVersion.of("example.dev", "v1");
  private static final String SMP = "application/strategic-merge-patch+json";

  /** The patch metadata of Widgets, as an OpenAPI v2 document describes them. */
  private static final String OPENAPI =
      """
      {"swagger": "2.0", "definitions": {
        "dev.example.v1.Widget": {"type": "object",
          "x-kubernetes-group-version-kind": [
            {"group": "example.dev", "version": "v1", "kind": "Widget"}],
          "properties": {
            "apiVersion": {"type": "string"}, "kind": {"type": "string"},
            "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
              "properties": {"name": {"type": "string"}}},
            "spec": {"$ref": "#/definitions/dev.example.v1.WidgetSpec"}}},
        "dev.example.v1.WidgetSpec": {"type": "object", "properties": {
          "replicas": {"type": "integer"},
          "containers": {"type": "array", "items": {"$ref": "#/definitions/dev.example.v1.Part"},
            "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"}}},
        "dev.example.v1.Part": {"type": "object", "properties": {
          "name": {"type": "string"}, "image": {"type": "string"}}}}}
      """;

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    Scheme.Builder scheme = MetaV1.addToScheme(Scheme.builder());
    scheme.addKnownType(V1.withKind("Widget"), Unstructured.class);
    scheme.addKnownType(V1.withKind("Gadget"), Unstructured.class);
    ResourceList.addToScheme(scheme, "Widget", V1);
    ResourceList.addToScheme(scheme, "Gadget", V1);
    OpenApiPatchSchemas schemas = OpenApiPatchSchemas.of(JSON.readTree(OPENAPI));
    server =
        ApiServer.builder(scheme.build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of("example.dev", "Widget"), true)
                    .strategicMergePatchSchemas(
                        version ->
                            schemas
                                .forKind(GroupVersionKind.fromApiVersionAndKind(version, "Widget"))
                                .orElse(null))
                    .build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of("example.dev", "Gadget"), true).build())
            .build();
  }

  @Test
  void mergesContainersByNameAndDeletesByDirective() throws Exception {
    ApiResponse created =
        request(
            "POST",
            "/apis/example.dev/v1/namespaces/default/widgets",
            "application/json",
            """
            {"apiVersion": "example.dev/v1", "kind": "Widget", "metadata": {"name": "w"},
             "spec": {"replicas": 1, "containers": [
               {"name": "app", "image": "app:1"}, {"name": "sidecar", "image": "proxy:1"}]}}
            """);
    assertEquals(201, created.status(), text(created));

    ApiResponse patched =
        request(
            "PATCH",
            "/apis/example.dev/v1/namespaces/default/widgets/w",
            SMP,
            "{\"spec\": {\"containers\": [{\"name\": \"app\", \"image\": \"app:2\"}]}}");
    assertEquals(200, patched.status(), text(patched));
    assertEquals(
        JSON.readTree(
            "[{\"name\": \"app\", \"image\": \"app:2\"}, {\"name\": \"sidecar\", \"image\":"
                + " \"proxy:1\"}]"),
        json(patched).at("/spec/containers"));
    assertEquals(1, json(patched).at("/spec/replicas").asInt());

    ApiResponse deleted =
        request(
            "PATCH",
            "/apis/example.dev/v1/namespaces/default/widgets/w",
            SMP,
            "{\"spec\": {\"containers\": [{\"name\": \"sidecar\", \"$patch\": \"delete\"}]}}");
    assertEquals(200, deleted.status(), text(deleted));
    assertEquals(
        JSON.readTree("[{\"name\": \"app\", \"image\": \"app:2\"}]"),
        json(deleted).at("/spec/containers"));

    ApiResponse malformed =
        request(
            "PATCH",
            "/apis/example.dev/v1/namespaces/default/widgets/w",
            SMP,
            "{\"spec\": {\"containers\": [{\"image\": \"x:1\"}]}}");
    assertEquals(400, malformed.status(), text(malformed));
    assertTrue(
        text(malformed)
            .contains(
                "spec.containers: map: {\\\"image\\\":\\\"x:1\\\"} does not contain declared"
                    + " merge key: name"),
        text(malformed));
  }

  @Test
  void aKindWithoutPatchStrategiesRefusesAStrategicMergePatch() throws Exception {
    ApiResponse created =
        request(
            "POST",
            "/apis/example.dev/v1/namespaces/default/gadgets",
            "application/json",
            """
            {"apiVersion": "example.dev/v1", "kind": "Gadget", "metadata": {"name": "g"},
             "spec": {"containers": [{"name": "app"}]}}
            """);
    assertEquals(201, created.status(), text(created));
    ApiResponse refused =
        request(
            "PATCH",
            "/apis/example.dev/v1/namespaces/default/gadgets/g",
            SMP,
            "{\"spec\": {\"containers\": [{\"name\": \"other\"}]}}");
    assertEquals(415, refused.status(), text(refused));
    assertEquals(
        "the body of the request was in an unknown format - accepted media types include:"
            + " application/json-patch+json, application/merge-patch+json",
        json(refused).get("message").asText());
    ApiResponse merged =
        request(
            "PATCH",
            "/apis/example.dev/v1/namespaces/default/gadgets/g",
            "application/merge-patch+json",
            "{\"spec\": {\"containers\": [{\"name\": \"other\"}]}}");
    assertEquals(200, merged.status(), text(merged));
    assertEquals(JSON.readTree("[{\"name\": \"other\"}]"), json(merged).at("/spec/containers"));
  }

  @Test
  void openApiListsTheStrategicMergePatchOnlyForKindsThatTakeIt() throws Exception {
    JsonNode document = json(request("GET", "/openapi/v3/apis/example.dev/v1", null, null));
    JsonNode widget =
        document.at(
            "/paths/~1apis~1example.dev~1v1~1namespaces~1{namespace}~1widgets~1{name}/patch"
                + "/requestBody/content");
    JsonNode gadget =
        document.at(
            "/paths/~1apis~1example.dev~1v1~1namespaces~1{namespace}~1gadgets~1{name}/patch"
                + "/requestBody/content");
    assertFalse(widget.isMissingNode(), document.toString());
    assertTrue(widget.has(SMP), widget.toString());
    assertTrue(widget.has("application/merge-patch+json"), widget.toString());
    assertFalse(gadget.isMissingNode(), document.toString());
    assertFalse(gadget.has(SMP), gadget.toString());
  }

  /**
   * A malformed strategic merge patch is answered as kube-apiserver's patch handler answers it: 400
   * BadRequest with the message of Go's JSON decoder reading the body into a map.
   */
  @Test
  void aMalformedStrategicMergePatchIsAnsweredWithGosJsonError() throws Exception {
    ApiResponse created =
        request(
            "POST",
            "/apis/example.dev/v1/namespaces/default/widgets",
            "application/json",
            "{\"apiVersion\": \"example.dev/v1\", \"kind\": \"Widget\", \"metadata\": {\"name\": \"m\"},"
                + " \"spec\": {\"replicas\": 1}}");
    assertEquals(201, created.status(), text(created));
    Map<String, String> answers = new java.util.LinkedHashMap<>();
    answers.put("{\"spec\":", "unexpected end of JSON input");
    answers.put("", "unexpected end of JSON input");
    answers.put("{bad}", "invalid character 'b' looking for beginning of object key string");
    answers.put("{\"spec\" 1}", "invalid character '1' after object key");
    answers.put("{\"a\":1 \"b\":2}", "invalid character '\"' after object key:value pair");
    answers.put("{\"a\":[1 2]}", "invalid character '2' after array element");
    answers.put("{\"a\":tru}", "invalid character '}' in literal true (expecting 'e')");
    answers.put("{\"a\":nul}", "invalid character '}' in literal null (expecting 'l')");
    answers.put("{\"a\":fals}", "invalid character '}' in literal false (expecting 'e')");
    answers.put("{\"a\":-}", "invalid character '}' in numeric literal");
    answers.put("{\"a\":1.}", "invalid character '}' after decimal point in numeric literal");
    answers.put("{\"a\":1e}", "invalid character '}' in exponent of numeric literal");
    answers.put("{\"a\":01}", "invalid character '1' after object key:value pair");
    answers.put("{\"a\":\"\\x\"}", "invalid character 'x' in string escape code");
    answers.put("{\"a\":\"\\u12G4\"}", "invalid character 'G' in \\u hexadecimal character escape");
    answers.put("{\"a\":\"\t\"}", "invalid character '\\t' in string literal");
    answers.put("{\"a\":1}x", "invalid character 'x' after top-level value");
    answers.put("'a'", "invalid character '\\'' looking for beginning of value");
    answers.put(
        "[1]", "json: cannot unmarshal array into Go value of type map[string]interface {}");
    answers.put(
        "\"x\"", "json: cannot unmarshal string into Go value of type map[string]interface {}");
    answers.put("7", "json: cannot unmarshal number into Go value of type map[string]interface {}");
    answers.put(
        "true", "json: cannot unmarshal bool into Go value of type map[string]interface {}");
    for (Map.Entry<String, String> answer : answers.entrySet()) {
      ApiResponse refused =
          request(
              "PATCH", "/apis/example.dev/v1/namespaces/default/widgets/m", SMP, answer.getKey());
      assertEquals(400, refused.status(), answer.getKey() + ": " + text(refused));
      JsonNode status = json(refused);
      assertEquals("BadRequest", status.get("reason").asText(), answer.getKey());
      assertEquals(answer.getValue(), status.get("message").asText(), answer.getKey());
    }
    ApiResponse unchanged =
        request("PATCH", "/apis/example.dev/v1/namespaces/default/widgets/m", SMP, "null");
    assertEquals(200, unchanged.status(), "Go reads null into no map: " + text(unchanged));
    assertEquals(1, json(unchanged).at("/spec/replicas").asInt());
  }

  private ApiResponse request(String method, String path, String contentType, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            contentType == null ? Map.of() : Map.of("Content-Type", List.of(contentType)),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static JsonNode json(ApiResponse response) throws Exception {
    return JSON.readTree(response.body());
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
