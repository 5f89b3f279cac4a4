package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.unversioned.discovery.Enablement;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The scenarios of kube-apiserver's server-side apply integration tests ({@code
 * test/integration/apiserver/apply}: {@code apply_test.go}, {@code status_test.go}, {@code
 * scale_test.go}, {@code reset_fields_test.go}, {@code apply_wipe_test.go}, {@code
 * managedfields_parsing_test.go}), carried over as facts (the requests, the answers' codes and the
 * managed fields they leave) and run against the sample server over HTTP. Where a scenario there
 * uses a kind the sample server does not serve (Pods, Services, StatefulSets, DaemonSets, webhook
 * configurations), it is restated on a Deployment or a ConfigMap, as each test says. Each test
 * names the Kubernetes test it comes from.
 */
class SampleServerApplyIntegrationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String APPLY = "application/apply-patch+yaml";
  private static final String MERGE = "application/merge-patch+json";
  private static final String STRATEGIC = "application/strategic-merge-patch+json";
  private static final String JSON_PATCH = "application/json-patch+json";
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
  private static final String ROLLOUTS = "/apis/demo.example.dev/v1/namespaces/default/rollouts";

  private ApiServer server;
  private JdkHttpBinding binding;
  private HttpClient client;
  private String base;

  @BeforeEach
  void start() throws Exception {
    server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    base = "http://127.0.0.1:" + binding.port();
  }

  @AfterEach
  void stop() {
    binding.close();
    server.storage().close();
  }

  // ---- requests

  private HttpResponse<String> send(String method, String path, String contentType, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(60))
            .header("Accept", "application/json");
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String query(String path, String... parameters) {
    StringBuilder out = new StringBuilder(path);
    for (int i = 0; i + 1 < parameters.length; i += 2) {
      out.append(i == 0 ? '?' : '&')
          .append(parameters[i])
          .append('=')
          .append(URLEncoder.encode(parameters[i + 1], StandardCharsets.UTF_8));
    }
    return out.toString();
  }

  private HttpResponse<String> apply(String path, String manager, String body) throws Exception {
    return send("PATCH", query(path, "fieldManager", manager), APPLY, body);
  }

  private HttpResponse<String> forceApply(String path, String manager, String body)
      throws Exception {
    return send("PATCH", query(path, "fieldManager", manager, "force", "true"), APPLY, body);
  }

  private static JsonNode ok(HttpResponse<String> response, int code) throws Exception {
    assertEquals(code, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }

  private static JsonNode ok(HttpResponse<String> response) throws Exception {
    assertTrue(
        response.statusCode() == 200 || response.statusCode() == 201,
        response.statusCode() + " " + response.body());
    return JSON.readTree(response.body());
  }

  private static JsonNode failure(HttpResponse<String> response, int code, String reason)
      throws Exception {
    assertEquals(code, response.statusCode(), response.body());
    JsonNode status = JSON.readTree(response.body());
    assertEquals("Status", status.path("kind").asText(), response.body());
    assertEquals("Failure", status.path("status").asText(), response.body());
    assertEquals(code, status.path("code").asInt(), response.body());
    assertEquals(reason, status.path("reason").asText(), response.body());
    return status;
  }

  private JsonNode get(String path) throws Exception {
    return ok(send("GET", path, null, null), 200);
  }

  private static ArrayNode managedFields(JsonNode object) {
    JsonNode entries = object.path("metadata").path("managedFields");
    return entries.isArray() ? (ArrayNode) entries : JSON.createArrayNode();
  }

  private static String resourceVersion(JsonNode object) {
    return object.path("metadata").path("resourceVersion").asText();
  }

  private static JsonNode fields(String json) throws Exception {
    return JSON.readTree(json);
  }

  /** The managers whose entries own {@code spec.replicas}, as scale_test.go's helper checks. */
  private static Set<String> replicasOwners(JsonNode object) {
    Set<String> owners = new HashSet<>();
    for (JsonNode entry : managedFields(object)) {
      if (entry.path("fieldsV1").path("f:spec").has("f:replicas")) {
        owners.add(entry.path("manager").asText());
      }
    }
    return owners;
  }

  private static JsonNode entry(JsonNode object, String manager, String operation) {
    for (JsonNode entry : managedFields(object)) {
      if (entry.path("manager").asText().equals(manager)
          && entry.path("operation").asText().equals(operation)) {
        return entry;
      }
    }
    throw new AssertionError("no " + operation + " entry of " + manager + " in " + object);
  }

  // ---- objects

  /**
   * A Deployment of nginx (apply_test.go's usual object), with the given replicas (none when null)
   * and the given members of its first container after name and image.
   */
  private static String deployment(String name, Integer replicas, String container) {
    return """
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "%s", "labels": {"app": "nginx"}},
         "spec": {%s
           "selector": {"matchLabels": {"app": "nginx"}},
           "template": {
             "metadata": {"labels": {"app": "nginx"}},
             "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"%s}]}}}}
        """
        .formatted(
            name,
            replicas == null ? "" : "\"replicas\": " + replicas + ",",
            container.isEmpty() ? "" : ", " + container);
  }

  /** The sample's Rollout of the same shape as {@link #deployment}, without labels of its own. */
  private static String rollout(String name, int replicas) {
    return deployment(name, replicas, "")
        .replace(
            "\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\"",
            "\"apiVersion\": \"demo.example.dev/v1\", \"kind\": \"Rollout\"")
        .replace(", \"labels\": {\"app\": \"nginx\"}},", "},");
  }

  private static String testConfigMap() {
    return """
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": {"name": "test-cm", "namespace": "default",
                      "labels": {"test-label": "test"}},
         "data": {"key": "value"}}
        """;
  }

  private static final String BARE_CONFIG_MAP =
      """
      {"apiVersion": "v1", "kind": "ConfigMap",
       "metadata": {"name": "test-cm", "namespace": "default"}}
      """;

  // ---- apply_test.go

  /** TestApplyAlsoCreates (its Pod and Service restated as a ConfigMap and a Deployment). */
  @Test
  void applyAlsoCreates() throws Exception {
    String[][] cases = {
      {CONFIGMAPS, "test-cm", testConfigMap()}, {DEPLOYMENTS, "test-deploy", null},
    };
    cases[1][2] = deployment("test-deploy", 1, "");
    for (String[] c : cases) {
      String path = c[0] + "/" + c[1];
      JsonNode created = ok(apply(path, "apply_test", c[2]), 201);
      assertEquals(c[1], created.path("metadata").path("name").asText());
      get(path);
      // Another manager applying the same configuration does not conflict.
      ok(apply(path, "apply_test_2", c[2]), 200);
    }
  }

  /**
   * TestNoOpUpdateSameResourceVersion (its Pod with three containers restated as a Deployment): a
   * PUT of the object as read changes nothing, so the resourceVersion stays.
   */
  @Test
  void noOpUpdateKeepsResourceVersion() throws Exception {
    String path = DEPLOYMENTS + "/no-op";
    String body =
        """
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "no-op", "labels": {"a": "one", "c": "two", "b": "three"}},
         "spec": {"selector": {"matchLabels": {"a": "one"}},
           "template": {"metadata": {"labels": {"a": "one"}},
             "spec": {"containers": [
               {"name": "test-container-a", "image": "test-image-one"},
               {"name": "test-container-c", "image": "test-image-two"},
               {"name": "test-container-b", "image": "test-image-three"}]}}}}
        """;
    ok(apply(path, "apply_test", body), 201);
    Thread.sleep(1000);
    JsonNode created = get(path);
    ok(send("PUT", path, "application/json", created.toString()), 200);
    JsonNode updated = get(path);
    assertEquals(resourceVersion(created), resourceVersion(updated), updated.toString());
    assertEquals(created, updated);
  }

  /** TestNoOpApplyWithEmptyMap: re-applying with an empty map in it writes nothing. */
  @Test
  void noOpApplyWithEmptyMapKeepsResourceVersion() throws Exception {
    String path = DEPLOYMENTS + "/no-op";
    String body =
        """
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "no-op", "labels": {"app": "nginx"}},
         "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "nginx"}},
           "template": {"metadata": {"annotations": {}, "labels": {"app": "nginx"}},
             "spec": {"containers": [{"name": "nginx", "image": "nginx:1.14.2",
                                      "ports": [{"containerPort": 80}]}]}}}}
        """;
    ok(apply(path, "apply_test", body), 201);
    Thread.sleep(1000);
    JsonNode created = get(path);
    ok(apply(path, "apply_test", body), 200);
    JsonNode updated = get(path);
    assertEquals(resourceVersion(created), resourceVersion(updated), updated.toString());
  }

  /**
   * TestApplyEmptyMarkerStructDifferentFromNil (its Pod volume's {@code emptyDir: {}} restated as a
   * container's {@code securityContext: {}}, another optional struct that nothing defaults):
   * applying without the empty struct is a change.
   */
  @Test
  void applyEmptyStructDiffersFromNone() throws Exception {
    String path = DEPLOYMENTS + "/with-empty-struct";
    ok(
        apply(path, "apply_test", deployment("with-empty-struct", 1, "\"securityContext\": {}")),
        201);
    Thread.sleep(1000);
    JsonNode created = get(path);
    assertTrue(
        created.at("/spec/template/spec/containers/0").has("securityContext"), created.toString());
    ok(apply(path, "apply_test", deployment("with-empty-struct", 1, "")), 200);
    JsonNode updated = get(path);
    assertNotEquals(resourceVersion(created), resourceVersion(updated), updated.toString());
    assertFalse(
        updated.at("/spec/template/spec/containers/0").has("securityContext"), updated.toString());
  }

  /**
   * TestNoopChangeCreationTime: an apply that sets creationTimestamp and resourceVersion to null,
   * re-applied unchanged a second later, answers with the very same object.
   */
  @Test
  void noOpApplyWithNullsAnswersTheSameObject() throws Exception {
    String path = CONFIGMAPS + "/myconfig";
    String body =
        """
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": {"name": "myconfig", "creationTimestamp": null, "resourceVersion": null},
         "data": {"key": "value"}}
        """;
    JsonNode first = ok(apply(path, "apply_test", body), 201);
    Thread.sleep(1200);
    JsonNode second = ok(apply(path, "apply_test", body), 200);
    assertEquals(first, second);
  }

  /**
   * TestNoSemanticUpdateApplySameResourceVersion (its StatefulSet restated as a Deployment): a
   * quantity the server normalizes ({@code 2048Mi} is {@code 2Gi}) re-applied is no change.
   */
  @Test
  void noSemanticChangeApplyKeepsResourceVersion() throws Exception {
    String path = DEPLOYMENTS + "/nginx";
    String body =
        deployment("nginx", null, "\"resources\": {\"limits\": {\"memory\": \"2048Mi\"}}");
    String rv = resourceVersion(ok(apply(path, "apply_test", body), 201));
    Thread.sleep(1200);
    assertEquals(rv, resourceVersion(ok(apply(path, "apply_test", body), 200)));
  }

  /**
   * TestNoSemanticUpdatePutSameResourceVersion (its StatefulSet restated as a Deployment): a PUT of
   * the body that created the object is no change.
   */
  @Test
  void noSemanticChangePutKeepsResourceVersion() throws Exception {
    String body =
        deployment("nginx", null, "\"resources\": {\"limits\": {\"memory\": \"2048Mi\"}}");
    String rv =
        resourceVersion(
            ok(
                send(
                    "POST",
                    query(DEPLOYMENTS, "fieldManager", "apply_test"),
                    "application/json",
                    body),
                201));
    Thread.sleep(1200);
    JsonNode put =
        ok(
            send(
                "PUT",
                query(DEPLOYMENTS + "/nginx", "fieldManager", "apply_test"),
                "application/json",
                body),
            200);
    assertEquals(rv, resourceVersion(put), put.toString());
  }

  /**
   * TestCreateOnApplyFailsWithUID (its Pod restated as a ConfigMap): an apply naming a uid does not
   * create.
   */
  @Test
  void createOnApplyFailsWithUid() throws Exception {
    String body =
        """
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": {"name": "test-cm-uid", "uid": "88e00824-7f0e-11e8-94a1-c8d3ffb15800"},
         "data": {"key": "value"}}
        """;
    JsonNode conflict =
        failure(apply(CONFIGMAPS + "/test-cm-uid", "apply_test", body), 409, "Conflict");
    assertEquals(
        "Operation cannot be fulfilled on configmaps \"test-cm-uid\": uid mismatch: the provided"
            + " object specified uid 88e00824-7f0e-11e8-94a1-c8d3ffb15800, and no existing object"
            + " was found",
        conflict.path("message").asText());
    failure(send("GET", CONFIGMAPS + "/test-cm-uid", null, null), 404, "NotFound");
  }

  /** TestApplyUpdateApplyConflictForced. */
  @Test
  void applyUpdateApplyConflictForced() throws Exception {
    String path = DEPLOYMENTS + "/deployment";
    String body = deployment("deployment", 3, "");
    ok(apply(path, "apply_test", body), 201);
    ok(send("PATCH", path, MERGE, "{\"spec\":{\"replicas\": 5}}"), 200);
    JsonNode conflict = failure(apply(path, "apply_test", body), 409, "Conflict");
    assertTrue(
        conflict.path("details").path("causes").size() >= 1, "at least one conflict: " + conflict);
    // The merge patch named no fieldManager: its manager is the User-Agent's product (the JDK's
    // client here, Go's in Kubernetes' test).
    assertEquals(
        "Apply failed with 1 conflict: conflict with \"Java-http-client\" using apps/v1:"
            + " .spec.replicas",
        conflict.path("message").asText());
    JsonNode cause = conflict.path("details").path("causes").get(0);
    assertEquals("FieldManagerConflict", cause.path("reason").asText());
    assertEquals(".spec.replicas", cause.path("field").asText());
    ok(forceApply(path, "apply_test", body), 200);
    assertEquals(3, get(path).path("spec").path("replicas").asInt());
  }

  /**
   * TestApplyGroupsManySeparateUpdates (its ValidatingWebhookConfiguration restated as a
   * ConfigMap): twenty managers' updates leave ten Update entries, the oldest grouped as {@code
   * ancient-changes}, after the one Apply entry.
   */
  @Test
  void manySeparateUpdatesAreGroupedAndCapped() throws Exception {
    String path = CONFIGMAPS + "/webhook";
    String body =
        """
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": {"name": "webhook", "labels": {"applier": "true"}}}
        """;
    JsonNode object = ok(apply(path, "apply_test", body), 201);
    for (int i = 0; i < 20; i++) {
      String unique = "updater" + i;
      object =
          ok(
              send(
                  "PATCH",
                  query(path, "fieldManager", unique),
                  MERGE,
                  "{\"metadata\":{\"labels\":{\"" + unique + "\":\"new\"}}}"),
              200);
    }
    ArrayNode entries = managedFields(object);
    assertEquals(11, entries.size(), entries.toString());
    assertEquals("apply_test", entries.get(0).path("manager").asText(), entries.toString());
    assertEquals("ancient-changes", entries.get(1).path("manager").asText(), entries.toString());
  }

  /** A ConfigMap's data of 9999 long keys, as the very-large-object tests build it. */
  private static String largeData(String first) {
    StringBuilder data = new StringBuilder("{").append(first);
    for (int i = 0; i < 9999; i++) {
      if (data.length() > 1) {
        data.append(',');
      }
      data.append("\"this-key-is-very-long-so-as-to-create-a-very-large-serialized-fieldset-")
          .append(i)
          .append("\":\"A\"");
    }
    return data.append('}').toString();
  }

  /**
   * TestCreateVeryLargeObject, TestUpdateVeryLargeObject and TestPatchVeryLargeObject, their
   * writes: an object near the size limit can be created, and a small one updated or patched to
   * that size, with its managed fields recorded.
   */
  @Test
  void veryLargeObjectsCanBeCreatedUpdatedAndPatched() throws Exception {
    JsonNode created =
        ok(
            send(
                "POST",
                CONFIGMAPS,
                "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                    + "\"large-create-test-cm\"},\"data\":"
                    + largeData("")
                    + "}"),
            201);
    assertEquals(9999, created.path("data").size());

    ok(
        send(
            "POST",
            CONFIGMAPS,
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                + "\"large-update-test-cm\"},\"data\":{\"k\":\"v\"}}"),
        201);
    ObjectNode toUpdate = (ObjectNode) get(CONFIGMAPS + "/large-update-test-cm");
    toUpdate.set("data", JSON.readTree(largeData("\"k\":\"v\"")));
    JsonNode updated =
        ok(
            send(
                "PUT",
                CONFIGMAPS + "/large-update-test-cm",
                "application/json",
                toUpdate.toString()),
            200);
    assertEquals(10000, updated.path("data").size());

    ok(
        send(
            "POST",
            CONFIGMAPS,
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                + "\"large-patch-test-cm\"},\"data\":{\"k\":\"v\"}}"),
        201);
    JsonNode patched =
        ok(
            send(
                "PATCH",
                CONFIGMAPS + "/large-patch-test-cm",
                MERGE,
                "{\"data\":" + largeData("\"k\":\"v\"") + "}"),
            200);
    assertEquals(10000, patched.path("data").size());
  }

  /**
   * TestCreateVeryLargeObject, its apply: once the object is near the limit, an apply (which must
   * keep the managed fields) fails.
   */
  @Test
  @Disabled(
      "kube-apiserver's refusal comes from etcd's request size limit (1.5 MiB): a write too large"
          + " for it is retried without managedFields, which an apply cannot do. The sample"
          + " server's in-memory storage has no size limit, so the apply succeeds.")
  void applyToVeryLargeObjectFails() throws Exception {
    ok(
        send(
            "POST",
            CONFIGMAPS,
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                + "\"large-create-test-cm\"},\"data\":"
                + largeData("")
                + "}"),
        201);
    HttpResponse<String> response =
        apply(
            CONFIGMAPS + "/large-create-test-cm",
            "apply_test",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                + "\"large-create-test-cm\",\"namespace\":\"default\"}}");
    assertTrue(response.statusCode() >= 400, response.statusCode() + " " + response.body());
  }

  /**
   * TestApplyManagedFields: the managed fields an apply and two merge patches leave, entry by
   * entry, the updater's two patches grouped with the later time.
   */
  @Test
  void applyManagedFieldsAreAsKubernetesRecordsThem() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    ok(apply(path, "apply_test", testConfigMap()), 201);
    ok(
        send(
            "PATCH",
            query(path, "fieldManager", "updater"),
            MERGE,
            "{\"data\":{\"new-key\": \"value\"}}"),
        200);
    Thread.sleep(1000);
    ok(
        send(
            "PATCH",
            query(path, "fieldManager", "updater"),
            MERGE,
            "{\"data\":{\"key\": \"new value\"}}"),
        200);
    JsonNode object = get(path);
    JsonNode metadata = object.path("metadata");
    Set<String> names = new HashSet<>();
    metadata.fieldNames().forEachRemaining(names::add);
    // kube-apiserver writes them in ObjectMeta's order (name, namespace, uid, resourceVersion,
    // creationTimestamp, labels, managedFields); the built-in ConfigMap, held as a JSON tree,
    // keeps the order they were set in, which differs.
    assertEquals(
        Set.of(
            "name",
            "namespace",
            "uid",
            "resourceVersion",
            "creationTimestamp",
            "labels",
            "managedFields"),
        names);
    assertEquals(JSON.readTree("{\"test-label\":\"test\"}"), metadata.path("labels"));
    assertEquals(
        JSON.readTree("{\"key\":\"new value\",\"new-key\":\"value\"}"), object.get("data"));
    ArrayNode entries = managedFields(object);
    assertEquals(2, entries.size(), entries.toString());
    JsonNode applied = entries.get(0);
    JsonNode updater = entries.get(1);
    List<String> entryNames = new ArrayList<>();
    applied.fieldNames().forEachRemaining(entryNames::add);
    assertEquals(
        List.of("manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1"),
        entryNames);
    assertEquals("apply_test", applied.path("manager").asText());
    assertEquals("Apply", applied.path("operation").asText());
    assertEquals("v1", applied.path("apiVersion").asText());
    assertEquals("FieldsV1", applied.path("fieldsType").asText());
    assertEquals(
        fields("{\"f:metadata\":{\"f:labels\":{\"f:test-label\":{}}}}"), applied.get("fieldsV1"));
    assertEquals("updater", updater.path("manager").asText());
    assertEquals("Update", updater.path("operation").asText());
    assertEquals("v1", updater.path("apiVersion").asText());
    assertEquals("FieldsV1", updater.path("fieldsType").asText());
    assertEquals(fields("{\"f:data\":{\"f:key\":{},\"f:new-key\":{}}}"), updater.get("fieldsV1"));
    assertNotEquals(applied.path("time").asText(), updater.path("time").asText());
  }

  /** TestApplyRemovesEmptyManagedFields: an apply that sets nothing leaves no entry. */
  @Test
  void applyOfNothingLeavesNoManagedFields() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    ok(apply(path, "apply_test", BARE_CONFIG_MAP), 201);
    ok(apply(path, "apply_test", BARE_CONFIG_MAP), 200);
    assertFalse(get(path).path("metadata").has("managedFields"), get(path).toString());
  }

  /** TestApplyRequiresFieldManager. */
  @Test
  void applyRequiresFieldManager() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    JsonNode invalid = failure(send("PATCH", path, APPLY, BARE_CONFIG_MAP), 422, "Invalid");
    assertEquals(
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for"
            + " apply patch",
        invalid.path("message").asText());
    failure(send("GET", path, null, null), 404, "NotFound");
    ok(apply(path, "apply_test", BARE_CONFIG_MAP), 201);
  }

  /** TestApplyRemoveContainerPort. */
  @Test
  void applyRemovesContainerPort() throws Exception {
    String path = DEPLOYMENTS + "/deployment";
    ok(
        apply(
            path,
            "apply_test",
            deployment(
                "deployment", 3, "\"ports\": [{\"containerPort\": 80, \"protocol\": \"TCP\"}]")),
        201);
    JsonNode deployment = ok(apply(path, "apply_test", deployment("deployment", 3, "")), 200);
    assertFalse(
        deployment.at("/spec/template/spec/containers/0").has("ports"), deployment.toString());
    assertFalse(
        get(path).at("/spec/template/spec/containers/0").has("ports"), get(path).toString());
  }

  /** TestApplyFailsWithVersionMismatch: an apply of another apiVersion is a 400. */
  @Test
  void applyFailsWithVersionMismatch() throws Exception {
    String path = DEPLOYMENTS + "/deployment";
    ok(apply(path, "apply_test", deployment("deployment", 3, "")), 201);
    String other =
        deployment("deployment", 100, "").replace("\"apps/v1\"", "\"extensions/v1beta\"");
    JsonNode mismatch = failure(apply(path, "apply_test", other), 400, "BadRequest");
    assertEquals(
        "invalid object type: extensions/v1beta, Kind=Deployment",
        mismatch.path("message").asText());
    assertEquals(3, get(path).path("spec").path("replicas").asInt());
  }

  /**
   * TestApplyConvertsManagedFieldsVersion (its {@code extensions/v1beta1} entry restated in {@code
   * apps/v1beta1}, the sample server's other Deployment version): an applier's entry recorded in
   * another version is replaced by its apply in this one.
   */
  @Test
  void applyConvertsManagedFieldsVersion() throws Exception {
    String created =
        """
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "deployment", "labels": {"app": "nginx"},
           "managedFields": [{
             "manager": "sidecar_controller", "operation": "Apply",
             "apiVersion": "apps/v1beta1",
             "fieldsV1": {
               "f:metadata": {"f:labels": {"f:sidecar_version": {}}},
               "f:spec": {"f:template": {"f: spec": {"f:containers": {
                 "k:{\\"name\\":\\"sidecar\\"}": {".": {}, "f:image": {}}}}}}}}]},
         "spec": {"selector": {"matchLabels": {"app": "nginx"}},
           "template": {"metadata": {"labels": {"app": "nginx"}},
             "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]}}}}
        """;
    ok(send("POST", DEPLOYMENTS, "application/json", created), 201);
    String sidecar =
        """
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "deployment", "labels": {"sidecar_version": "release"}},
         "spec": {"template": {"spec": {"containers": [
           {"name": "sidecar", "image": "sidecar:latest"}]}}}}
        """;
    ok(apply(DEPLOYMENTS + "/deployment", "sidecar_controller", sidecar), 200);
    JsonNode object = get(DEPLOYMENTS + "/deployment");
    ArrayNode entries = managedFields(object);
    assertEquals(2, entries.size(), entries.toString());
    JsonNode converted = null;
    for (JsonNode entry : entries) {
      if (entry.path("manager").asText().equals("sidecar_controller")
          && entry.path("apiVersion").asText().equals("apps/v1")) {
        converted = entry;
      }
    }
    assertTrue(converted != null, entries.toString());
    assertEquals("Apply", converted.path("operation").asText());
    assertEquals("FieldsV1", converted.path("fieldsType").asText());
    assertEquals(
        fields(
            "{\"f:metadata\":{\"f:labels\":{\"f:sidecar_version\":{}}},\"f:spec\":{\"f:template\":"
                + "{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"sidecar\\\"}\":"
                + "{\".\":{},\"f:image\":{},\"f:name\":{}}}}}}}"),
        converted.get("fieldsV1"));
  }

  private void assertCleared(String path, boolean labelsKept) throws Exception {
    JsonNode object = get(path);
    assertEquals(0, managedFields(object).size(), object.toString());
    if (labelsKept) {
      assertTrue(object.path("metadata").path("labels").size() >= 1, object.toString());
    }
  }

  /** TestClearManagedFieldsWithMergePatch. */
  @Test
  void clearManagedFieldsWithMergePatch() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    ok(apply(path, "apply_test", testConfigMap()), 201);
    ok(send("PATCH", path, MERGE, "{\"metadata\":{\"managedFields\": [{}]}}"), 200);
    assertCleared(path, false);
  }

  /** TestClearManagedFieldsWithStrategicMergePatch. */
  @Test
  void clearManagedFieldsWithStrategicMergePatch() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    ok(apply(path, "apply_test", testConfigMap()), 201);
    ok(send("PATCH", path, STRATEGIC, "{\"metadata\":{\"managedFields\": [{}]}}"), 200);
    assertCleared(path, true);
  }

  /** TestClearManagedFieldsWithJSONPatch. */
  @Test
  void clearManagedFieldsWithJsonPatch() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    ok(apply(path, "apply_test", testConfigMap()), 201);
    ok(
        send(
            "PATCH",
            path,
            JSON_PATCH,
            "[{\"op\": \"replace\", \"path\": \"/metadata/managedFields\", \"value\": [{}]}]"),
        200);
    assertCleared(path, false);
  }

  private static String testConfigMapWithManagedFields(String managedFields) {
    return """
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": {"name": "test-cm", "namespace": "default",
                      "managedFields": %s,
                      "labels": {"test-label": "test"}},
         "data": {"key": "value"}}
        """
        .formatted(managedFields);
  }

  /** TestClearManagedFieldsWithUpdate: a PUT without resourceVersion sending [{}]. */
  @Test
  void clearManagedFieldsWithUpdate() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    ok(apply(path, "apply_test", testConfigMap()), 201);
    ok(send("PUT", path, "application/json", testConfigMapWithManagedFields("[{}]")), 200);
    assertCleared(path, true);
  }

  /**
   * TestClearManagedFieldsWithUpdateEmptyList: a PUT sending an empty list clears the managed
   * fields too, and the updates after it (a merge patch of a label) are not tracked.
   */
  @Test
  void clearManagedFieldsWithUpdateOfEmptyListStopsTracking() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    ok(apply(path, "apply_test", testConfigMap()), 201);
    ok(send("PUT", path, "application/json", testConfigMapWithManagedFields("[]")), 200);
    ok(send("PATCH", path, MERGE, "{\"metadata\":{\"labels\": { \"test-label\": \"v1\" }}}"), 200);
    assertCleared(path, true);
  }

  private static final String INVALID_MANAGED_FIELDS =
      """
      [{"manager": "apply_test", "operation": "Apply", "apiVersion": "v1",
        "time": "2019-07-08T09:31:18Z", "fieldsType": "", "fieldsV1": {}}]
      """;

  /** TestErrorsDontFail: a create sending an entry with an empty fieldsType succeeds. */
  @Test
  void invalidManagedFieldsDoNotFailCreate() throws Exception {
    ok(
        send(
            "POST",
            query(CONFIGMAPS, "fieldManager", "apply_test"),
            "application/json",
            testConfigMapWithManagedFields(INVALID_MANAGED_FIELDS)),
        201);
  }

  /** TestErrorsDontFailUpdate. */
  @Test
  void invalidManagedFieldsDoNotFailUpdate() throws Exception {
    ok(
        send(
            "POST",
            query(CONFIGMAPS, "fieldManager", "apply_test"),
            "application/json",
            testConfigMap()),
        201);
    ok(
        send(
            "PUT",
            query(CONFIGMAPS + "/test-cm", "fieldManager", "apply_test"),
            "application/json",
            testConfigMapWithManagedFields(INVALID_MANAGED_FIELDS)),
        200);
  }

  /** TestErrorsDontFailPatch. */
  @Test
  void invalidManagedFieldsDoNotFailPatch() throws Exception {
    ok(
        send(
            "POST",
            query(CONFIGMAPS, "fieldManager", "apply_test"),
            "application/json",
            testConfigMap()),
        201);
    ok(
        send(
            "PATCH",
            query(CONFIGMAPS + "/test-cm", "fieldManager", "apply_test"),
            JSON_PATCH,
            "[{\"op\": \"replace\", \"path\": \"/metadata/managedFields\", \"value\": "
                + INVALID_MANAGED_FIELDS
                + "}]"),
        200);
  }

  /**
   * TestApplyDoesNotChangeManagedFieldsViaSubresources (its Pod restated as a Deployment): managed
   * fields sent to the status subresource are ignored; the status write adds its own entry.
   */
  @Test
  void subresourceWritesDoNotChangeManagedFields() throws Exception {
    String path = DEPLOYMENTS + "/just-a-deployment";
    JsonNode live = ok(apply(path, "apply_test", deployment("just-a-deployment", 1, "")), 201);
    String update =
        """
        {"metadata": {"managedFields": [{
           "manager": "testing", "operation": "Update", "apiVersion": "apps/v1",
           "fieldsType": "FieldsV1",
           "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {
             "k:{\\"name\\":\\"testing\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}}]},
         "status": {"conditions": [{"type": "MyStatus", "status": "true"}]}}
        """;
    JsonNode updated =
        ok(
            send(
                "PATCH",
                query(path + "/status", "fieldManager", "update_managedfields_test"),
                MERGE,
                update),
            200);
    ArrayNode before = managedFields(live);
    ArrayNode after = managedFields(updated);
    assertEquals(1, before.size(), before.toString());
    assertEquals(2, after.size(), after.toString());
    assertEquals(before.get(0), after.get(0));
    assertEquals("update_managedfields_test", after.get(1).path("manager").asText());
    assertEquals("status", after.get(1).path("subresource").asText());
  }

  /**
   * TestApplyUnsetExclusivelyOwnedFields: fields only the applier owned are removed when it stops
   * applying them (its pod's hostname restated as {@code minReadySeconds}); replicas, which
   * Kubernetes defaults, come back as their default, 1.
   */
  @Test
  void unsetExclusivelyOwnedFieldsAreRemoved() throws Exception {
    String path = DEPLOYMENTS + "/deployment-exclusive-unset";
    String full =
        deployment("deployment-exclusive-unset", 3, "")
            .replace("\"replicas\": 3,", "\"replicas\": 3, \"minReadySeconds\": 5,");
    ok(apply(path, "apply_test", full), 201);
    JsonNode patched =
        ok(apply(path, "apply_test", deployment("deployment-exclusive-unset", null, "")), 200);
    assertEquals(1, patched.path("spec").path("replicas").asInt(), patched.toString());
    assertFalse(patched.path("spec").has("minReadySeconds"), patched.toString());
  }

  /** TestApplyUnsetSharedFields: fields another applier also owns stay. */
  @Test
  void unsetSharedFieldsStay() throws Exception {
    String path = DEPLOYMENTS + "/deployment-shared-unset";
    String full =
        deployment("deployment-shared-unset", 3, "")
            .replace("\"replicas\": 3,", "\"replicas\": 3, \"minReadySeconds\": 5,");
    for (String manager : List.of("shared_owner_1", "shared_owner_2")) {
      ok(apply(path, manager, full));
    }
    JsonNode patched =
        ok(apply(path, "shared_owner_1", deployment("deployment-shared-unset", null, "")), 200);
    assertEquals(3, patched.path("spec").path("replicas").asInt(), patched.toString());
    assertEquals(5, patched.path("spec").path("minReadySeconds").asInt(), patched.toString());
  }

  /**
   * TestApplyCanTransferFieldOwnershipToController: a controller's update takes replicas; the
   * applier then leaves them out, and the controller's value stays.
   */
  @Test
  void fieldOwnershipTransfersToController() throws Exception {
    String path = DEPLOYMENTS + "/deployment-shared-map-item-removal";
    ObjectNode applied =
        (ObjectNode)
            ok(
                apply(
                    path, "test_applier", deployment("deployment-shared-map-item-removal", 3, "")),
                201);
    ((ObjectNode) applied.path("spec")).put("replicas", 4);
    ok(
        send(
            "PUT",
            query(path, "fieldManager", "test_updater"),
            "application/json",
            applied.toString()),
        200);
    JsonNode patched =
        ok(
            apply(path, "test_applier", deployment("deployment-shared-map-item-removal", null, "")),
            200);
    assertEquals(4, patched.path("spec").path("replicas").asInt(), patched.toString());
  }

  /**
   * TestApplyCanRemoveMapItemsContributedToByControllers (the controller's workingDir, a field the
   * sample container lacks, restated as imagePullPolicy): a list item the applier dropped goes,
   * though a controller changed a field of it.
   */
  @Test
  void applierRemovesListItemsControllersContributedTo() throws Exception {
    String path = DEPLOYMENTS + "/deployment-shared-map-item-removal";
    ObjectNode applied =
        (ObjectNode)
            ok(
                apply(
                    path,
                    "test_applier",
                    deployment("deployment-shared-map-item-removal", null, "")),
                201);
    ((ObjectNode) applied.at("/spec/template/spec/containers/0")).put("imagePullPolicy", "Always");
    ok(
        send(
            "PUT",
            query(path, "fieldManager", "test_updater"),
            "application/json",
            applied.toString()),
        200);
    String other =
        deployment("deployment-shared-map-item-removal", 3, "")
            .replace("\"name\": \"nginx\", \"image\"", "\"name\": \"other-container\", \"image\"");
    JsonNode patched = ok(apply(path, "test_applier", other), 200);
    JsonNode containers = patched.at("/spec/template/spec/containers");
    assertEquals(1, containers.size(), patched.toString());
    assertEquals("other-container", containers.get(0).path("name").asText());
  }

  /**
   * TestDefaultMissingKeys: a key field left out is keyed by its default, so a port applied without
   * a protocol is the TCP one, and a second applier naming it with {@code TCP} and another name
   * conflicts once.
   */
  @Test
  void missingKeyFieldsTakeTheirDefault() throws Exception {
    String path = DEPLOYMENTS + "/deployment-shared-map-item-removal";
    ok(
        apply(
            path,
            "test_applier",
            deployment(
                "deployment-shared-map-item-removal",
                null,
                "\"ports\": [{\"name\": \"foo\", \"containerPort\": 80}]")),
        201);
    JsonNode conflict =
        failure(
            apply(
                path,
                "test_applier_conflict",
                deployment(
                    "deployment-shared-map-item-removal",
                    null,
                    "\"ports\": [{\"name\": \"bar\", \"containerPort\": 80,"
                        + " \"protocol\": \"TCP\"}]")),
            409,
            "Conflict");
    assertEquals(1, conflict.path("details").path("causes").size(), conflict.toString());
    assertEquals(
        ".spec.template.spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"]"
            + ".name",
        conflict.at("/details/causes/0/field").asText());
    assertEquals(
        "conflict with \"test_applier\"", conflict.at("/details/causes/0/message").asText());
  }

  /**
   * TestUpgradeClientSideToServerSideApply: kubectl's server-side apply over a client-side applied
   * object conflicts on a field whose value differs from the last-applied configuration, and not on
   * one it drops.
   */
  @Test
  void upgradeClientSideToServerSideApply() throws Exception {
    String created =
        """
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "my-deployment", "labels": {"app": "my-app"},
           "annotations": {"kubectl.kubernetes.io/last-applied-configuration":
             "{\\"kind\\":\\"Deployment\\",\\"apiVersion\\":\\"apps/v1\\",\\"metadata\\":{\\"name\\":\\"my-deployment\\",\\"labels\\":{\\"app\\":\\"my-app\\"}},\\"spec\\":{\\"replicas\\": 3,\\"template\\":{\\"metadata\\":{\\"labels\\":{\\"app\\":\\"my-app\\"}},\\"spec\\":{\\"containers\\":[{\\"name\\":\\"my-c\\",\\"image\\":\\"my-image\\"}]}}}}\\n"}},
         "spec": {"replicas": 100000, "selector": {"matchLabels": {"app": "my-app"}},
           "template": {"metadata": {"labels": {"app": "my-app"}},
             "spec": {"containers": [{"name": "my-c", "image": "my-image"}]}}}}
        """;
    ok(send("POST", DEPLOYMENTS, "application/json", created), 201);
    String path = DEPLOYMENTS + "/my-deployment";
    String conflicting =
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: my-deployment
          labels:
            app: my-new-label
        spec:
          replicas: 3 # expect conflict
          template:
            metadata:
              labels:
                app: my-app
            spec:
              containers:
              - name: my-c
                image: my-image
        """;
    failure(apply(path, "kubectl", conflicting), 409, "Conflict");
    String upgraded =
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: my-deployment
          labels:
            app: my-new-label
        spec:
          template:
            metadata:
              labels:
                app: my-app
            spec:
              containers:
              - name: my-c
                image: my-image-new
        """;
    ok(apply(path, "kubectl", upgraded), 200);
    JsonNode object = get(path);
    assertEquals(100000, object.path("spec").path("replicas").asInt(), object.toString());
    assertEquals(
        "my-image-new",
        object.at("/spec/template/spec/containers/0/image").asText(),
        object.toString());
  }

  /**
   * TestRenamingAppliedFieldManagers (its Pod restated as a ConfigMap): two appliers' entries
   * renamed to one manager by an update are merged into one Apply entry, the later one's fields.
   */
  @Test
  void renamingAppliedFieldManagers() throws Exception {
    String path = CONFIGMAPS + "/just-a-cm";
    ok(
        apply(
            path,
            "multi_manager_one",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"just-a-cm\","
                + "\"labels\":{\"a\":\"one\"}},\"data\":{\"k\":\"v\"}}"),
        201);
    ok(
        apply(
            path,
            "multi_manager_two",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"labels\":{\"b\":\"two\"}}}"),
        200);
    ObjectNode object = (ObjectNode) get(path);
    assertEquals(
        JSON.readTree("{\"a\":\"one\",\"b\":\"two\"}"), object.path("metadata").path("labels"));
    for (JsonNode entry : managedFields(object)) {
      ((ObjectNode) entry).put("manager", "multi_manager");
    }
    JsonNode updated = ok(send("PUT", path, "application/json", object.toString()), 200);
    ArrayNode entries = managedFields(updated);
    assertEquals(1, entries.size(), entries.toString());
    assertEquals("multi_manager", entries.get(0).path("manager").asText());
    assertEquals("Apply", entries.get(0).path("operation").asText());
    assertEquals(
        fields("{\"f:metadata\":{\"f:labels\":{\"f:b\":{}}}}"), entries.get(0).get("fieldsV1"));
  }

  /**
   * TestRenamingUpdatedFieldManagers (its Pod restated as a ConfigMap): two updaters' entries
   * renamed to one manager are merged into one Update entry.
   */
  @Test
  void renamingUpdatedFieldManagers() throws Exception {
    String path = CONFIGMAPS + "/just-a-cm";
    ok(
        apply(
            path,
            "first",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"just-a-cm\"},"
                + "\"data\":{\"k\":\"v\"}}"),
        201);
    ok(
        send(
            "PATCH",
            query(path, "fieldManager", "multi_manager_one"),
            MERGE,
            "{\"metadata\":{\"labels\":{\"a\":\"one\"}}}"),
        200);
    ok(
        send(
            "PATCH",
            query(path, "fieldManager", "multi_manager_two"),
            MERGE,
            "{\"metadata\":{\"labels\":{\"b\":\"two\"}}}"),
        200);
    ObjectNode object = (ObjectNode) get(path);
    assertEquals(
        JSON.readTree("{\"a\":\"one\",\"b\":\"two\"}"), object.path("metadata").path("labels"));
    for (JsonNode entry : managedFields(object)) {
      ((ObjectNode) entry).put("manager", "multi_manager");
    }
    JsonNode updated = ok(send("PUT", path, "application/json", object.toString()), 200);
    ArrayNode entries = managedFields(updated);
    assertEquals(2, entries.size(), entries.toString());
    assertEquals("multi_manager", entries.get(1).path("manager").asText());
    assertEquals("Update", entries.get(1).path("operation").asText());
    assertEquals(
        fields("{\"f:metadata\":{\"f:labels\":{\"f:b\":{}}}}"), entries.get(1).get("fieldsV1"));
  }

  /**
   * TestDroppingSubresourceField (its Pod restated as a Deployment): an apply to the main resource
   * and one to status by the same manager are two entries; with their subresource dropped by an
   * update, they are one, the later one's fields. (The Pod's status apply there sets a label; a
   * Deployment's status endpoint resets the labels in Kubernetes too, so here it sets a condition.)
   */
  @Test
  void droppingSubresourceMergesApplyEntries() throws Exception {
    String path = DEPLOYMENTS + "/just-a-deployment";
    ok(apply(path, "first", deployment("just-a-deployment", 1, "")), 201);
    ok(
        apply(
            path,
            "label_manager",
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"labels\":{\"a\":\"one\"}}}"),
        200);
    ok(
        apply(
            path + "/status",
            "label_manager",
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"status\":{\"conditions\":"
                + "[{\"type\":\"MyStatus\",\"status\":\"True\"}]}}"),
        200);
    ObjectNode object = (ObjectNode) get(path);
    assertEquals(
        JSON.readTree("{\"app\":\"nginx\",\"a\":\"one\"}"), object.path("metadata").path("labels"));
    assertEquals("MyStatus", object.at("/status/conditions/0/type").asText());
    ArrayNode entries = managedFields(object);
    assertEquals(3, entries.size(), entries.toString());
    assertEquals("label_manager", entries.get(1).path("manager").asText());
    assertEquals("Apply", entries.get(1).path("operation").asText());
    assertFalse(entries.get(1).has("subresource"), entries.toString());
    assertEquals("label_manager", entries.get(2).path("manager").asText());
    assertEquals("Apply", entries.get(2).path("operation").asText());
    assertEquals("status", entries.get(2).path("subresource").asText());
    for (JsonNode entry : entries) {
      ((ObjectNode) entry).remove("subresource");
    }
    JsonNode updated = ok(send("PUT", path, "application/json", object.toString()), 200);
    ArrayNode after = managedFields(updated);
    assertEquals(2, after.size(), after.toString());
    assertEquals("label_manager", after.get(1).path("manager").asText());
    assertEquals("Apply", after.get(1).path("operation").asText());
    assertEquals(
        fields(
            "{\"f:status\":{\"f:conditions\":{\"k:{\\\"type\\\":\\\"MyStatus\\\"}\":"
                + "{\".\":{},\"f:status\":{},\"f:type\":{}}}}}"),
        after.get(1).get("fieldsV1"));
  }

  /**
   * TestDroppingSubresourceFromSpecField (its Pod's phase restated as a Deployment's
   * readyReplicas): the same for two Update entries. A Deployment is created with {@code status:
   * {}}, as kube-apiserver writes it, so the status patch owns the field it sets, not the status
   * itself ({@code "."}), as Kubernetes' test expects of the Pod's phase.
   */
  @Test
  void droppingSubresourceMergesUpdateEntries() throws Exception {
    String path = DEPLOYMENTS + "/just-a-deployment";
    ok(apply(path, "first", deployment("just-a-deployment", 1, "")), 201);
    ok(
        send(
            "PATCH",
            query(path, "fieldManager", "manager"),
            MERGE,
            "{\"metadata\":{\"labels\":{\"a\":\"two\"}}}"),
        200);
    ok(
        send(
            "PATCH",
            query(path + "/status", "fieldManager", "manager"),
            MERGE,
            "{\"status\":{\"readyReplicas\":1}}"),
        200);
    ObjectNode object = (ObjectNode) get(path);
    assertEquals("two", object.path("metadata").path("labels").path("a").asText());
    assertEquals(1, object.path("status").path("readyReplicas").asInt());
    ArrayNode entries = managedFields(object);
    assertEquals(3, entries.size(), entries.toString());
    assertEquals("manager", entries.get(1).path("manager").asText());
    assertEquals("Update", entries.get(1).path("operation").asText());
    assertFalse(entries.get(1).has("subresource"), entries.toString());
    assertEquals("manager", entries.get(2).path("manager").asText());
    assertEquals("Update", entries.get(2).path("operation").asText());
    assertEquals("status", entries.get(2).path("subresource").asText());
    for (JsonNode entry : entries) {
      ((ObjectNode) entry).remove("subresource");
    }
    JsonNode updated = ok(send("PUT", path, "application/json", object.toString()), 200);
    ArrayNode after = managedFields(updated);
    assertEquals(2, after.size(), after.toString());
    assertEquals("manager", after.get(1).path("manager").asText());
    assertEquals("Update", after.get(1).path("operation").asText());
    assertEquals(fields("{\"f:status\":{\"f:readyReplicas\":{}}}"), after.get(1).get("fieldsV1"));
  }

  /** TestSubresourceField: a scale write is an Update entry with subresource scale. */
  @Test
  void scaleWriteIsRecordedUnderTheScaleSubresource() throws Exception {
    String path = DEPLOYMENTS + "/deployment";
    ok(apply(path, "manager", deployment("deployment", 3, "")), 201);
    ok(
        send(
            "PATCH",
            query(path + "/scale", "fieldManager", "manager"),
            MERGE,
            "{\"spec\":{\"replicas\":32}}"),
        200);
    ArrayNode entries = managedFields(get(path));
    assertEquals(2, entries.size(), entries.toString());
    assertEquals("manager", entries.get(0).path("manager").asText());
    assertEquals("Apply", entries.get(0).path("operation").asText());
    assertFalse(entries.get(0).has("subresource"), entries.toString());
    assertEquals("manager", entries.get(1).path("manager").asText());
    assertEquals("Update", entries.get(1).path("operation").asText());
    assertEquals("scale", entries.get(1).path("subresource").asText());
    assertEquals(fields("{\"f:spec\":{\"f:replicas\":{}}}"), entries.get(1).get("fieldsV1"));
  }

  /**
   * TestDuplicatesInAssociativeLists (its DaemonSet restated as the sample's Rollout, whose pod
   * template is a Deployment's, the manifest's defaulted fields left out): an applier adding items
   * to lists holding duplicate keys (ports keyed by their default protocol) owns only its items.
   * (Kubernetes accepts such duplicates in its own kinds; the built-in Deployment here refuses them
   * as its schema's list-map keys, which differs.)
   */
  @Test
  void applyNextToDuplicatesInAssociativeLists() throws Exception {
    String created =
        """
        {"apiVersion": "demo.example.dev/v1", "kind": "Rollout",
         "metadata": {"name": "example", "labels": {"app": "example"}},
         "spec": {"selector": {"matchLabels": {"app": "example"}},
           "template": {"metadata": {"labels": {"app": "example"}},
             "spec": {"containers": [{"name": "nginx", "image": "nginx",
               "ports": [{"name": "port0", "containerPort": 1},
                         {"name": "port1", "containerPort": 80},
                         {"name": "port2", "containerPort": 80}],
               "env": [{"name": "ENV0", "value": "/env0value"},
                       {"name": "PATH", "value": "/bin"},
                       {"name": "PATH", "value": "$PATH:/usr/bin"}]}]}}}}
        """;
    JsonNode object =
        ok(
            send("POST", query(ROLLOUTS, "fieldManager", "create"), "application/json", created),
            201);
    assertEquals(3, object.at("/spec/template/spec/containers/0/env").size());
    assertEquals(3, object.at("/spec/template/spec/containers/0/ports").size());
    JsonNode create = entry(object, "create", "Update").get("fieldsV1");
    // The creator owns the template's labels, not the null creationTimestamp the JSON shows.
    assertEquals(
        fields("{\".\":{},\"f:app\":{}}"),
        create.at("/f:spec/f:template/f:metadata/f:labels"),
        create.toString());
    assertFalse(
        create.at("/f:spec/f:template/f:metadata").has("f:creationTimestamp"), create.toString());
    JsonNode container = create.at("/f:spec/f:template/f:spec/f:containers/k:{\"name\":\"nginx\"}");
    assertEquals(fields("{}"), container.at("/f:env/k:{\"name\":\"PATH\"}"), create.toString());
    assertEquals(
        fields("{}"),
        container.at("/f:ports/k:{\"containerPort\":80,\"protocol\":\"TCP\"}"),
        create.toString());
    String applied =
        """
        apiVersion: demo.example.dev/v1
        kind: Rollout
        metadata:
          name: example
          labels:
            app: example
        spec:
          selector:
            matchLabels:
              app: example
          template:
            spec:
              containers:
                - name: nginx
                  image: nginx
                  ports:
                    - name: port3
                      containerPort: 443
                  env:
                    - name: HOME
                      value: "/usr/home"
        """;
    object = ok(apply(ROLLOUTS + "/example", "apply", applied), 200);
    assertEquals(4, object.at("/spec/template/spec/containers/0/env").size());
    assertEquals(4, object.at("/spec/template/spec/containers/0/ports").size());
    assertEquals(
        fields(
            """
            {"f:metadata": {"f:labels": {"f:app": {}}},
             "f:spec": {"f:selector": {}, "f:template": {"f:spec": {"f:containers": {
               "k:{\\"name\\":\\"nginx\\"}": {".": {},
                 "f:env": {"k:{\\"name\\":\\"HOME\\"}": {".": {}, "f:name": {}, "f:value": {}}},
                 "f:image": {}, "f:name": {},
                 "f:ports": {"k:{\\"containerPort\\":443,\\"protocol\\":\\"TCP\\"}": {
                   ".": {}, "f:containerPort": {}, "f:name": {}}}}}}}}}
            """),
        entry(object, "apply", "Apply").get("fieldsV1"));
  }

  // ---- status_test.go, reset_fields_test.go, apply_wipe_test.go

  /**
   * TestApplyStatus (for the sample server's Deployments): a forced apply to the status adds its
   * manager beside the creator's.
   */
  @Test
  void applyStatus() throws Exception {
    String path = DEPLOYMENTS + "/status-test";
    ok(apply(path, "create_test", deployment("status-test", 1, "")), 201);
    String status =
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: status-test
        status:
          conditions:
          - type: MyStatus
            status: "True"
        """;
    JsonNode object = ok(forceApply(path + "/status", "apply_status_test", status), 200);
    JsonNode statusEntry = entry(object, "apply_status_test", "Apply");
    assertEquals("status", statusEntry.path("subresource").asText());
    assertEquals(
        fields(
            "{\"f:status\":{\"f:conditions\":{\"k:{\\\"type\\\":\\\"MyStatus\\\"}\":"
                + "{\".\":{},\"f:status\":{},\"f:type\":{}}}}}"),
        statusEntry.get("fieldsV1"));
    entry(object, "create_test", "Apply");
    assertEquals("MyStatus", object.at("/status/conditions/0/type").asText());
    ok(send("DELETE", path, null, null), 200);
  }

  /**
   * TestApplyResetFields (for Deployments): the main resource's applier owns no status and the
   * status applier no spec, so neither conflicts with the other; each re-applying the other's
   * configuration to its own endpoint does.
   */
  @Test
  void resetFieldsKeepSpecAndStatusAppliersApart() throws Exception {
    String path = DEPLOYMENTS + "/reset-fields";
    String obj1 =
        deployment("reset-fields", 1, "")
            .replaceFirst(
                "\\}\\s*$",
                ", \"status\": {\"conditions\": [{\"type\": \"MyStatus\", \"status\": \"True\"}]}}");
    String obj2 =
        deployment("reset-fields", 1, "")
            .replace(
                "\"labels\": {\"app\": \"nginx\"}},\n",
                "\"labels\": {\"app\": \"nginx\", \"a\": \"c\"}},\n")
            .replace("\"nginx:latest\"", "\"registry.k8s.io/etcd:3.5\"")
            .replaceFirst(
                "\\}\\s*$",
                ", \"status\": {\"conditions\": [{\"type\": \"MyStatus\", \"status\": \"False\"}]}}");
    assertNotEquals(obj1, obj2);
    ok(apply(path, "fieldmanager1", obj1), 201);
    ok(apply(path + "/status", "fieldmanager2", obj2), 200);
    JsonNode specConflict = failure(apply(path, "fieldmanager2", obj2), 409, "Conflict");
    assertTrue(specConflict.path("message").asText().contains("conflict"), specConflict.toString());
    JsonNode statusConflict =
        failure(apply(path + "/status", "fieldmanager1", obj1), 409, "Conflict");
    assertTrue(
        statusConflict.path("message").asText().contains("conflict"), statusConflict.toString());
  }

  /**
   * TestWipeManagedFieldsForPod (its Pod restated as a Deployment): the status of an apply to the
   * main resource is reset, and its manager owns none of it.
   */
  @Test
  void applyToMainResourceWipesStatus() throws Exception {
    String path = DEPLOYMENTS + "/with-status";
    String body =
        """
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "with-status"},
         "spec": {"selector": {"matchLabels": {"app": "a"}},
           "template": {"metadata": {"labels": {"app": "a"}},
             "spec": {"containers": [{"name": "test-container", "image": "test-image"}]}}},
         "status": {"readyReplicas": 7}}
        """;
    ok(apply(path, "apply_test", body), 201);
    JsonNode object = get(path);
    assertFalse(object.path("status").has("readyReplicas"), object.toString());
    JsonNode owned = managedFields(object).get(0).get("fieldsV1");
    assertFalse(owned.has("f:status"), owned.toString());
    assertEquals(
        fields(
            "{\"k:{\\\"name\\\":\\\"test-container\\\"}\":{\".\":{},\"f:image\":{},"
                + "\"f:name\":{}}}"),
        owned.at("/f:spec/f:template/f:spec/f:containers"));
  }

  /**
   * TestApplyWipeManagedFields (for Deployments): an object created with a status, then an unforced
   * status apply, does not conflict with the creator.
   */
  @Test
  void unforcedStatusApplyDoesNotConflictWithCreator() throws Exception {
    String body =
        deployment("wipe", 1, "")
            .replaceFirst(
                "\\}\\s*$",
                ", \"status\": {\"conditions\": [{\"type\": \"MyStatus\", \"status\": \"True\"}]}}");
    ok(
        send("POST", query(DEPLOYMENTS, "fieldManager", "create_test"), "application/json", body),
        201);
    ok(
        apply(
            DEPLOYMENTS + "/wipe/status",
            "apply_status_test",
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"wipe\"},"
                + "\"status\":{\"conditions\":[{\"type\":\"MyStatus\",\"status\":\"True\"}]}}"),
        200);
  }

  // ---- managedfields_parsing_test.go

  /**
   * TestManagedFieldsTrailingData (over JSON): managed fields that cannot be parsed are dropped on
   * create (the server records its own) and on update (the stored ones are kept and updated). Its
   * first ConfigMap's {@code data: {}}, which Go's decoding drops, is left out: the built-in
   * ConfigMap, held as a JSON tree, keeps an empty map and records its creator owning it.
   */
  @Test
  void unparsableManagedFieldsAreReplaced() throws Exception {
    String[] broken = {
      "{\"f:metadata\":{\"f:annotations\":{\"f:test.example.com/myannotation\":{}}},"
          + "\"f:data\":{\"f:x\":1}}",
      "{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"example.com/foo\\\" {\\\"trailing\\\":"
          + "\\\"data\\\"}\":{}}}}",
      "{\"f:metadata\":{\"f:ownerReferences\":{\"k:{\\\"uid\\\":\\\"abc\\\"} {\\\"trailing\\\":"
          + "\\\"data\\\"}\":{}}}}",
    };
    for (int i = 0; i < broken.length; i++) {
      String invalid =
          "[{\"manager\":\"trailing-data-test\",\"operation\":\"Update\",\"apiVersion\":\"v1\","
              + "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":"
              + broken[i]
              + ",\"time\":\"2024-01-01T00:00:00Z\"}]";
      JsonNode empty =
          ok(
              send(
                  "POST",
                  CONFIGMAPS,
                  "application/json",
                  "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                      + "\"mf-create-empty-"
                      + i
                      + "\",\"managedFields\":"
                      + invalid
                      + "}}"),
              201);
      assertEquals(0, managedFields(empty).size(), empty.toString());
      JsonNode data =
          ok(
              send(
                  "POST",
                  CONFIGMAPS,
                  "application/json",
                  "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                      + "\"mf-create-data-"
                      + i
                      + "\",\"managedFields\":"
                      + invalid
                      + "},\"data\":{\"foo\":\"bar\"}}"),
              201);
      assertEquals(1, managedFields(data).size(), data.toString());
      assertEquals(
          fields("{\"f:data\":{\".\":{},\"f:foo\":{}}}"),
          managedFields(data).get(0).get("fieldsV1"));
      String name = "mf-update-" + i;
      ObjectNode created =
          (ObjectNode)
              ok(
                  send(
                      "POST",
                      CONFIGMAPS,
                      "application/json",
                      "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                          + name
                          + "\"},\"data\":{\"foo\":\"bar\"}}"),
                  201);
      ((ObjectNode) created.path("data")).put("foo", "baz").put("new-key", "new-value");
      ((ObjectNode) created.path("metadata")).set("managedFields", JSON.readTree(invalid));
      JsonNode updated =
          ok(send("PUT", CONFIGMAPS + "/" + name, "application/json", created.toString()), 200);
      assertEquals(1, managedFields(updated).size(), updated.toString());
      assertEquals(
          fields("{\"f:data\":{\".\":{},\"f:foo\":{},\"f:new-key\":{}}}"),
          managedFields(updated).get(0).get("fieldsV1"));
    }
  }

  // ---- scale_test.go

  /**
   * TestScaleAllResources (for Deployments): scale writes and applies to the scale subresource take
   * and share the ownership of replicas with the appliers of the Deployment.
   */
  @Test
  void scaleSubresourceSharesReplicasOwnership() throws Exception {
    scaleSharesReplicasOwnership(
        DEPLOYMENTS,
        deployment("test", 1, "").replace(", \"labels\": {\"app\": \"nginx\"}},", "},"),
        "apps/v1");
  }

  /**
   * TestScaleAllResources for a kind modelled in Java with a scale subresource, the sample's
   * Rollout.
   */
  @Test
  void scaleSubresourceOfAKindModelledInJavaSharesReplicasOwnership() throws Exception {
    scaleSharesReplicasOwnership(ROLLOUTS, rollout("test", 1), "demo.example.dev/v1");
  }

  private void scaleSharesReplicasOwnership(String collection, String valid, String apiVersion)
      throws Exception {
    String path = collection + "/test";
    ok(apply(path, "apply_test", valid), 201);
    JsonNode object = get(path);
    assertEquals(1, object.path("spec").path("replicas").asInt());
    assertEquals(Set.of("apply_test"), replicasOwners(object));

    ok(
        send(
            "PATCH",
            query(path + "/scale", "fieldManager", "scale_test"),
            MERGE,
            "{\"spec\":{\"replicas\": 5}}"),
        200);
    object = get(path);
    assertEquals(5, object.path("spec").path("replicas").asInt());
    assertEquals(Set.of("scale_test"), replicasOwners(object));

    failure(apply(path, "apply_test", valid), 409, "Conflict");
    ok(forceApply(path, "apply_test", valid), 200);
    object = get(path);
    assertEquals(1, object.path("spec").path("replicas").asInt());
    assertEquals(Set.of("apply_test"), replicasOwners(object));

    String scale17 =
        "{\"kind\":\"Scale\",\"apiVersion\":\"autoscaling/v1\",\"metadata\":{\"name\":\"test\","
            + "\"namespace\":\"default\"},\"spec\":{\"replicas\":17}}";
    JsonNode conflict = failure(apply(path + "/scale", "apply_scale", scale17), 409, "Conflict");
    assertTrue(conflict.path("message").asText().contains("apply_test"), conflict.toString());
    assertEquals(
        "Apply failed with 1 conflict: conflict with \"apply_test\": .spec.replicas",
        conflict.path("message").asText());
    ok(forceApply(path + "/scale", "apply_scale", scale17), 200);
    object = get(path);
    assertEquals(17, object.path("spec").path("replicas").asInt());
    assertEquals(Set.of("apply_scale"), replicasOwners(object));

    ok(
        send(
            "PUT",
            query(path + "/scale", "fieldManager", "replace_test"),
            "application/json",
            scale17.replace("17", "7")),
        200);
    object = get(path);
    assertEquals(7, object.path("spec").path("replicas").asInt());
    assertEquals(Set.of("replace_test"), replicasOwners(object));

    ok(apply(path + "/scale", "co_owning_test", scale17.replace("17", "7")), 200);
    object = get(path);
    assertEquals(7, object.path("spec").path("replicas").asInt());
    assertEquals(Set.of("replace_test", "co_owning_test"), replicasOwners(object));

    ok(
        send(
            "PATCH",
            query(path + "/scale", "fieldManager", "scale_test"),
            MERGE,
            "{\"spec\":{\"replicas\": 5}}"),
        200);
    object = get(path);
    assertEquals(5, object.path("spec").path("replicas").asInt());
    assertEquals(Set.of("scale_test"), replicasOwners(object));

    // The applier's entry: an Apply of the scale subresource, in the object's version.
    ok(forceApply(path + "/scale", "apply_scale", scale17), 200);
    JsonNode applier = entry(get(path), "apply_scale", "Apply");
    assertEquals(apiVersion, applier.path("apiVersion").asText());
    assertEquals("scale", applier.path("subresource").asText());
    assertEquals(fields("{\"f:spec\":{\"f:replicas\":{}}}"), applier.get("fieldsV1"));
    // A scale apply does not create: the object must exist.
    failure(
        apply(collection + "/missing/scale", "apply_scale", scale17.replace("test", "missing")),
        404,
        "NotFound");
  }

  /**
   * TestScaleUpdateOnlyStatus: a scale patch of the status alone changes neither value nor owner.
   */
  @Test
  void scalePatchOfStatusOnlyChangesNothing() throws Exception {
    String path = DEPLOYMENTS + "/test";
    ok(apply(path, "apply_test", deployment("test", 1, "")), 201);
    ok(
        send(
            "PATCH",
            query(path + "/scale", "fieldManager", "scale_test"),
            MERGE,
            "{\"status\":{\"replicas\": 42}}"),
        200);
    JsonNode object = get(path);
    assertEquals(1, object.path("spec").path("replicas").asInt());
    assertEquals(Set.of("apply_test"), replicasOwners(object));
  }

  // ---- preconditions in the applied configuration

  /**
   * An applied configuration naming a resourceVersion or uid (beside
   * TestCreateOnApplyFailsWithUID): as in kube-apiserver, the merged object keeps them, so a stale
   * resourceVersion is a 409 of optimistic concurrency, the current ones apply, and another uid is
   * refused as an immutable field (422).
   */
  @Test
  void applyWithResourceVersionAndUidPreconditions() throws Exception {
    String path = CONFIGMAPS + "/test-cm";
    JsonNode created = ok(apply(path, "apply_test", testConfigMap()), 201);
    String rv = resourceVersion(created);
    String uid = created.path("metadata").path("uid").asText();
    ok(send("PATCH", path, MERGE, "{\"data\":{\"other\":\"x\"}}"), 200);
    String stale =
        testConfigMap()
            .replace("\"namespace\": \"default\",", "\"resourceVersion\": \"" + rv + "\",");
    failure(apply(path, "apply_test", stale), 409, "Conflict");
    String current =
        testConfigMap()
            .replace(
                "\"namespace\": \"default\",",
                "\"resourceVersion\": \""
                    + resourceVersion(get(path))
                    + "\", \"uid\": \""
                    + uid
                    + "\",");
    ok(apply(path, "apply_test", current), 200);
    String otherUid =
        testConfigMap()
            .replace(
                "\"namespace\": \"default\",",
                "\"uid\": \"00000000-0000-0000-0000-000000000000\",");
    failure(apply(path, "apply_test", otherUid), 422, "Invalid");
  }
}
