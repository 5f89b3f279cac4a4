package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.SubresourceAction;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Subresources answered in code ({@link SubresourceAction}): the verb checked, the body read as
 * JSON or YAML, the parent read and changed past validation, failures as Status, dry run,
 * discovery.
 */
class SubresourceActionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";

  private static ApiRequest request(String method, String path, String type, String body) {
    return new ApiRequest(
        method,
        path,
        Map.of(),
        Map.of("Content-Type", List.of(type)),
        new ByteArrayInputStream(
            body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8)));
  }

  private static JsonNode json(ApiResponse response) throws Exception {
    return JSON.readTree(new String(response.body(), StandardCharsets.UTF_8));
  }

  /**
   * {@code roles/label}: POST a Label {key, value}; sets the label on the Role, answers the Role.
   */
  private static ApiServer server() {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    SubresourceAction label =
        new SubresourceAction(
            GroupVersion.of("example.dev", "v1").withKind("Label"),
            List.of("create"),
            call -> {
              ObjectNode body =
                  call.body().orElseThrow(() -> ApiErrors.newBadRequest("a Label is expected"));
              String key = body.path("key").asText("");
              if (key.isEmpty()) {
                throw ApiErrors.newBadRequest("key: Required value");
              }
              ObjectNode stored =
                  call.updateParent(
                      role -> {
                        role.withObject("/metadata/labels").put(key, body.path("value").asText(""));
                        return role;
                      });
              return new SubresourceAction.Response(201, stored);
            });
    return ApiServer.builder(scheme)
        .addResource(
            ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true)
                .subresource("label", label)
                .build())
        .build();
  }

  @Test
  void actionChangesTheParentAndAnswers() throws Exception {
    ApiServer server = server();
    server.handle(
        request(
            "POST",
            "/api/v1/namespaces",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"));
    assertEquals(
        201,
        server
            .handle(
                request(
                    "POST",
                    ROLES,
                    "application/json",
                    "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                        + "\"metadata\":{\"name\":\"r\"},\"rules\":[]}"))
            .status());
    ApiResponse labelled =
        server.handle(
            request("POST", ROLES + "/r/label", "application/yaml", "key: colour\nvalue: blue\n"));
    assertEquals(201, labelled.status(), new String(labelled.body(), StandardCharsets.UTF_8));
    assertEquals("blue", json(labelled).path("metadata").path("labels").path("colour").asText());
    JsonNode stored = json(server.handle(request("GET", ROLES + "/r", "application/json", null)));
    assertEquals("blue", stored.path("metadata").path("labels").path("colour").asText());

    ApiResponse dry =
        server.handle(
            new ApiRequest(
                "POST",
                ROLES + "/r/label",
                Map.of("dryRun", List.of("All")),
                Map.of("Content-Type", List.of("application/json")),
                new ByteArrayInputStream(
                    "{\"key\":\"size\",\"value\":\"xl\"}".getBytes(StandardCharsets.UTF_8))));
    assertEquals(201, dry.status());
    stored = json(server.handle(request("GET", ROLES + "/r", "application/json", null)));
    assertTrue(stored.path("metadata").path("labels").path("size").isMissingNode());

    ApiResponse bad =
        server.handle(request("POST", ROLES + "/r/label", "application/json", "{\"value\":\"x\"}"));
    assertEquals(400, bad.status());
    assertEquals("key: Required value", json(bad).path("message").asText());

    ApiResponse missing =
        server.handle(
            request("POST", ROLES + "/gone/label", "application/json", "{\"key\":\"a\"}"));
    assertEquals(404, missing.status());

    ApiResponse get = server.handle(request("GET", ROLES + "/r/label", "application/json", null));
    assertEquals(405, get.status(), new String(get.body(), StandardCharsets.UTF_8));

    ApiResponse unknown =
        server.handle(request("POST", ROLES + "/r/other", "application/json", "{}"));
    assertEquals(404, unknown.status());
  }

  @Test
  void discoveryListsTheAction() throws Exception {
    JsonNode list =
        json(
            server()
                .handle(
                    request(
                        "GET", "/apis/rbac.authorization.k8s.io/v1", "application/json", null)));
    boolean found = false;
    for (JsonNode resource : list.path("resources")) {
      if (resource.path("name").asText().equals("roles/label")) {
        found = true;
        assertEquals("Label", resource.path("kind").asText());
        assertEquals("create", resource.path("verbs").get(0).asText());
      }
    }
    assertTrue(found, list.toString());
  }
}
