package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A server restarted on the storage of an earlier one (as a server on etcd is) reconciles the
 * default roles and bindings as kube-apiserver does at start: what was taken from a default with
 * {@code autoupdate: "true"} is put back, what was added is kept, a default annotated {@code
 * autoupdate: "false"} is left as it is, and a default deleted is created again.
 */
class RbacBootstrapReconciliationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";

  private static ApiServer server(Storage storage) {
    return ApiServer.builder(RbacServerTest.scheme()).storage(storage).rbac().build();
  }

  private static JsonNode call(ApiServer server, String method, String path, JsonNode body)
      throws IOException {
    ApiResponse response =
        server.handleAs(
            ApiServer.LOOPBACK_USER,
            new ApiRequest(
                method,
                path,
                Map.of(),
                Map.of("Content-Type", List.of("application/json")),
                new ByteArrayInputStream(
                    body == null ? new byte[0] : JSON.writeValueAsBytes(body))));
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertTrue(response.status() < 300, () -> method + " " + path + ": " + text);
    return JSON.readTree(response.body());
  }

  private static ObjectNode get(ApiServer server, String path) throws IOException {
    return (ObjectNode) call(server, "GET", path, null);
  }

  @Test
  void aRestartPutsBackWhatWasTakenFromTheDefaultsAndLeavesAloneThoseThatOptedOut()
      throws IOException {
    Storage storage = new MemoryStorage();
    ApiServer first = server(storage);

    // system:discovery loses its rules but gains one of its own.
    ObjectNode discovery = get(first, RBAC + "/clusterroles/system:discovery");
    ArrayNode rules = discovery.putArray("rules");
    rules.addObject().putArray("verbs").add("get");
    ((ObjectNode) rules.get(0)).putArray("nonResourceURLs").add("/mine");
    call(first, "PUT", RBAC + "/clusterroles/system:discovery", discovery);
    // view loses its aggregation rule (and so, its rules are no longer gathered).
    ObjectNode view = get(first, RBAC + "/clusterroles/view");
    view.remove("aggregationRule");
    view.putArray("rules");
    call(first, "PUT", RBAC + "/clusterroles/view", view);
    // system:public-info-viewer opts out, and loses its rules.
    ObjectNode info = get(first, RBAC + "/clusterroles/system:public-info-viewer");
    ((ObjectNode) info.get("metadata"))
        .putObject("annotations")
        .put("rbac.authorization.kubernetes.io/autoupdate", "false");
    info.putArray("rules");
    call(first, "PUT", RBAC + "/clusterroles/system:public-info-viewer", info);
    // system:basic-user's binding loses its subject and gains another; the role is deleted.
    ObjectNode basic = get(first, RBAC + "/clusterrolebindings/system:basic-user");
    ArrayNode subjects = basic.putArray("subjects");
    subjects
        .addObject()
        .put("kind", "User")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("name", "jane");
    call(first, "PUT", RBAC + "/clusterrolebindings/system:basic-user", basic);
    call(first, "DELETE", RBAC + "/clusterroles/system:basic-user", null);
    // system:discovery's binding refers to another role.
    call(first, "DELETE", RBAC + "/clusterrolebindings/system:discovery", null);
    ObjectNode other = JSON.createObjectNode();
    other.put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "ClusterRoleBinding");
    other.putObject("metadata").put("name", "system:discovery");
    other
        .putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", "ClusterRole")
        .put("name", "view");
    other
        .putArray("subjects")
        .addObject()
        .put("kind", "Group")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("name", "system:authenticated");
    call(first, "POST", RBAC + "/clusterrolebindings", other);

    ApiServer second = server(storage);

    String discoveryRules =
        get(second, RBAC + "/clusterroles/system:discovery").get("rules").toString();
    assertTrue(discoveryRules.contains("\"/mine\""), discoveryRules);
    assertTrue(discoveryRules.contains("\"/apis\""), discoveryRules);
    assertTrue(discoveryRules.contains("\"/version\""), discoveryRules);

    JsonNode restored = get(second, RBAC + "/clusterroles/view");
    assertEquals(
        "{\"matchLabels\":{\"rbac.authorization.k8s.io/aggregate-to-view\":\"true\"}}",
        restored.at("/aggregationRule/clusterRoleSelectors/0").toString());
    assertTrue(restored.get("rules").toString().contains("\"pods\""), restored::toString);

    JsonNode untouched = get(second, RBAC + "/clusterroles/system:public-info-viewer");
    assertEquals(0, untouched.path("rules").size(), untouched::toString);
    assertEquals(
        "false",
        untouched
            .at("/metadata/annotations/rbac.authorization.kubernetes.io~1autoupdate")
            .asText());

    JsonNode recreated = get(second, RBAC + "/clusterroles/system:basic-user");
    assertTrue(
        recreated.get("rules").toString().contains("selfsubjectaccessreviews"),
        recreated::toString);
    String basicSubjects =
        get(second, RBAC + "/clusterrolebindings/system:basic-user").get("subjects").toString();
    assertTrue(basicSubjects.contains("\"jane\""), basicSubjects);
    assertTrue(basicSubjects.contains("\"system:authenticated\""), basicSubjects);

    JsonNode rebound = get(second, RBAC + "/clusterrolebindings/system:discovery");
    assertEquals("system:discovery", rebound.at("/roleRef/name").asText(), rebound::toString);
    assertFalse(
        rebound.at("/metadata/labels/kubernetes.io~1bootstrapping").isMissingNode(),
        rebound::toString);

    // Once reconciled, a restart writes nothing.
    long revision = storage.currentRevision();
    server(storage);
    assertEquals(revision, storage.currentRevision());
  }
}
