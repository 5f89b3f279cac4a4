package dev.machinery.core.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Strategic merge patches with their patch metadata read from Kubernetes v1.33's OpenAPI document
 * (test resources {@code kube-api/v1.33/swagger.json}, with its README, and the table {@code
 * strategicpatch/kube-v1.33-cases.yaml}), and what the reader refuses.
 */
class OpenApiPatchSchemasTest {
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final OpenApiPatchSchemas KUBE = OpenApiPatchSchemas.of(swagger());

  static JsonNode swagger() {
    try (InputStream in =
        OpenApiPatchSchemasTest.class.getResourceAsStream("/kube-api/v1.33/swagger.json")) {
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @TestFactory
  Stream<DynamicTest> kubernetesKindsPatchByTheirSwaggerStrategies() throws IOException {
    JsonNode table;
    try (InputStream in = getClass().getResourceAsStream("/strategicpatch/kube-v1.33-cases.yaml")) {
      table = YAML.readTree(in);
    }
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : table) {
      tests.add(
          DynamicTest.dynamicTest(
              c.get("name").asText(),
              () -> {
                StrategicMergeSchema schema = KUBE.forDefinition(c.get("definition").asText());
                if (c.has("error")) {
                  PatchException e =
                      assertThrows(
                          PatchException.class,
                          () ->
                              StrategicMergePatch.apply(c.get("original"), c.get("patch"), schema));
                  assertEquals(c.get("error").asText(), e.getMessage());
                  assertEquals(PatchException.Kind.MALFORMED, e.kind());
                  return;
                }
                JsonNode result =
                    StrategicMergePatch.apply(c.get("original"), c.get("patch"), schema);
                assertEquals(c.get("expected"), result);
                // The law of a two-way patch: made between the two, it turns one into the other.
                JsonNode made =
                    StrategicMergePatch.createTwoWay(c.get("original"), c.get("expected"), schema);
                assertEquals(
                    c.get("expected"), StrategicMergePatch.apply(c.get("original"), made, schema));
              }));
    }
    assertEquals(26, tests.size());
    return tests.stream();
  }

  @Test
  void findsAKindByItsGroupVersionKindExtension() {
    StrategicMergeSchema deployment =
        KUBE.forKind(GroupVersionKind.of("apps", "v1", "Deployment")).orElseThrow();
    assertEquals("StrategicMergeSchema[io.k8s.api.apps.v1.Deployment]", deployment.toString());
    assertFalse(deployment.isEmpty());
    assertEquals(
        "StrategicMergeSchema[io.k8s.api.core.v1.ConfigMap]",
        KUBE.forKind(GroupVersionKind.of("", "v1", "ConfigMap")).orElseThrow().toString());
    assertTrue(KUBE.forKind(GroupVersionKind.of("example.dev", "v1", "Widget")).isEmpty());
  }

  @Test
  void aMissingDefinitionIsRefusedWithTheNamesThatEndAlike() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> KUBE.forDefinition("io.k8s.api.core.v1.Deployment"));
    assertEquals(
        "the OpenAPI document has no definition \"io.k8s.api.core.v1.Deployment\" (did you mean"
            + " io.k8s.api.apps.v1.Deployment?)",
        e.getMessage());
    assertEquals(
        "the OpenAPI document has no definition \"nothing\"",
        assertThrows(IllegalArgumentException.class, () -> KUBE.forDefinition("nothing"))
            .getMessage());
  }

  @Test
  void aSchemaOfAnyValueIsEmpty() {
    assertTrue(KUBE.forDefinition("io.k8s.apimachinery.pkg.runtime.RawExtension").isEmpty());
    assertTrue(KUBE.forDefinition("io.k8s.apimachinery.pkg.util.intstr.IntOrString").isEmpty());
    assertTrue(StrategicMergeSchema.ofType(Object.class).isEmpty());
    assertFalse(StrategicMergeSchema.ofType(MergeItem.class).isEmpty());
  }

  /**
   * Every definition of Kubernetes' document, every field walked to the end (recursive ones once):
   * all resolve, and the patch metadata of the swagger's 65 patch strategies is read.
   */
  @Test
  void everyDefinitionOfKubernetesResolves() {
    JsonNode definitions = swagger().get("definitions");
    Set<PatchSchema> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    int[] strategies = {0};
    for (Map.Entry<String, JsonNode> entry : definitions.properties()) {
      walk(KUBE.forDefinition(entry.getKey()).root(), seen, strategies);
    }
    assertEquals(707, definitions.size());
    assertEquals(65, strategies[0]);
  }

  private static void walk(PatchSchema schema, Set<PatchSchema> seen, int[] strategies) {
    if (!seen.add(schema)) {
      return;
    }
    switch (schema.shape) {
      case LIST -> walk(schema.element(), seen, strategies);
      case MAP -> walk(schema.field("any").schema(), seen, strategies);
      case OBJECT -> {
        for (String name : fieldNames(schema)) {
          PatchSchema.Field field = schema.field(name);
          if (!field.strategies().isEmpty()) {
            strategies[0]++;
          }
          walk(field.schema(), seen, strategies);
        }
      }
      case NONE -> {}
    }
  }

  private static List<String> fieldNames(PatchSchema schema) {
    // The field names come from the owner's definition: an object schema answers for its own.
    List<String> names = new ArrayList<>();
    for (String candidate : NAMES) {
      if (schema.field(candidate) != PatchSchema.Field.UNKNOWN) {
        names.add(candidate);
      }
    }
    return names;
  }

  /** Every property name of the document, so that the walk can ask each object for its fields. */
  private static final List<String> NAMES = propertyNames();

  private static List<String> propertyNames() {
    Set<String> names = new java.util.TreeSet<>();
    collect(swagger(), names);
    return List.copyOf(names);
  }

  private static void collect(JsonNode node, Set<String> names) {
    if (node.isObject()) {
      JsonNode properties = node.get("properties");
      if (properties != null && properties.isObject()) {
        properties.fieldNames().forEachRemaining(names::add);
      }
      node.elements().forEachRemaining(child -> collect(child, names));
    } else if (node.isArray()) {
      node.elements().forEachRemaining(child -> collect(child, names));
    }
  }

  @Test
  void readsOpenApiV3ComponentsWithAllOfReferencesAndInlineSchemas() {
    OpenApiPatchSchemas v3 =
        OpenApiPatchSchemas.of(
            json(
                """
                {"openapi": "3.0.0", "components": {"schemas": {
                  "Widget": {"type": "object", "properties": {
                    "spec": {"allOf": [{"$ref": "#/components/schemas/WidgetSpec"}]},
                    "inline": {"type": "object", "properties": {
                      "parts": {"type": "array", "x-kubernetes-patch-strategy": "merge",
                        "x-kubernetes-patch-merge-key": "id",
                        "items": {"type": "object", "properties": {"id": {"type": "string"},
                          "tags": {"type": "array", "items": {"type": "string"},
                            "x-kubernetes-patch-strategy": "merge"}}}}}}}},
                  "WidgetSpec": {"type": "object", "properties": {
                    "children": {"type": "array", "x-kubernetes-patch-strategy": "merge",
                      "x-kubernetes-patch-merge-key": "name",
                      "items": {"$ref": "#/components/schemas/WidgetSpec"}},
                    "name": {"type": "string"}}}}}}
                """));
    StrategicMergeSchema widget = v3.forDefinition("Widget");
    assertEquals(
        json(
            """
            {"spec": {"children": [{"name": "a", "children": [{"name": "y"}, {"name": "x"}]}]},
             "inline": {"parts": [{"id": "1", "tags": ["b", "a"]}, {"id": "2"}]}}
            """),
        StrategicMergePatch.apply(
            json(
                """
                {"spec": {"children": [{"name": "a", "children": [{"name": "x"}]}]},
                 "inline": {"parts": [{"id": "1", "tags": ["a"]}]}}
                """),
            json(
                """
                {"spec": {"children": [{"name": "a", "children": [{"name": "y"}]}]},
                 "inline": {"parts": [{"id": "1", "tags": ["b"]}, {"id": "2"}]}}
                """),
            widget));
    PatchException unknown =
        assertThrows(
            PatchException.class,
            () ->
                StrategicMergePatch.apply(
                    json("{\"inline\": {\"parts\": [{\"id\": \"1\", \"x\": {\"a\": 1}}]}}"),
                    json("{\"inline\": {\"parts\": [{\"id\": \"1\", \"x\": {\"a\": 2}}]}}"),
                    widget));
    assertEquals(
        "inline.parts[id=1].x: unable to find api field in struct Widget.inline.parts for the json"
            + " field \"x\"",
        unknown.getMessage());
  }

  @Test
  void aDefinitionThatKeepsUnknownFieldsMergesThemWithoutStrategies() {
    OpenApiPatchSchemas open =
        OpenApiPatchSchemas.of(
            json(
                """
                {"definitions": {"Open": {"type": "object",
                  "x-kubernetes-preserve-unknown-fields": true,
                  "properties": {"name": {"type": "string"}}}}}
                """));
    assertEquals(
        json("{\"extra\": {\"a\": 1, \"b\": 2}}"),
        StrategicMergePatch.apply(
            json("{\"extra\": {\"a\": 1}}"),
            json("{\"extra\": {\"b\": 2}}"),
            open.forDefinition("Open")));
  }

  @Test
  void aMergedListOfObjectsWithoutAMergeKeyIsRefused() {
    StrategicMergeSchema keyless =
        OpenApiPatchSchemas.of(
                json(
                    """
                    {"definitions": {"T": {"type": "object", "properties": {
                      "items": {"type": "array", "x-kubernetes-patch-strategy": "merge",
                        "items": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}}
                    """))
            .forDefinition("T");
    String message =
        "a list of objects merged by a strategic merge patch needs a merge key (@PatchMergeKey,"
            + " or x-kubernetes-patch-merge-key in OpenAPI)";
    assertEquals(
        "items: " + message,
        assertThrows(
                PatchException.class,
                () ->
                    StrategicMergePatch.apply(
                        json("{\"items\": [{\"a\": \"1\"}]}"),
                        json("{\"items\": [{\"a\": \"2\"}]}"),
                        keyless))
            .getMessage());
    assertEquals(
        "items: " + message,
        assertThrows(
                PatchException.class,
                () ->
                    StrategicMergePatch.createTwoWay(
                        json("{\"items\": [{\"a\": \"1\"}]}"),
                        json("{\"items\": [{\"a\": \"2\"}]}"),
                        keyless))
            .getMessage());
    // A merged list of values needs none: it merges as a set (the patch's values first).
    assertEquals(
        json("{\"items\": [\"2\", \"1\"]}"),
        StrategicMergePatch.apply(
            json("{\"items\": [\"1\"]}"), json("{\"items\": [\"2\"]}"), keyless));
  }

  @Test
  void anAliasLoopIsAValueOfAnyType() {
    OpenApiPatchSchemas loop =
        OpenApiPatchSchemas.of(
            json(
                """
                {"definitions": {"A": {"$ref": "#/definitions/B"},
                  "B": {"$ref": "#/definitions/A"}}}
                """));
    assertTrue(loop.forDefinition("A").isEmpty());
  }

  @Test
  void everyProblemOfTheDocumentIsReportedAtOnceWithItsPointer() {
    PatchSchemaException e =
        assertThrows(
            PatchSchemaException.class,
            () ->
                OpenApiPatchSchemas.of(
                    json(
                        """
                        {"definitions": {"T": {"type": "object", "properties": {
                          "a": {"type": "array", "x-kubernetes-patch-strategy": 1},
                          "b": {"type": "array", "x-kubernetes-patch-strategy": "merge,replace"},
                          "c": {"type": "array", "x-kubernetes-patch-strategy": "append"},
                          "d": {"type": "array", "x-kubernetes-patch-merge-key": ["name"],
                            "items": {"$ref": "#/definitions/Missing"}},
                          "e/f": {"type": "array", "x-kubernetes-patch-strategy": "merge,retainKeys"}
                        }}}}
                        """)));
    assertEquals(
        List.of(
            "/definitions/T/properties/a: x-kubernetes-patch-strategy must be a string, found 1",
            "/definitions/T/properties/b: unexpected patch strategy \"merge,replace\" (expected"
                + " merge, replace or retainKeys, or one of them with retainKeys)",
            "/definitions/T/properties/c: unexpected patch strategy \"append\" (expected merge,"
                + " replace or retainKeys, or one of them with retainKeys)",
            "/definitions/T/properties/d: x-kubernetes-patch-merge-key must be a string, found"
                + " [\"name\"]",
            "/definitions/T/properties/d/items: $ref \"#/definitions/Missing\" names no schema of"
                + " the document"),
        e.problems());
    assertTrue(e.getMessage().startsWith("5 problems in the patch metadata: /definitions/T/"));
    assertEquals(400, e.statusCode());
    PatchSchemaException none =
        assertThrows(PatchSchemaException.class, () -> OpenApiPatchSchemas.of(json("{}")));
    assertEquals(
        "/: an OpenAPI document with definitions (v2) or components.schemas (v3) was expected",
        none.getMessage());
  }

  @Test
  void schemasAreSharedSafelyBetweenThreads() throws Exception {
    OpenApiPatchSchemas fresh = OpenApiPatchSchemas.of(swagger());
    JsonNode original =
        json("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"a\"}]}}}}");
    JsonNode patch =
        json("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"b\"}]}}}}");
    JsonNode expected =
        json(
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"b\"},"
                + "{\"name\":\"a\"}]}}}}");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<JsonNode>> results = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        results.add(
            pool.submit(
                () ->
                    StrategicMergePatch.apply(
                        original, patch, fresh.forDefinition("io.k8s.api.apps.v1.Deployment"))));
      }
      for (Future<JsonNode> result : results) {
        assertEquals(expected, result.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
