package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.audit.AuditEvent;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.audit.Stage;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.builtins.BuiltinKinds;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code Warn} and {@code Audit} results of ValidatingAdmissionPolicies, and their published
 * audit annotations, arrive where kube-apiserver 1.33 delivers them: the response's {@code Warning}
 * headers and the request's audit event (k8s.io/apiserver's validating dispatcher;
 * test/integration/apiserver/cel/validatingadmissionpolicy_test.go's warning and audit cases).
 */
class PolicyWarningsAndAuditTest {
  private static final String POLICIES =
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
  private static final String BINDINGS =
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  private static final String FAILURE = "validation.policy.admission.k8s.io/validation_failure";

  private final Map<String, AuditEvent> events = new ConcurrentHashMap<>();
  private ApiServer server;

  @BeforeEach
  void start() {
    server =
        BuiltinKinds.apiServer()
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\n"
                        + "rules:\n- level: Metadata\n"),
                event -> {
                  if (event.stage() == Stage.RESPONSE_COMPLETE) {
                    events.put(event.auditId(), event);
                  }
                })
            .build();
    created(request("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"default\"}}"));
    created(
        request(
            "POST",
            POLICIES,
            "{\"metadata\":{\"name\":\"one-key\"},\"spec\":{\"matchConstraints\":{\"resourceRules\":"
                + "[{\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],"
                + "\"resources\":[\"configmaps\"]}]},"
                + "\"validations\":[{\"expression\":\"size(object.data) <= 1\"},"
                + "{\"expression\":\"object.metadata.name != 'ok'\","
                + "\"message\":\"the name <ok> & more\"}],"
                + "\"auditAnnotations\":[{\"key\":\"keys\","
                + "\"valueExpression\":\"'configmap has ' + string(size(object.data)) + ' keys'\"}]}}"));
  }

  private void bind(String... actions) {
    created(
        request(
            "POST",
            BINDINGS,
            "{\"metadata\":{\"name\":\"one-key-binding\"},\"spec\":{\"policyName\":\"one-key\","
                + "\"validationActions\":[\""
                + String.join("\",\"", actions)
                + "\"]}}"));
  }

  private ApiResponse twoKeys(String name) {
    return request(
        "POST",
        CONFIGMAPS,
        "{\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}");
  }

  @Test
  void warnBecomesAWarningHeaderWithKubesWords() {
    bind("Warn");
    ApiResponse response = twoKeys("two");
    created(response);
    assertEquals(
        List.of(
            "299 - \"Validation failed for ValidatingAdmissionPolicy 'one-key' with binding"
                + " 'one-key-binding': failed expression: size(object.data) <= 1\""),
        response.headers().get("Warning"));
    Map<String, String> annotations = annotations(response);
    assertFalse(annotations.containsKey(FAILURE), annotations.toString());
    assertEquals("configmap has 2 keys", annotations.get("one-key/keys"));
  }

  @Test
  void auditBecomesTheValidationFailureAnnotation() {
    bind("Audit");
    ApiResponse response = twoKeys("ok");
    created(response);
    assertEquals(null, response.headers().get("Warning"));
    // Go's encoding/json: HTML characters escaped, fields in the struct's order.
    assertEquals(
        "[{\"message\":\"failed expression: size(object.data) \\u003c= 1\",\"policy\":\"one-key\","
            + "\"binding\":\"one-key-binding\",\"expressionIndex\":0,"
            + "\"validationActions\":[\"Audit\"]},"
            + "{\"message\":\"the name \\u003cok\\u003e \\u0026 more\",\"policy\":\"one-key\","
            + "\"binding\":\"one-key-binding\",\"expressionIndex\":1,"
            + "\"validationActions\":[\"Audit\"]}]",
        annotations(response).get(FAILURE));
  }

  @Test
  void warnAndAuditTogether() {
    bind("Warn", "Audit");
    ApiResponse response = twoKeys("two");
    created(response);
    assertEquals(
        List.of(
            "299 - \"Validation failed for ValidatingAdmissionPolicy 'one-key' with binding"
                + " 'one-key-binding': failed expression: size(object.data) <= 1\""),
        response.headers().get("Warning"));
    assertEquals(
        "[{\"message\":\"failed expression: size(object.data) \\u003c= 1\",\"policy\":\"one-key\","
            + "\"binding\":\"one-key-binding\",\"expressionIndex\":0,"
            + "\"validationActions\":[\"Warn\",\"Audit\"]}]",
        annotations(response).get(FAILURE));
  }

  @Test
  void aDenialStillCarriesItsAuditAnnotations() {
    bind("Deny", "Audit");
    ApiResponse refused = twoKeys("two");
    assertEquals(422, refused.status(), text(refused));
    Map<String, String> annotations = annotations(refused);
    assertEquals(
        "[{\"message\":\"failed expression: size(object.data) \\u003c= 1\",\"policy\":\"one-key\","
            + "\"binding\":\"one-key-binding\",\"expressionIndex\":0,"
            + "\"validationActions\":[\"Deny\",\"Audit\"]}]",
        annotations.get(FAILURE));
    assertEquals("configmap has 2 keys", annotations.get("one-key/keys"));
  }

  private Map<String, String> annotations(ApiResponse response) {
    String id = response.header(AuditEvent.AUDIT_ID_HEADER);
    assertNotNull(id, "no Audit-ID header");
    AuditEvent event = events.get(id);
    assertNotNull(event, "no ResponseComplete event for " + id);
    return event.annotations();
  }

  private static void created(ApiResponse response) {
    assertEquals(201, response.status(), text(response));
  }

  private ApiResponse request(String method, String path, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
