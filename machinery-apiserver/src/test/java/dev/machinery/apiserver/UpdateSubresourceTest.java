package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceValidator;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Subresources written as the object with a strategy of their own ({@link
 * ResourceDefinition.Builder#updateSubresource}) and the create strategy given the requesting user
 * ({@link ResourceDefinition.Builder#prepareForCreateAs}), on an unstructured {@code Ticket}: an
 * {@code approval} that keeps only the new {@code status.conditions} through PUT and merge patch,
 * seen by admission and the validator under its name and listed in discovery; a {@code status}
 * strategy run after the server's status rule; the creator recorded in the spec.
 */
class UpdateSubresourceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TICKETS = "/apis/example.dev/v1/tickets";
  private final List<String> admitted = new CopyOnWriteArrayList<>();
  private final List<String> validated = new CopyOnWriteArrayList<>();
  private ApiServer server;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object object, String key) {
    Map<String, Object> content = ((Unstructured) object).content();
    return (Map<String, Object>) content.computeIfAbsent(key, k -> new LinkedHashMap<>());
  }

  @BeforeEach
  void start() {
    ResourceDefinition tickets =
        ResourceDefinition.builder(GroupKind.of("example.dev", "Ticket"), false)
            .statusSubresource()
            .prepareForCreateAs(
                (user, object) -> {
                  map(object, "spec").put("creator", user.name());
                  return object;
                })
            .prepareForUpdate(
                (object, old) -> {
                  ((Unstructured) object).content().put("spec", map(old, "spec"));
                  return object;
                })
            .updateSubresource(
                "approval",
                (object, old) -> {
                  Object conditions = map(object, "status").get("conditions");
                  Map<String, Object> status = new LinkedHashMap<>(map(old, "status"));
                  status.put("conditions", conditions);
                  ((Unstructured) object).content().put("status", status);
                  ((Unstructured) object).content().put("spec", map(old, "spec"));
                  return object;
                })
            .updateSubresource(
                "status",
                (object, old) -> {
                  map(object, "status").put("strategy", "ran");
                  return object;
                })
            .validator(
                new ResourceValidator() {
                  @Override
                  public List<FieldError> validate(Object object, Object old) {
                    return List.of();
                  }

                  @Override
                  public List<FieldError> validate(
                      Attributes requester, Object object, Object old) {
                    validated.add(requester.subresource());
                    if ("refuse".equals(map(object, "status").get("conditions"))) {
                      return List.of(
                          FieldError.invalid(
                              FieldPath.of("status", "conditions"), "refuse", "refused"));
                    }
                    return List.of();
                  }
                })
            .build();
    server =
        ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build())
            .addUnstructuredResource(
                tickets,
                GroupVersion.of("example.dev", "v1"),
                List.of(GroupVersion.of("example.dev", "v1")))
            .admission(
                new ValidatingAdmissionPlugin() {
                  @Override
                  public String name() {
                    return "Recorder";
                  }

                  @Override
                  public void validate(AdmissionAttributes attributes) {
                    admitted.add(attributes.operation() + " " + attributes.subresource());
                  }
                })
            .build();
  }

  private JsonNode call(int expected, String method, String path, String type, Object body)
      throws Exception {
    byte[] bytes = body == null ? new byte[0] : JSON.writeValueAsBytes(body);
    ApiResponse response =
        server.handleAs(
            UserInfo.of("jane", List.of("system:authenticated")),
            new ApiRequest(
                method,
                path,
                Map.of(),
                Map.of("Content-Type", List.of(type)),
                new ByteArrayInputStream(bytes)));
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(expected, response.status(), text);
    return JSON.readTree(text);
  }

  private JsonNode created() throws Exception {
    ObjectNode ticket = JSON.createObjectNode();
    ticket.put("apiVersion", "example.dev/v1");
    ticket.put("kind", "Ticket");
    ticket.putObject("metadata").put("name", "t");
    ticket.putObject("spec").put("title", "first");
    return call(201, "POST", TICKETS, "application/json", ticket);
  }

  @Test
  void approvalKeepsOnlyTheConditions() throws Exception {
    JsonNode stored = created();
    assertEquals("jane", stored.path("spec").path("creator").asText(), "prepareForCreateAs");
    ObjectNode changed = stored.deepCopy();
    ((ObjectNode) changed.path("spec")).put("title", "second");
    ObjectNode status = changed.withObject("/status");
    status.put("other", "x");
    status.putArray("conditions").addObject().put("type", "Approved");
    admitted.clear();
    validated.clear();
    JsonNode approved = call(200, "PUT", TICKETS + "/t/approval", "application/json", changed);
    assertEquals("first", approved.path("spec").path("title").asText());
    assertEquals(
        "Approved", approved.path("status").path("conditions").path(0).path("type").asText());
    assertTrue(approved.path("status").path("other").isMissingNode(), approved.toString());
    assertEquals(List.of("UPDATE approval"), admitted);
    assertEquals(List.of("approval"), validated);

    JsonNode patched =
        call(
            200,
            "PATCH",
            TICKETS + "/t/approval",
            "application/merge-patch+json",
            Map.of(
                "spec",
                Map.of("title", "third"),
                "status",
                Map.of("conditions", List.of(Map.of("type", "Denied")))));
    assertEquals("first", patched.path("spec").path("title").asText());
    assertEquals("Denied", patched.path("status").path("conditions").path(0).path("type").asText());

    JsonNode read = call(200, "GET", TICKETS + "/t/approval", "application/json", null);
    assertEquals(patched.path("status"), read.path("status"));

    ObjectNode refused = patched.deepCopy();
    refused.withObject("/status").put("conditions", "refuse");
    call(422, "PUT", TICKETS + "/t/approval", "application/json", refused);
  }

  @Test
  void statusStrategyRunsAfterTheServersRule() throws Exception {
    JsonNode stored = created();
    ObjectNode changed = stored.deepCopy();
    ((ObjectNode) changed.path("spec")).put("title", "second");
    changed.withObject("/status").put("phase", "Open");
    JsonNode written = call(200, "PUT", TICKETS + "/t/status", "application/json", changed);
    assertEquals("first", written.path("spec").path("title").asText());
    assertEquals("Open", written.path("status").path("phase").asText());
    assertEquals("ran", written.path("status").path("strategy").asText());
  }

  @Test
  void discoveryListsTheSubresourceOnce() throws Exception {
    JsonNode list = call(200, "GET", "/apis/example.dev/v1", "application/json", null);
    List<String> names = new ArrayList<>();
    for (JsonNode resource : list.path("resources")) {
      names.add(resource.path("name").asText());
      if (resource.path("name").asText().equals("tickets/approval")) {
        assertEquals(
            List.of("get", "patch", "update"),
            JSON.convertValue(resource.path("verbs"), List.class));
      }
    }
    assertEquals(
        List.of("tickets", "tickets/approval", "tickets/status"), names.stream().sorted().toList());
  }
}
