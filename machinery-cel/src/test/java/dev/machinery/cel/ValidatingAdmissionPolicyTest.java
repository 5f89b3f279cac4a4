package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.admission.policy.PolicyExpressions;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.builtins.BuiltinKinds;
import java.io.ByteArrayInputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ValidatingAdmissionPolicies enforced by a real server with the built-in kinds, with the refusals'
 * words and codes of kube-apiserver 1.33 (k8s.io/apiserver's validating dispatcher and validator,
 * test/integration/apiserver/cel/validatingadmissionpolicy_test.go).
 */
class ValidatingAdmissionPolicyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String POLICIES =
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
  private static final String BINDINGS =
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private ApiServer server;

  @BeforeEach
  void start() {
    server = BuiltinKinds.apiServer().build();
    created(
        request(
            "POST",
            "/api/v1/namespaces",
            "{\"metadata\":{\"name\":\"default\",\"labels\":{\"env\":\"test\"}}}"));
  }

  @Test
  void findsTheImplementationThroughServiceLoader() {
    assertEquals(
        CelPolicyExpressions.class, PolicyExpressions.installed().orElseThrow().getClass());
  }

  private void policy(String name, String spec) {
    created(
        request(
            "POST",
            POLICIES,
            "{\"apiVersion\":\"admissionregistration.k8s.io/v1\",\"kind\":\"ValidatingAdmissionPolicy\","
                + "\"metadata\":{\"name\":\""
                + name
                + "\"},\"spec\":"
                + spec
                + "}"));
  }

  private void binding(String name, String spec) {
    created(
        request(
            "POST",
            BINDINGS,
            "{\"apiVersion\":\"admissionregistration.k8s.io/v1\",\"kind\":\"ValidatingAdmissionPolicyBinding\","
                + "\"metadata\":{\"name\":\""
                + name
                + "\"},\"spec\":"
                + spec
                + "}"));
  }

  private static final String CONFIGMAP_RULES =
      "\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],"
          + "\"operations\":[\"CREATE\",\"UPDATE\"],\"resources\":[\"configmaps\"]}]}";

  private ApiResponse configMap(String name, String data) {
    return request(
        "POST",
        CONFIGMAPS,
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
            + name
            + "\"},\"data\":"
            + data
            + "}");
  }

  @Test
  void deniesWithTheDefaultMessageAndInvalid() throws Exception {
    policy(
        "one-key",
        "{" + CONFIGMAP_RULES + ",\"validations\":[{\"expression\":\"size(object.data) <= 1\"}]}");
    binding("one-key-binding", "{\"policyName\":\"one-key\",\"validationActions\":[\"Deny\"]}");
    assertEquals(201, configMap("fine", "{\"a\":\"1\"}").status());
    ApiResponse refused = configMap("two", "{\"a\":\"1\",\"b\":\"2\"}");
    assertEquals(422, refused.status(), text(refused));
    JsonNode status = json(refused);
    assertEquals(
        "configmaps \"two\" is forbidden: ValidatingAdmissionPolicy 'one-key' with binding"
            + " 'one-key-binding' denied request: failed expression: size(object.data) <= 1",
        status.get("message").asText());
    assertEquals("Invalid", status.get("reason").asText());
  }

  @Test
  void reasonAndMessageExpressionChooseTheCodeAndText() throws Exception {
    policy(
        "named",
        "{"
            + CONFIGMAP_RULES
            + ",\"validations\":[{\"expression\":\"object.metadata.name != 'bad'\","
            + "\"reason\":\"Forbidden\",\"message\":\"static\","
            + "\"messageExpression\":\"'name ' + object.metadata.name + ' is not allowed'\"}]}");
    binding("named-binding", "{\"policyName\":\"named\",\"validationActions\":[\"Deny\"]}");
    ApiResponse refused = configMap("bad", "{}");
    assertEquals(403, refused.status(), text(refused));
    assertEquals(
        "configmaps \"bad\" is forbidden: ValidatingAdmissionPolicy 'named' with binding"
            + " 'named-binding' denied request: name bad is not allowed",
        json(refused).get("message").asText());
    assertEquals("Forbidden", json(refused).get("reason").asText());
  }

  @Test
  void paramsComeFromAConfigMapAndAMissingOneDenies() throws Exception {
    policy(
        "limit",
        "{\"paramKind\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"},"
            + "\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],"
            + "\"operations\":[\"CREATE\"],\"resources\":[\"secrets\"]}]},"
            + "\"variables\":[{\"name\":\"max\",\"expression\":\"int(params.data.max)\"}],"
            + "\"validations\":[{\"expression\":\"size(object.data) <= variables.max\","
            + "\"messageExpression\":\"'at most ' + string(variables.max) + ' keys'\"}]}");
    binding(
        "limit-binding",
        "{\"policyName\":\"limit\",\"validationActions\":[\"Deny\"],"
            + "\"paramRef\":{\"name\":\"limits\",\"parameterNotFoundAction\":\"Deny\"}}");
    String secret =
        "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
            + "\"stringData\":{\"a\":\"1\",\"b\":\"2\"},\"data\":{\"a\":\"MQ==\",\"b\":\"Mg==\"}}";
    ApiResponse missing = request("POST", "/api/v1/namespaces/default/secrets", secret);
    assertEquals(422, missing.status(), text(missing));
    assertEquals(
        "secrets \"s\" is forbidden: ValidatingAdmissionPolicy 'limit' with binding 'limit-binding'"
            + " denied request: failed to configure binding: no params found for policy binding"
            + " with `Deny` parameterNotFoundAction",
        json(missing).get("message").asText());
    assertEquals(201, configMap("limits", "{\"max\":\"1\"}").status());
    ApiResponse refused = request("POST", "/api/v1/namespaces/default/secrets", secret);
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "secrets \"s\" is forbidden: ValidatingAdmissionPolicy 'limit' with binding 'limit-binding'"
            + " denied request: at most 1 keys",
        json(refused).get("message").asText());
  }

  @Test
  void runtimeErrorsFollowTheFailurePolicy() throws Exception {
    policy(
        "strict",
        "{"
            + CONFIGMAP_RULES
            + ",\"validations\":[{\"expression\":\"object.data.missing == 'x'\"}]}");
    binding("strict-binding", "{\"policyName\":\"strict\",\"validationActions\":[\"Deny\"]}");
    ApiResponse refused = configMap("c", "{\"a\":\"1\"}");
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'strict' with binding"
            + " 'strict-binding' denied request: expression 'object.data.missing == 'x'' resulted"
            + " in error: no such key: missing",
        json(refused).get("message").asText());
    policy(
        "lenient",
        "{\"failurePolicy\":\"Ignore\","
            + CONFIGMAP_RULES
            + ",\"validations\":[{\"expression\":\"object.data.missing == 'x'\"}]}");
    binding("lenient-binding", "{\"policyName\":\"lenient\",\"validationActions\":[\"Deny\"]}");
    request(
        "DELETE",
        "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/strict-binding",
        null);
    assertEquals(201, configMap("c", "{\"a\":\"1\"}").status());
  }

  @Test
  void matchConditionsAndSelectorsNarrowThePolicy() throws Exception {
    policy(
        "labelled",
        "{"
            + CONFIGMAP_RULES.replace(
                "]}", "],\"namespaceSelector\":{\"matchLabels\":{\"env\":\"test\"}}}")
            + ",\"matchConditions\":[{\"name\":\"only-checked\","
            + "\"expression\":\"has(object.metadata.labels) && 'checked' in object.metadata.labels\"}],"
            + "\"validations\":[{\"expression\":\"false\",\"message\":\"checked maps are refused\"}]}");
    binding(
        "labelled-binding",
        "{\"policyName\":\"labelled\",\"validationActions\":[\"Deny\"],"
            + "\"matchResources\":{\"objectSelector\":{\"matchExpressions\":[{\"key\":\"skip\","
            + "\"operator\":\"DoesNotExist\"}]}}}");
    assertEquals(201, configMap("plain", "{}").status());
    ApiResponse skipped =
        request(
            "POST",
            CONFIGMAPS,
            "{\"metadata\":{\"name\":\"skipped\",\"labels\":{\"checked\":\"1\",\"skip\":\"1\"}}}");
    assertEquals(201, skipped.status(), text(skipped));
    ApiResponse refused =
        request(
            "POST",
            CONFIGMAPS,
            "{\"metadata\":{\"name\":\"refused\",\"labels\":{\"checked\":\"1\"}}}");
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "configmaps \"refused\" is forbidden: ValidatingAdmissionPolicy 'labelled' with binding"
            + " 'labelled-binding' denied request: checked maps are refused",
        json(refused).get("message").asText());
  }

  @Test
  void updatesAndDeletesSeeTheOldObject() throws Exception {
    policy(
        "immutable",
        "{\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],"
            + "\"operations\":[\"UPDATE\",\"DELETE\"],\"resources\":[\"configmaps\"]}]},"
            + "\"validations\":[{\"expression\":\"request.operation != 'UPDATE' ||"
            + " object.data == oldObject.data\",\"message\":\"data is immutable\"},"
            + "{\"expression\":\"request.operation != 'DELETE' || object == null &&"
            + " oldObject.metadata.name != 'keep'\",\"messageExpression\":\"'cannot delete '"
            + " + oldObject.metadata.name\",\"reason\":\"Forbidden\"}]}");
    binding("immutable-binding", "{\"policyName\":\"immutable\",\"validationActions\":[\"Deny\"]}");
    assertEquals(201, configMap("keep", "{\"a\":\"1\"}").status());
    ApiResponse changed =
        request(
            "PATCH",
            CONFIGMAPS + "/keep",
            "{\"data\":{\"a\":\"2\"}}",
            "application/merge-patch+json");
    assertEquals(422, changed.status(), text(changed));
    assertEquals(
        "configmaps \"keep\" is forbidden: ValidatingAdmissionPolicy 'immutable' with binding"
            + " 'immutable-binding' denied request: data is immutable",
        json(changed).get("message").asText());
    ApiResponse labelled =
        request(
            "PATCH",
            CONFIGMAPS + "/keep",
            "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}",
            "application/merge-patch+json");
    assertEquals(200, labelled.status(), text(labelled));
    ApiResponse deleted = request("DELETE", CONFIGMAPS + "/keep", null);
    assertEquals(403, deleted.status(), text(deleted));
    assertEquals(
        "configmaps \"keep\" is forbidden: ValidatingAdmissionPolicy 'immutable' with binding"
            + " 'immutable-binding' denied request: cannot delete keep",
        json(deleted).get("message").asText());
    assertEquals(201, configMap("other", "{}").status());
    assertEquals(200, request("DELETE", CONFIGMAPS + "/other", null).status());
  }

  @Test
  void paramsMayBeCustomResourcesChosenBySelectorInTheirNamespace() throws Exception {
    created(
        request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                + "\"metadata\":{\"name\":\"limits.example.com\"},\"spec\":{\"group\":\"example.com\","
                + "\"scope\":\"Namespaced\",\"names\":{\"plural\":\"limits\",\"singular\":\"limit\","
                + "\"kind\":\"Limit\",\"listKind\":\"LimitList\"},\"versions\":[{\"name\":\"v1\","
                + "\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
                + "\"properties\":{\"maxKeys\":{\"type\":\"integer\"}}}}}]}}"));
    String limits = "/apis/example.com/v1/namespaces/default/limits";
    String limit =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Limit\",\"metadata\":{\"name\":\"small\","
            + "\"labels\":{\"tier\":\"small\"}},\"maxKeys\":1}";
    ApiResponse stored = request("POST", limits, limit);
    for (int i = 0; i < 200 && stored.status() == 404; i++) {
      Thread.sleep(25);
      stored = request("POST", limits, limit);
    }
    created(stored);
    policy(
        "limited",
        "{\"paramKind\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"Limit\"},"
            + CONFIGMAP_RULES
            + ",\"validations\":[{\"expression\":\"size(object.data) <= params.maxKeys\","
            + "\"messageExpression\":\"params.metadata.name + ' allows ' + string(params.maxKeys)"
            + " + ' keys'\"}]}");
    binding(
        "limited-binding",
        "{\"policyName\":\"limited\",\"validationActions\":[\"Deny\"],"
            + "\"paramRef\":{\"selector\":{\"matchLabels\":{\"tier\":\"small\"}},"
            + "\"parameterNotFoundAction\":\"Allow\"}}");
    assertEquals(201, configMap("one", "{\"a\":\"1\"}").status());
    ApiResponse refused = configMap("two", "{\"a\":\"1\",\"b\":\"2\"}");
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "configmaps \"two\" is forbidden: ValidatingAdmissionPolicy 'limited' with binding"
            + " 'limited-binding' denied request: small allows 1 keys",
        json(refused).get("message").asText());
    // A namespaced paramKind without paramRef.namespace reads the request's namespace: none in
    // kube-system, and Allow admits.
    created(request("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"kube-system\"}}"));
    ApiResponse elsewhere =
        request(
            "POST",
            "/api/v1/namespaces/kube-system/configmaps",
            "{\"metadata\":{\"name\":\"two\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}");
    assertEquals(201, elsewhere.status(), text(elsewhere));
  }

  /** Test_PolicyExemption of kube's integration tests. */
  @Test
  void policiesAndBindingsAreExempt() throws Exception {
    policy(
        "test-policy",
        "{\"matchConstraints\":{\"resourceRules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"*\"],"
            + "\"apiVersions\":[\"*\"],\"resources\":[\"*\"]}]},\"validations\":[{\"expression\":"
            + "\"false\",\"message\":\"marker denied; policy is ready\"}]}");
    binding(
        "test-policy-binding", "{\"policyName\":\"test-policy\",\"validationActions\":[\"Deny\"]}");
    ApiResponse marker = configMap("marker", "{}");
    assertEquals(422, marker.status(), text(marker));
    ApiResponse patched =
        request(
            "PATCH",
            POLICIES + "/test-policy",
            "{\"spec\":{\"failurePolicy\":\"Ignore\"}}",
            "application/merge-patch+json");
    assertEquals(200, patched.status(), text(patched));
    ApiResponse rebound =
        request(
            "PATCH",
            BINDINGS + "/test-policy-binding",
            "{\"spec\":{\"policyName\":\"different-binding\"}}",
            "application/merge-patch+json");
    assertEquals(200, rebound.status(), text(rebound));
    assertEquals(201, configMap("marker", "{}").status());
  }

  @Test
  void theAuthorizerAndRequestAreThere() throws Exception {
    policy(
        "authz",
        "{"
            + CONFIGMAP_RULES
            + ",\"validations\":[{\"expression\":\"authorizer.group('').resource('secrets')"
            + ".namespace('default').check('get').allowed() && request.operation == 'CREATE'"
            + " && authorizer.requestResource.check('create').allowed()"
            + " && request.userInfo.username != ''\","
            + "\"message\":\"unexpected\"}]}");
    binding("authz-binding", "{\"policyName\":\"authz\",\"validationActions\":[\"Deny\"]}");
    ApiResponse admitted = configMap("ok", "{}");
    assertEquals(201, admitted.status(), text(admitted));
  }

  @Test
  void aCompileErrorRefusesUnderFail() throws Exception {
    policy(
        "broken", "{" + CONFIGMAP_RULES + ",\"validations\":[{\"expression\":\"object.data +\"}]}");
    binding("broken-binding", "{\"policyName\":\"broken\",\"validationActions\":[\"Deny\"]}");
    ApiResponse refused = configMap("c", "{}");
    assertEquals(422, refused.status(), text(refused));
    String message = json(refused).get("message").asText();
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'broken' with binding"
            + " 'broken-binding' denied request: compilation error: compilation failed: ERROR:"
            + " <input>:1:14: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(',"
            + " '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING,"
            + " BYTES, IDENTIFIER}\n | object.data +\n | .............^",
        message);
  }

  /**
   * Test_ValidateNamespace_NoParams of kube's integration tests: a policy on the creation of
   * Namespaces, its expression, its params kind (ConfigMap, no paramRef: params is null), the
   * failure policy, and the refusal (or none) and reason a Namespace's creation meets. The two
   * cases that guard a null {@code params} with {@code has(params.metadata)} are left out: cel-java
   * refuses {@code has()} on null where cel-go answers false (docs/admission.md).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      textBlock =
          """
          suffix holds         ; object.metadata.name.endsWith('k8s') ; false ; Fail ; ; test-k8s ; ;
          suffix missing       ; object.metadata.name.endsWith('k8s') ; false ; Fail ; ; test-foobar ; failed expression: object.metadata.name.endsWith('k8s') ; Invalid
          suffix missing, Forbidden reason ; object.metadata.name.endsWith('k8s') ; false ; Fail ; Forbidden ; forbidden-test-foobar ; failed expression: object.metadata.name.endsWith('k8s') ; Forbidden
          request field holds  ; request.name.endsWith('k8s') ; false ; Fail ; ; test-k8s ; ;
          runtime error, Ignore ; object.nonExistentProperty == 'someval' ; false ; Ignore ; ; test-k8s ; ;
          runtime error, Fail  ; object.nonExistentProperty == 'someval' ; false ; Fail ; ; test-k8s ; expression 'object.nonExistentProperty == 'someval'' resulted in error: no such key: nonExistentProperty ; Invalid
          unguarded params     ; object.metadata.name.startsWith(params.metadata.name) ; true ; Fail ; ; test-k8s ; expression 'object.metadata.name.startsWith(params.metadata.name)' resulted in error: no such key: metadata ; Invalid
          params checked against null ; (params != null && object.metadata.name.endsWith(params.metadata.name)) ; true ; Fail ; ; test-k8s ; failed expression: (params != null && object.metadata.name.endsWith(params.metadata.name)) ; Invalid
          null and a default   ; (params != null && object.metadata.name.startsWith(params.metadata.name)) || object.metadata.name.endsWith('k8s') ; true ; Fail ; ; test-k8s ; ;
          """)
  void namespacesWithoutParams(
      String name,
      String expression,
      boolean params,
      String failurePolicy,
      String reason,
      String namespace,
      String error,
      String failureReason)
      throws Exception {
    policy(
        "validate-namespace-suffix",
        "{"
            + (params ? "\"paramKind\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}," : "")
            + "\"failurePolicy\":\""
            + failurePolicy
            + "\",\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"\"],"
            + "\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],"
            + "\"resources\":[\"namespaces\"]}]},\"validations\":[{\"expression\":"
            + JSON.writeValueAsString(expression)
            + (reason == null ? "" : ",\"reason\":\"" + reason + "\"")
            + "}]}");
    binding(
        "validate-namespace-suffix-binding",
        "{\"policyName\":\"validate-namespace-suffix\",\"validationActions\":[\"Deny\"]}");
    ApiResponse response =
        request("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}");
    if (error == null) {
      assertEquals(201, response.status(), text(response));
      return;
    }
    assertEquals(
        "namespaces \""
            + namespace
            + "\" is forbidden: ValidatingAdmissionPolicy 'validate-namespace-suffix' with binding"
            + " 'validate-namespace-suffix-binding' denied request: "
            + error,
        json(response).get("message").asText());
    assertEquals(failureReason, json(response).get("reason").asText());
  }

  /**
   * On a storage that is not in memory, a policy and binding written through the server apply to
   * the next write at once, and writes read them from the watch caches, with no request to the
   * storage (kube-apiserver reads them from informers).
   */
  @Test
  void policiesAreReadFromTheWatchCacheWithEveryWriteMadeHereInIt() {
    MemoryStorage memory = new MemoryStorage();
    AtomicInteger policyReads = new AtomicInteger();
    Storage remote =
        (Storage)
            Proxy.newProxyInstance(
                Storage.class.getClassLoader(),
                new Class<?>[] {Storage.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("answersFromMemory")) {
                    return false;
                  }
                  if (args != null
                      && args.length > 0
                      && args[0] instanceof String key
                      && key.startsWith("validatingadmissionpolic")
                      && (method.getName().equals("list")
                          || method.getName().equals("checkUnchanged"))) {
                    // What a list of them costs (the policy status writer reads and writes one
                    // policy at a time, on its own schedule).
                    policyReads.incrementAndGet();
                  }
                  try {
                    return method.invoke(memory, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    server.close();
    server = BuiltinKinds.apiServer().storage(remote).build();
    created(request("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"default\"}}"));
    policy(
        "one-key",
        "{" + CONFIGMAP_RULES + ",\"validations\":[{\"expression\":\"size(object.data) <= 1\"}]}");
    binding("one-key-binding", "{\"policyName\":\"one-key\",\"validationActions\":[\"Deny\"]}");
    ApiResponse first = configMap("two", "{\"a\":\"1\",\"b\":\"2\"}");
    assertEquals(422, first.status(), text(first));

    policyReads.set(0);
    for (int i = 0; i < 5; i++) {
      assertEquals(201, configMap("fine-" + i, "{\"a\":\"1\"}").status());
      ApiResponse refused = configMap("two-" + i, "{\"a\":\"1\",\"b\":\"2\"}");
      assertEquals(422, refused.status(), text(refused));
    }
    assertEquals(0, policyReads.get(), "lists of policies and bindings from the storage");
    server.close();
  }

  private static void created(ApiResponse response) {
    assertEquals(201, response.status(), text(response));
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
