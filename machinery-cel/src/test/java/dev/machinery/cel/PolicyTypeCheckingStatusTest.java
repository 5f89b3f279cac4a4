package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.builtins.BuiltinKinds;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code status.typeChecking} and {@code status.observedGeneration} of ValidatingAdmissionPolicies,
 * written by the server for each generation as kube-apiserver's status controller writes them
 * (test/integration/apiserver/cel/typeChecking_test.go): against the built-in kinds' schemas from
 * the server's OpenAPI, custom resources' from their definitions, and the paramKind's; a policy
 * with a type error is still stored and evaluated as before.
 */
class PolicyTypeCheckingStatusTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String POLICIES =
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";

  private ApiServer server;

  @BeforeEach
  void start() {
    server = BuiltinKinds.apiServer().build();
    request(
        "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"default\"}}", "application/json");
  }

  @AfterEach
  void stop() {
    server.close();
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

  private void policy(String name, String spec) {
    ApiResponse created =
        request(
            "POST",
            POLICIES,
            "{\"apiVersion\":\"admissionregistration.k8s.io/v1\","
                + "\"kind\":\"ValidatingAdmissionPolicy\",\"metadata\":{\"name\":\""
                + name
                + "\"},\"spec\":"
                + spec
                + "}",
            "application/json");
    assertEquals(201, created.status(), new String(created.body(), StandardCharsets.UTF_8));
  }

  private static String rules(String group, String version, String resource) {
    return "\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\""
        + group
        + "\"],\"apiVersions\":[\""
        + version
        + "\"],\"operations\":[\"CREATE\",\"UPDATE\"],\"resources\":[\""
        + resource
        + "\"]}]}";
  }

  private static String validation(String expression) {
    return "\"validations\":[{\"expression\":\"" + expression + "\"}]";
  }

  /** Polls the status subresource until the status has observed a generation. */
  private JsonNode observed(String name, long generation) throws Exception {
    long deadline = System.nanoTime() + 20_000_000_000L;
    JsonNode policy = null;
    while (System.nanoTime() < deadline) {
      ApiResponse response = request("GET", POLICIES + "/" + name + "/status", null, null);
      assertEquals(200, response.status(), new String(response.body(), StandardCharsets.UTF_8));
      policy = JSON.readTree(response.body());
      if (policy.path("status").path("observedGeneration").asLong() >= generation) {
        return policy;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("generation " + generation + " never observed: " + policy);
  }

  private static JsonNode warnings(JsonNode policy) {
    assertTrue(policy.path("status").has("typeChecking"), policy.toString());
    return policy.path("status").path("typeChecking").path("expressionWarnings");
  }

  @Test
  void aBuiltInKindsFieldsAreCheckedAgainstItsSchema() throws Exception {
    String deployments = rules("apps", "v1", "deployments");
    policy("fine", "{" + deployments + "," + validation("object.spec.replicas > 1") + "}");
    policy("typo", "{" + deployments + "," + validation("object.spec.replicaz > 1") + "}");

    JsonNode fine = observed("fine", 1);
    assertEquals(1, fine.path("status").path("observedGeneration").asLong());
    assertTrue(warnings(fine).isMissingNode() || warnings(fine).isEmpty(), fine.toString());

    JsonNode typo = warnings(observed("typo", 1));
    assertEquals(1, typo.size(), typo.toString());
    assertEquals("spec.validations[0].expression", typo.get(0).get("fieldRef").asText());
    assertEquals(
        "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicaz'\n"
            + " | object.spec.replicaz > 1\n"
            + " | ...........^\n",
        typo.get(0).get("warning").asText());
  }

  /** The rows of kube-controller-manager's validatingadmissionpolicystatus controller_test.go. */
  @Test
  void typeConfusionAndMissingFieldsOfADeployment() throws Exception {
    policy(
        "confused-deployment",
        "{"
            + rules("apps", "v1", "deployments")
            + ",\"validations\":["
            + "{\"expression\":\"object.spec.replicas < 100\"},"
            + "{\"expression\":\"object.spec.replicas > '1'\"},"
            + "{\"expression\":\"object.spec.nonExistingFirst > 1\"},"
            + "{\"expression\":\"object.spec.replicas > '1' && object.spec.nonExisting == 1\"}]}");
    JsonNode warnings = warnings(observed("confused-deployment", 1));
    assertEquals(3, warnings.size(), warnings.toString());
    List<String> fieldRefs = new java.util.ArrayList<>();
    warnings.forEach(w -> fieldRefs.add(w.get("fieldRef").asText()));
    assertEquals(
        List.of(
            "spec.validations[1].expression",
            "spec.validations[2].expression",
            "spec.validations[3].expression"),
        fieldRefs);
    String overload = "found no matching overload for '_>_' applied to '(int, string)'";
    assertTrue(warnings.get(0).get("warning").asText().contains(overload), warnings.toString());
    assertTrue(
        warnings.get(1).get("warning").asText().contains("undefined field 'nonExistingFirst'"),
        warnings.toString());
    String both = warnings.get(2).get("warning").asText();
    assertTrue(both.contains(overload), both);
    assertTrue(both.contains("undefined field 'nonExisting'"), both);
    // One kind, so one prefix, the issues of one compilation following it.
    assertEquals(1, both.split("Kind=Deployment", -1).length - 1, both);
  }

  @Test
  void eachNewGenerationIsCheckedAgain() throws Exception {
    policy(
        "changing",
        "{"
            + rules("apps", "v1", "deployments")
            + ","
            + validation("object.metadata.labels['a'] == object.spec.template.spec.nodeNamez")
            + "}");
    JsonNode first = observed("changing", 1);
    assertEquals(1, warnings(first).size(), first.toString());
    ApiResponse patched =
        request(
            "PATCH",
            POLICIES + "/changing",
            "{\"spec\":{"
                + validation("object.metadata.labels['a'] == object.spec.template.spec.nodeName")
                + "}}",
            "application/merge-patch+json");
    assertEquals(200, patched.status(), new String(patched.body(), StandardCharsets.UTF_8));
    JsonNode second = observed("changing", 2);
    assertEquals(2, second.path("metadata").path("generation").asLong());
    // As kube-apiserver's structured merge: the apply that removes the last warning removes the
    // emptied typeChecking with it.
    assertTrue(
        second.path("status").path("typeChecking").path("expressionWarnings").isMissingNode(),
        second.toString());
  }

  @Test
  void aMessageExpressionAndTheParamKindsSchemaAreChecked() throws Exception {
    policy(
        "params",
        "{\"paramKind\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"},"
            + rules("", "v1", "pods")
            + ",\"validations\":[{\"expression\":\"size(params.data) > 0\","
            + "\"messageExpression\":\"params.dat + object.spec.nodeName\"},"
            + "{\"expression\":\"object.spec.containers.all(c, c.image != '')\"}]}");
    JsonNode warnings = warnings(observed("params", 1));
    assertEquals(1, warnings.size(), warnings.toString());
    assertEquals("spec.validations[0].messageExpression", warnings.get(0).get("fieldRef").asText());
    assertTrue(
        warnings
            .get(0)
            .get("warning")
            .asText()
            .startsWith("/v1, Kind=Pod: ERROR: <input>:1:7: undefined field 'dat'"),
        warnings.toString());
  }

  @Test
  void kindsWithJavaClassesAndRecursiveSchemasAreChecked() throws Exception {
    // ClusterRoles are held as Java classes; a CustomResourceDefinition's schema refers to itself.
    policy(
        "several",
        "{\"matchConstraints\":{\"resourceRules\":["
            + "{\"apiGroups\":[\"rbac.authorization.k8s.io\"],\"apiVersions\":[\"v1\"],"
            + "\"operations\":[\"CREATE\"],\"resources\":[\"clusterroles\"]},"
            + "{\"apiGroups\":[\"apiextensions.k8s.io\"],\"apiVersions\":[\"v1\"],"
            + "\"operations\":[\"CREATE\"],\"resources\":[\"customresourcedefinitions\"]}]},"
            + "\"validations\":[{\"expression\":\"object.metadata.name != ''\"},"
            + "{\"expression\":\"object.rules.size() > 0\"},"
            + "{\"expression\":\"object.spec.versions.exists(v,"
            + " v.schema.openAPIV3Schema.properties.size() > 0)\"}]}");
    JsonNode warnings = warnings(observed("several", 1));
    assertEquals(2, warnings.size(), warnings.toString());
    assertEquals("spec.validations[1].expression", warnings.get(0).get("fieldRef").asText());
    String warning = warnings.get(0).get("warning").asText();
    assertTrue(
        warning.startsWith(
            "apiextensions.k8s.io/v1, Kind=CustomResourceDefinition: ERROR: <input>:1:7:"
                + " undefined field 'rules'\n"),
        warning);
    assertFalse(warning.contains("ClusterRole"), warning);
    assertEquals("spec.validations[2].expression", warnings.get(1).get("fieldRef").asText());
    warning = warnings.get(1).get("warning").asText();
    assertTrue(
        warning.startsWith(
            "rbac.authorization.k8s.io/v1, Kind=ClusterRole: ERROR: <input>:1:7:"
                + " undefined field 'spec'\n"),
        warning);
    assertFalse(warning.contains("CustomResourceDefinition"), warning);
  }

  @Test
  void wildcardsAndUnservedResourcesAreNotChecked() throws Exception {
    policy("any", "{" + rules("apps", "*", "deployments") + "," + validation("object.nope") + "}");
    policy(
        "unknown",
        "{" + rules("example.com", "v1", "widgets") + "," + validation("object.nope") + "}");
    assertTrue(warnings(observed("any", 1)).isMissingNode());
    assertTrue(warnings(observed("unknown", 1)).isMissingNode());
  }

  @Test
  void aCustomResourceIsCheckedAgainstItsDefinitionsSchema() throws Exception {
    ApiResponse crd =
        request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                + "\"metadata\":{\"name\":\"widgets.example.com\"},\"spec\":{\"group\":\"example.com\","
                + "\"names\":{\"plural\":\"widgets\",\"singular\":\"widget\",\"kind\":\"Widget\"},"
                + "\"scope\":\"Namespaced\",\"versions\":[{\"name\":\"v1\",\"served\":true,"
                + "\"storage\":true,\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
                + "\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":{\"size\":"
                + "{\"type\":\"integer\"}}}}}}}]}}",
            "application/json");
    assertEquals(201, crd.status(), new String(crd.body(), StandardCharsets.UTF_8));
    // Established, not merely served: the kind's schema is published in OpenAPI, where the type
    // checker finds it, before the definition is Established.
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!established("widgets.example.com")) {
      assertTrue(System.nanoTime() < deadline, "the definition was never Established");
      Thread.sleep(20);
    }
    policy(
        "widgets",
        "{"
            + rules("example.com", "v1", "widgets")
            + ",\"validations\":[{\"expression\":\"object.spec.size > 1\"},"
            + "{\"expression\":\"object.spec.size == 'big'\"}]}");
    JsonNode warnings = warnings(observed("widgets", 1));
    assertEquals(1, warnings.size(), warnings.toString());
    assertEquals("spec.validations[1].expression", warnings.get(0).get("fieldRef").asText());
    String warning = warnings.get(0).get("warning").asText();
    assertTrue(warning.startsWith("example.com/v1, Kind=Widget: ERROR: <input>:1:18:"), warning);
    assertTrue(warning.contains("found no matching overload for '_==_'"), warning);
  }

  private boolean established(String name) throws Exception {
    JsonNode crd =
        JSON.readTree(
            request(
                    "GET",
                    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name,
                    null,
                    null)
                .body());
    for (JsonNode condition : crd.path("status").path("conditions")) {
      if (condition.path("type").asText().equals("Established")
          && condition.path("status").asText().equals("True")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aPolicyWithATypeErrorIsStillEvaluatedAsBefore() throws Exception {
    policy(
        "typo",
        "{" + rules("", "v1", "configmaps") + "," + validation("object.dataz.size() == 0") + "}");
    assertFalse(warnings(observed("typo", 1)).isMissingNode());
    ApiResponse binding =
        request(
            "POST",
            "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
            "{\"apiVersion\":\"admissionregistration.k8s.io/v1\","
                + "\"kind\":\"ValidatingAdmissionPolicyBinding\",\"metadata\":{\"name\":\"typo\"},"
                + "\"spec\":{\"policyName\":\"typo\",\"validationActions\":[\"Deny\"]}}",
            "application/json");
    assertEquals(201, binding.status());
    ApiResponse refused =
        request(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}",
            "application/json");
    assertEquals(422, refused.status(), new String(refused.body(), StandardCharsets.UTF_8));
    assertTrue(
        JSON.readTree(refused.body())
            .get("message")
            .asText()
            .endsWith(
                "denied request: expression 'object.dataz.size() == 0' resulted in error: no such"
                    + " key: dataz"),
        new String(refused.body(), StandardCharsets.UTF_8));
  }

  @Test
  void aStatusWriteThatFailsIsTriedAgain() throws Exception {
    server.close();
    java.util.concurrent.atomic.AtomicInteger refused =
        new java.util.concurrent.atomic.AtomicInteger();
    server =
        BuiltinKinds.apiServer()
            .admission(
                new dev.machinery.apiserver.admission.ValidatingAdmissionPlugin() {
                  @Override
                  public String name() {
                    return "RefuseFirstStatus";
                  }

                  @Override
                  public void validate(dev.machinery.apiserver.admission.AdmissionAttributes a) {
                    if (a.resource().resource().equals("validatingadmissionpolicies")
                        && a.subresource().equals("status")
                        && refused.getAndIncrement() == 0) {
                      throw new IllegalStateException("refused once");
                    }
                  }
                })
            .build();
    policy("retried", "{" + rules("apps", "v1", "deployments") + "," + validation("true") + "}");
    JsonNode policy = observed("retried", 1);
    assertTrue(refused.get() >= 2, String.valueOf(refused.get()));
    assertTrue(policy.path("status").has("typeChecking"), policy.toString());
  }

  @Test
  void theStatusIsAppliedByTheStatusControllersFieldManager() throws Exception {
    policy("owned", "{" + rules("apps", "v1", "deployments") + "," + validation("true") + "}");
    observed("owned", 1);
    JsonNode policy = JSON.readTree(request("GET", POLICIES + "/owned", null, null).body());
    boolean found = false;
    for (JsonNode entry : policy.path("metadata").path("managedFields")) {
      if (entry.path("manager").asText().equals("validatingadmissionpolicy-status-controller")) {
        found = true;
        assertEquals("Apply", entry.path("operation").asText());
        assertEquals("status", entry.path("subresource").asText());
      }
    }
    assertTrue(found, policy.toString());
  }
}
