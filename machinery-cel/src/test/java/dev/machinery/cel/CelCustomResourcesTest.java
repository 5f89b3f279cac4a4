package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server given {@link CelValidationRules} refuses a definition whose rule does not compile with
 * kube-apiserver's 422, and enforces the rules of an established definition on create, update and
 * patch of its objects; {@link ValidationRules#installed()} finds the implementation through
 * ServiceLoader.
 */
class CelCustomResourcesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Scheme SCHEME =
      ApiextensionsV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";

  private static String crd(String rules) {
    return """
        {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
         "metadata": {"name": "widgets.example.com"},
         "spec": {"group": "example.com", "scope": "Namespaced",
          "names": {"plural": "widgets", "kind": "Widget"},
          "versions": [{"name": "v1", "served": true, "storage": true,
           "schema": {"openAPIV3Schema": {"type": "object", "properties": {
            "spec": {"type": "object", "x-kubernetes-validations": %s, "properties": {
              "replicas": {"type": "integer"},
              "maxReplicas": {"type": "integer"},
              "unit": {"type": "string", "maxLength": 16},
              "mode": {"type": "string",
                "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "mode is immutable"}]}}}}}}}]}}
        """
        .formatted(rules);
  }

  private ApiServer server;

  @BeforeEach
  void start() {
    server =
        ApiServer.builder(SCHEME).customResourceDefinitions(CelValidationRules.create()).build();
  }

  @Test
  void findsTheImplementationThroughServiceLoader() {
    assertEquals(CelValidationRules.class, ValidationRules.installed().orElseThrow().getClass());
  }

  @Test
  void refusesADefinitionWhoseRuleDoesNotCompile() throws Exception {
    ApiResponse refused = request("POST", CRDS, crd("[{\"rule\": \"self.replicas < self.nope\"}]"));
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid:"
            + " spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule:"
            + " Invalid value: apiextensions.ValidationRule{Rule:\"self.replicas < self.nope\","
            + " Message:\"\", MessageExpression:\"\","
            + " Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
            + " OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:21: undefined"
            + " field 'nope'\n | self.replicas < self.nope\n | ....................^",
        json(refused).get("message").asText());
    JsonNode cause = json(refused).at("/details/causes/0");
    assertEquals("FieldValueInvalid", cause.get("reason").asText());
    assertEquals(
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
        cause.get("field").asText());
  }

  @Test
  void refusesADefinitionWhoseMessageExpressionCostsTooMuch() throws Exception {
    // string(int) has no size the estimate knows, so kube-apiserver refuses this too
    // (kubernetes/kubernetes#124234).
    ApiResponse refused =
        request(
            "POST",
            CRDS,
            crd(
                "[{\"rule\": \"self.replicas <= self.maxReplicas\", \"messageExpression\":"
                    + " \"'replicas ' + string(self.replicas)\"}]"));
    assertEquals(422, refused.status(), text(refused));
    String at =
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]"
            + ".messageExpression";
    String hint =
        " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where"
            + " arrays, maps, and strings are declared)";
    assertEquals(
        "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid: ["
            + at
            + ": Forbidden: estimated messageExpression cost exceeds budget by factor of more than"
            + " 100x"
            + hint
            + ", "
            + at
            + ": Forbidden: contributed to estimated rule cost total exceeding cost limit for"
            + " entire OpenAPIv3 schema, spec.validation.openAPIV3Schema: Forbidden:"
            + " x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema"
            + " exceeds budget by factor of more than 100x"
            + hint
            + "]",
        json(refused).get("message").asText());
  }

  @Test
  void enforcesTheRulesOfItsObjects() throws Exception {
    ApiResponse created =
        request(
            "POST",
            CRDS,
            crd(
                "[{\"rule\": \"self.replicas <= self.maxReplicas\", \"messageExpression\":"
                    + " \"'replicas above maxReplicas, in ' + self.unit\", \"fieldPath\":"
                    + " \".replicas\"}]"));
    assertEquals(201, created.status(), text(created));
    awaitServed();
    ApiResponse bad =
        request(
            "POST",
            WIDGETS,
            widget("bad", "{\"replicas\": 5, \"maxReplicas\": 3, \"unit\": \"pods\"}"));
    assertEquals(422, bad.status(), text(bad));
    assertEquals(
        "Widget.example.com \"bad\" is invalid: spec.replicas: Invalid value: \"object\": replicas"
            + " above maxReplicas, in pods",
        json(bad).get("message").asText());

    ApiResponse good =
        request(
            "POST",
            WIDGETS,
            widget("good", "{\"replicas\": 1, \"maxReplicas\": 3, \"mode\": \"a\"}"));
    assertEquals(201, good.status(), text(good));
    ApiResponse patched =
        request(
            "PATCH",
            WIDGETS + "/good",
            "{\"spec\": {\"mode\": \"b\"}}",
            "application/merge-patch+json");
    assertEquals(422, patched.status(), text(patched));
    assertEquals(
        "Widget.example.com \"good\" is invalid: spec.mode: Invalid value: \"string\": mode is"
            + " immutable",
        json(patched).get("message").asText());
    ApiResponse scaled =
        request(
            "PATCH",
            WIDGETS + "/good",
            "{\"spec\": {\"replicas\": 2}}",
            "application/merge-patch+json");
    assertEquals(200, scaled.status(), text(scaled));
  }

  private static String widget(String name, String spec) {
    return "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"metadata\": {\"name\": \""
        + name
        + "\"}, \"spec\": "
        + spec
        + "}";
  }

  private void awaitServed() throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (request("GET", WIDGETS, null).status() != 200 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }

  private ApiResponse request(String method, String path, String body) {
    return request(method, path, body, "application/json");
  }

  private ApiResponse request(String method, String path, String body, String contentType) {
    Map<String, List<String>> headers =
        body == null ? Map.of() : Map.of("Content-Type", List.of(contentType));
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            headers,
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
