package dev.machinery.unversioned.managedfields;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.typed.OpenApiSchemas;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.StatusCause;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The field manager's Kubernetes layer: entries, identifiers, stripping, caps, conflicts. */
class FieldManagerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SCHEMA =
      """
      {"type":"object","properties":{
        "apiVersion":{"type":"string"},"kind":{"type":"string"},
        "metadata":{"type":"object","properties":{
          "name":{"type":"string"},"namespace":{"type":"string"},"uid":{"type":"string"},
          "resourceVersion":{"type":"string"},"generation":{"type":"integer"},
          "creationTimestamp":{"type":"string"},
          "labels":{"type":"object","additionalProperties":{"type":"string"}},
          "annotations":{"type":"object","additionalProperties":{"type":"string"}},
          "managedFields":{"type":"array","items":{"type":"object",
            "x-kubernetes-preserve-unknown-fields":true}}}},
        "spec":{"type":"object","properties":{
          "replicas":{"type":"integer"},
          "containers":{"type":"array","x-kubernetes-list-type":"map",
            "x-kubernetes-list-map-keys":["name"],
            "items":{"type":"object","properties":{
              "name":{"type":"string"},"image":{"type":"string"}}}}}},
        "status":{"type":"object","properties":{"ready":{"type":"integer"}}}}}
      """;

  private static final SchemaType TYPE = type();

  private static SchemaType type() {
    try {
      return OpenApiSchemas.fromSchema("web", JSON.readTree(SCHEMA), false).type("web");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-25T10:00:00Z"), ZoneOffset.UTC);

  private static FieldManager manager() {
    return FieldManager.builder(TYPE, "example.dev/v1", "Web").clock(CLOCK).build();
  }

  private static ObjectNode obj(String json) {
    try {
      return (ObjectNode) JSON.readTree(json);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static final String BASE =
      "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Web\",\"metadata\":{\"name\":\"w\"},";

  @Test
  void anUpdateRecordsItsManagerWithVersionAndTime() {
    ObjectNode next = obj(BASE + "\"spec\":{\"replicas\":1}}");
    manager().update(obj("{}"), next, "kubectl-create");
    JsonNode entries = next.path("metadata").path("managedFields");
    assertEquals(1, entries.size());
    JsonNode e = entries.get(0);
    assertEquals("kubectl-create", e.path("manager").asText());
    assertEquals("Update", e.path("operation").asText());
    assertEquals("example.dev/v1", e.path("apiVersion").asText());
    assertEquals("2026-11-25T10:00:00Z", e.path("time").asText());
    assertEquals("FieldsV1", e.path("fieldsType").asText());
    // metadata.name, apiVersion and kind are the server's: nobody owns them.
    assertEquals("{\"f:spec\":{\".\":{},\"f:replicas\":{}}}", e.path("fieldsV1").toString());
    assertEquals(
        List.of("manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1"), names(e));
  }

  @Test
  void applyEntriesComeFirstAndHaveNoLeafDots() {
    FieldManager m = manager();
    ObjectNode created = m.update(obj("{}"), obj(BASE + "\"spec\":{\"replicas\":1}}"), "ctl");
    ObjectNode applied =
        m.apply(
            created,
            obj(BASE + "\"metadata\":{\"name\":\"w\",\"labels\":{\"a\":\"b\"}}}"),
            "tool",
            false);
    JsonNode entries = applied.path("metadata").path("managedFields");
    assertEquals("Apply", entries.get(0).path("operation").asText());
    assertEquals("tool", entries.get(0).path("manager").asText());
    assertEquals(
        "{\"f:metadata\":{\"f:labels\":{\"f:a\":{}}}}", entries.get(0).path("fieldsV1").toString());
    assertEquals("ctl", entries.get(1).path("manager").asText());
    assertEquals("b", applied.path("metadata").path("labels").path("a").asText());
    assertEquals(1, applied.path("spec").path("replicas").asInt());
  }

  @Test
  void conflictsAreWordedAsKubeApiserverWordsThem() {
    FieldManager m = manager();
    ObjectNode live = m.update(obj("{}"), obj(BASE + "\"spec\":{\"replicas\":1}}"), "kubectl-edit");
    StatusException e =
        assertThrows(
            StatusException.class,
            () -> m.apply(live, obj(BASE + "\"spec\":{\"replicas\":2}}"), "tool", false));
    assertEquals(409, e.status().getCode());
    assertEquals("Conflict", e.status().getReason());
    assertEquals(
        "Apply failed with 1 conflict: conflict with \"kubectl-edit\" using example.dev/v1:"
            + " .spec.replicas",
        e.status().getMessage());
    StatusCause cause = e.status().getDetails().getCauses().get(0);
    assertEquals("FieldManagerConflict", cause.getReason());
    assertEquals("conflict with \"kubectl-edit\" using example.dev/v1", cause.getMessage());
    assertEquals(".spec.replicas", cause.getField());
  }

  @Test
  void severalConflictsAreListedByManager() {
    FieldManager m = manager();
    ObjectNode live =
        m.update(
            obj("{}"),
            obj(
                BASE
                    + "\"spec\":{\"replicas\":1,\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}"),
            "a");
    ObjectNode live2 =
        m.apply(
            live,
            obj(BASE + "\"metadata\":{\"name\":\"w\",\"labels\":{\"x\":\"1\"}}}"),
            "b",
            false);
    StatusException e =
        assertThrows(
            StatusException.class,
            () ->
                m.apply(
                    live2,
                    obj(
                        BASE
                            + "\"metadata\":{\"name\":\"w\",\"labels\":{\"x\":\"2\"}},"
                            + "\"spec\":{\"replicas\":2,"
                            + "\"containers\":[{\"name\":\"c\",\"image\":\"j\"}]}}"),
                    "c",
                    false));
    assertEquals(
        "Apply failed with 3 conflicts: conflicts with \"a\" using example.dev/v1:\n"
            + "- .spec.replicas\n"
            + "- .spec.containers[name=\"c\"].image\n"
            + "conflicts with \"b\":\n"
            + "- .metadata.labels.x",
        e.status().getMessage());
    assertEquals(3, e.status().getDetails().getCauses().size());
  }

  @Test
  void forceTakesTheField() {
    FieldManager m = manager();
    ObjectNode live = m.update(obj("{}"), obj(BASE + "\"spec\":{\"replicas\":1}}"), "kubectl-edit");
    ObjectNode forced = m.apply(live, obj(BASE + "\"spec\":{\"replicas\":2}}"), "tool", true);
    assertEquals(2, forced.path("spec").path("replicas").asInt());
    JsonNode entries = forced.path("metadata").path("managedFields");
    // kubectl-edit owned spec itself and replicas; replicas is gone to the applier, and a member
    // with nothing below it is written as an empty object.
    assertEquals("tool", entries.get(0).path("manager").asText());
    assertEquals("{\"f:spec\":{\"f:replicas\":{}}}", entries.get(0).path("fieldsV1").toString());
    assertEquals("{\"f:spec\":{}}", entries.get(1).path("fieldsV1").toString());
  }

  @Test
  void applyRefusesAnotherKindOrManagedFields() {
    FieldManager m = manager();
    StatusException kind =
        assertThrows(
            StatusException.class,
            () -> m.apply(obj("{}"), obj("{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}"), "t", false));
    assertEquals("invalid object type: /v1, Kind=Pod", kind.status().getMessage());
    assertEquals(400, kind.status().getCode());
    StatusException managed =
        assertThrows(
            StatusException.class,
            () ->
                m.apply(
                    obj("{}"),
                    obj(
                        BASE.replace("{\"name\":\"w\"}", "{\"name\":\"w\",\"managedFields\":[]}")
                            + "\"spec\":{}}"),
                    "t",
                    false));
    assertEquals("metadata.managedFields must be nil", managed.status().getMessage());
    StatusException typed =
        assertThrows(
            StatusException.class,
            () -> m.apply(obj("{}"), obj(BASE + "\"spec\":{\"replicaz\":1}}"), "t", false));
    assertTrue(
        typed.status().getMessage().contains(".spec.replicaz: field not declared in schema"),
        typed.status().getMessage());
    assertTrue(
        typed
            .status()
            .getMessage()
            .startsWith("failed to create typed patch object (/w; example.dev/v1, Kind=Web)"),
        typed.status().getMessage());
  }

  @Test
  void anEmptyListOrAnEmptyEntryClearsTheEntries() {
    FieldManager m = manager();
    ObjectNode live = m.update(obj("{}"), obj(BASE + "\"spec\":{\"replicas\":1}}"), "a");
    assertFalse(live.path("metadata").path("managedFields").isMissingNode(), live.toString());
    for (String reset : List.of("[]", "[{}]")) {
      ObjectNode cleared =
          obj(
              BASE.replace("{\"name\":\"w\"}", "{\"name\":\"w\",\"managedFields\":" + reset + "}")
                  + "\"spec\":{\"replicas\":1}}");
      m.update(live, cleared, "b");
      assertTrue(
          cleared.path("metadata").path("managedFields").isMissingNode(), cleared.toString());
    }
  }

  @Test
  void updatesOfAStoredObjectWithoutEntriesAreNotTracked() {
    FieldManager m = manager();
    ObjectNode live =
        obj(
            BASE.replace("{\"name\":\"w\"}", "{\"name\":\"w\",\"uid\":\"u\"}")
                + "\"spec\":{\"replicas\":1}}");
    ObjectNode next =
        obj(
            BASE.replace("{\"name\":\"w\"}", "{\"name\":\"w\",\"uid\":\"u\"}")
                + "\"spec\":{\"replicas\":2}}");
    m.update(live, next, "b");
    assertTrue(next.path("metadata").path("managedFields").isMissingNode(), next.toString());
    ObjectNode applied = m.apply(live, obj(BASE + "\"spec\":{\"replicas\":3}}"), "c", false);
    assertEquals(1, applied.path("metadata").path("managedFields").size(), applied.toString());
  }

  @Test
  void sentEntriesReplaceTheStoredOnes() {
    FieldManager m = manager();
    ObjectNode live = m.update(obj("{}"), obj(BASE + "\"spec\":{\"replicas\":1}}"), "a");
    ObjectNode next =
        obj(
            BASE.replace(
                    "{\"name\":\"w\"}",
                    "{\"name\":\"w\",\"managedFields\":[{\"manager\":\"other\",\"operation\":\"Apply\","
                        + "\"apiVersion\":\"example.dev/v1\",\"fieldsType\":\"FieldsV1\","
                        + "\"fieldsV1\":{\"f:spec\":{\"f:replicas\":{}}}}]}")
                + "\"spec\":{\"replicas\":1}}");
    m.update(live, next, "b");
    JsonNode entries = next.path("metadata").path("managedFields");
    assertEquals(1, entries.size());
    assertEquals("other", entries.get(0).path("manager").asText());
  }

  @Test
  void aSubresourceWriteKeepsTheStoredEntriesAndOwnsOnlyItsPart() {
    FieldManager status =
        FieldManager.builder(TYPE, "example.dev/v1", "Web")
            .subresource("status")
            .resetFields(FieldSet.of(FieldPath.of("spec"), FieldPath.of("metadata")))
            .clock(CLOCK)
            .build();
    ObjectNode live = manager().update(obj("{}"), obj(BASE + "\"spec\":{\"replicas\":1}}"), "a");
    ObjectNode next = obj(BASE + "\"spec\":{\"replicas\":7},\"status\":{\"ready\":1}}");
    status.update(live, next, "controller");
    JsonNode entries = next.path("metadata").path("managedFields");
    assertEquals(2, entries.size());
    JsonNode controller = entries.get(1);
    assertEquals("controller", controller.path("manager").asText());
    assertEquals("status", controller.path("subresource").asText());
    assertEquals(
        "{\"f:status\":{\".\":{},\"f:ready\":{}}}", controller.path("fieldsV1").toString());
    assertEquals("a", entries.get(0).path("manager").asText());
  }

  @Test
  void aStatusApplyDoesNotConflictOnResetFieldsOfAManagerInAnotherVersion() {
    FieldManager older =
        FieldManager.builder(TYPE, "example.dev/v1beta1", "Web").clock(CLOCK).build();
    String beta = BASE.replace("example.dev/v1", "example.dev/v1beta1");
    ObjectNode live =
        older.apply(obj("{}"), obj(beta + "\"spec\":{\"replicas\":1}}"), "legacy", false);
    FieldManager status =
        FieldManager.builder(TYPE, "example.dev/v1", "Web")
            .subresource("status")
            .resetFields(FieldSet.of(FieldPath.of("spec"), FieldPath.of("metadata")))
            .clock(CLOCK)
            .build();
    ObjectNode applied =
        status.apply(
            live,
            obj(BASE + "\"spec\":{\"replicas\":9},\"status\":{\"ready\":1}}"),
            "controller",
            false);
    JsonNode entries = applied.path("metadata").path("managedFields");
    assertEquals(2, entries.size(), entries.toString());
    assertEquals("controller", entries.get(0).path("manager").asText());
    assertEquals("status", entries.get(0).path("subresource").asText());
    assertEquals("{\"f:status\":{\"f:ready\":{}}}", entries.get(0).path("fieldsV1").toString());
    assertEquals("legacy", entries.get(1).path("manager").asText());
  }

  @Test
  void updateEntriesPastTheCapMergeIntoAncientChanges() {
    FieldManager m =
        FieldManager.builder(TYPE, "example.dev/v1", "Web")
            .maxUpdateManagers(2)
            .clock(CLOCK)
            .build();
    ObjectNode live = obj(BASE + "\"metadata\":{\"name\":\"w\"}}");
    for (int i = 0; i < 4; i++) {
      ObjectNode next = live.deepCopy();
      ((ObjectNode) next.get("metadata")).putObject("labels").put("l" + i, "v");
      ObjectNode labels = (ObjectNode) next.path("metadata").path("labels");
      for (int j = 0; j < i; j++) {
        labels.put("l" + j, "v");
      }
      live = m.update(live, next, "m" + i);
    }
    JsonNode entries = live.path("metadata").path("managedFields");
    assertEquals(2, entries.size(), entries.toString());
    List<String> managers = new java.util.ArrayList<>();
    entries.forEach(e -> managers.add(e.path("manager").asText()));
    assertTrue(managers.contains("ancient-changes"), managers.toString());
  }

  @Test
  void unreadableEntriesAreDroppedOnUpdate() {
    FieldManager m = manager();
    ObjectNode live =
        obj(
            BASE.replace(
                    "{\"name\":\"w\"}",
                    "{\"name\":\"w\",\"managedFields\":[{\"manager\":\"x\",\"operation\":\"Bogus\"}]}")
                + "\"spec\":{}}");
    ObjectNode next = obj(BASE + "\"spec\":{\"replicas\":3}}");
    m.update(live, next, "b");
    assertFalse(next.path("metadata").has("managedFields"), next.toString());
  }

  @Test
  void decodeNamesTheBadEntry() {
    ManagedFieldsException e =
        assertThrows(
            ManagedFieldsException.class,
            () -> ManagedFields.decode(JSON.readTree("[{},{\"fieldsType\":\"FieldsV2\"}]")));
    assertEquals(
        "metadata.managedFields[1].fieldsType: must be `FieldsV1`, got \"FieldsV2\"",
        e.getMessage());
    assertNull(ManagedFields.encode(Managed.empty()));
  }

  @Test
  void managerNamesComeFromTheUserAgent() {
    assertEquals(
        "kubectl", FieldManagers.managerOrUserAgent(null, "kubectl/v1.33.0 (linux/amd64)"));
    assertEquals("given", FieldManagers.managerOrUserAgent("given", "kubectl/v1.33.0"));
    assertEquals("ab", FieldManagers.managerOrUserAgent("", "a\u0007b/1"));
    assertEquals(128, FieldManagers.managerOrUserAgent(null, "x".repeat(300)).length());
    assertEquals("", FieldManagers.managerOrUserAgent(null, null));
    assertEquals(
        "fieldManager: Invalid value: \"a\\a\": invalid character U+0007 (at position 1)",
        FieldManagers.validate(
                "a\u0007", dev.machinery.unversioned.validation.FieldPath.of("fieldManager"))
            .get(0)
            .toString());
  }

  private static List<String> names(JsonNode node) {
    List<String> out = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void theLimitsAndShapesThatAreRefusedSaySo() {
    // fieldManager: at most 128 bytes, as kube-apiserver's ValidateFieldManager.
    assertEquals(
        "fieldManager: Too long: may not be more than 128 bytes",
        FieldManagers.validate(
                "x".repeat(129), dev.machinery.unversioned.validation.FieldPath.of("fieldManager"))
            .get(0)
            .toString());
    assertTrue(
        FieldManagers.validate(
                "x".repeat(128), dev.machinery.unversioned.validation.FieldPath.of("fieldManager"))
            .isEmpty());
    ManagedFieldsException operation =
        assertThrows(
            ManagedFieldsException.class,
            () -> ManagedFields.decode(JSON.readTree("[{\"operation\":\"Replace\"}]")));
    assertEquals(
        "metadata.managedFields[0].operation: must be `Apply` or `Update`, got \"Replace\"",
        operation.getMessage());
    IllegalArgumentException cap =
        assertThrows(
            IllegalArgumentException.class,
            () -> FieldManager.builder(TYPE, "example.dev/v1", "Web").maxUpdateManagers(0));
    assertEquals("maxUpdateManagers must be at least 1, got 0", cap.getMessage());
  }
}
