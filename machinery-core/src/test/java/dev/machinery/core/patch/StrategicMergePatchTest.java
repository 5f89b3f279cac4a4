package dev.machinery.core.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' strategic merge patch tables (test resources under {@code strategicpatch/}, carried
 * over from its patch_test.go; the README there names the source): every case is run through this
 * library as Kubernetes' tests run it. Created patches must be exactly Kubernetes' patches (as JSON
 * trees: the order of lists counts, the order of fields does not), and applying a patch must give
 * Kubernetes' result or an error containing Kubernetes' text.
 */
class StrategicMergePatchTest {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /**
   * The checks this library answers differently on purpose, each with the reason (docs/patches.md
   * gives the same). The test fails when one of them starts to agree, so the list stays true.
   */
  private static final Map<String, String> DIFFERENT_ON_PURPOSE =
      Map.of(
          "unknown-field-cases.yaml: json (two-way)",
          "jsonItem is an Object here (any JSON, merged as a JSON merge patch); Go's test struct"
              + " declares it a struct without JSON fields, so Go cannot look up \"nested\"",
          "unknown-field-cases.yaml: json (three-way)",
          "the same as its two-way check");

  /** The type of Kubernetes' number conversion table: numbers of each size. */
  record PrecisionItem(String name, Integer int32, Long int64, Float float32, Double float64) {}

  /** One case of a Go table: its documents, absent ones null. */
  private record GoCase(
      String name,
      JsonNode original,
      JsonNode modified,
      JsonNode current,
      JsonNode twoWay,
      JsonNode threeWay,
      JsonNode result,
      JsonNode twoWayResult,
      String expectedError) {}

  private static JsonNode resource(String name) {
    try (InputStream in =
        StrategicMergePatchTest.class.getResourceAsStream("/strategicpatch/" + name)) {
      return name.endsWith(".json") ? JSON.readTree(in) : YAML.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A document the table holds as a tree; absent is null. */
  private static JsonNode tree(JsonNode c, String field) {
    JsonNode value = c.get(field);
    return value == null || value.isNull() ? null : value;
  }

  /** A document the table holds as YAML (or JSON) text; absent or empty is null, as in Go. */
  private static JsonNode text(JsonNode c, String field) {
    JsonNode value = c.get(field);
    if (value == null || value.asText().isBlank()) {
      return null;
    }
    try {
      JsonNode tree = YAML.readTree(value.asText());
      return tree == null || tree.isMissingNode() || tree.isNull() ? null : tree;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<GoCase> table(String file, boolean asText) {
    List<GoCase> cases = new ArrayList<>();
    for (JsonNode c : resource(file).get("testCases")) {
      java.util.function.BiFunction<JsonNode, String, JsonNode> doc =
          asText ? StrategicMergePatchTest::text : StrategicMergePatchTest::tree;
      cases.add(
          new GoCase(
              file + ": " + c.get("description").asText(),
              doc.apply(c, "original"),
              doc.apply(c, "modified"),
              doc.apply(c, "current"),
              doc.apply(c, "twoWay"),
              doc.apply(c, "threeWay"),
              doc.apply(c, "result"),
              doc.apply(c, "twoWayResult"),
              c.has("expectedError") ? c.get("expectedError").asText() : null));
    }
    return cases;
  }

  private static JsonNode orEmpty(JsonNode node) {
    return node == null ? JSON.createObjectNode() : node;
  }

  /** What each check found: the wrong ones by name, and how many ran. */
  private static final class Outcome {
    final Map<String, String> wrong = new TreeMap<>();
    int checked;

    void check(String name, Runnable check) {
      checked++;
      try {
        check.run();
      } catch (AssertionError | PatchException e) {
        wrong.put(name, e.getClass().getSimpleName() + ": " + e.getMessage());
      }
    }
  }

  private static void same(JsonNode expected, JsonNode actual, String what) {
    if (!expected.equals(actual)) {
      throw new AssertionError(what + "\n    want " + expected + "\n    got  " + actual);
    }
  }

  /** Go's testTwoWayPatch: the two-way patch created, then applied to the original. */
  private static void twoWay(GoCase c, StrategicMergeSchema schema) {
    JsonNode patch = StrategicMergePatch.createTwoWay(c.original(), c.modified(), schema);
    same(orEmpty(c.twoWay()), patch, "two-way patch");
    applies(
        c.original(), patch, c.twoWayResult() != null ? c.twoWayResult() : c.modified(), c, schema);
  }

  /** Go's testThreeWayPatch: the three-way patch created, then applied to the live object. */
  private static void threeWay(GoCase c, StrategicMergeSchema schema) {
    JsonNode patch =
        StrategicMergePatch.createThreeWay(c.original(), c.modified(), c.current(), schema);
    same(orEmpty(c.threeWay()), patch, "three-way patch");
    applies(c.current(), patch, c.result(), c, schema);
  }

  /** Go's testPatchApplication: the result, or an error containing the expected text. */
  private static void applies(
      JsonNode original, JsonNode patch, JsonNode expected, GoCase c, StrategicMergeSchema schema) {
    JsonNode result;
    try {
      result = StrategicMergePatch.apply(orEmpty(original), orEmpty(patch), schema);
    } catch (PatchException e) {
      if (c.expectedError() != null && e.getMessage().contains(c.expectedError())) {
        return;
      }
      throw e;
    }
    if (c.expectedError() != null) {
      throw new AssertionError("no error containing \"" + c.expectedError() + "\": " + result);
    }
    same(orEmpty(expected), result, "applied");
  }

  /** The Go tests' two sources of patch metadata: the struct's tags and its OpenAPI definition. */
  static Stream<Arguments> sources() {
    OpenApiPatchSchemas openApi = OpenApiPatchSchemas.of(resource("merge-item-openapi.json"));
    return Stream.of(
        Arguments.of(
            "Java type",
            StrategicMergeSchema.ofType(MergeItem.class),
            StrategicMergeSchema.ofType(PrecisionItem.class)),
        Arguments.of(
            "OpenAPI", openApi.forDefinition("mergeItem"), openApi.forDefinition("precisionItem")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void kubernetesTablesGiveKubernetesAnswers(
      String source, StrategicMergeSchema schema, StrategicMergeSchema precision) {
    Outcome outcome = new Outcome();
    int cases = 0;
    for (String file : List.of("create-cases.yaml", "raw-cases.yaml", "raw-extension-cases.yaml")) {
      for (GoCase c : table(file, !file.equals("create-cases.yaml"))) {
        cases++;
        outcome.check(c.name() + " (two-way)", () -> twoWay(c, schema));
        outcome.check(c.name() + " (three-way)", () -> threeWay(c, schema));
      }
    }
    for (String file : List.of("custom-cases.yaml", "custom-raw-cases.yaml")) {
      for (GoCase c : table(file, !file.equals("custom-cases.yaml"))) {
        cases++;
        outcome.check(
            c.name() + " (apply)",
            () ->
                applies(
                    c.original(),
                    c.twoWay(),
                    c.twoWayResult() != null ? c.twoWayResult() : c.modified(),
                    c,
                    schema));
      }
    }
    for (JsonNode c : resource("unknown-field-cases.yaml").get("testCases")) {
      cases++;
      String name = "unknown-field-cases.yaml: " + c.get("description").asText();
      outcome.check(name + " (two-way)", () -> unknownField(c, false, schema));
      outcome.check(name + " (three-way)", () -> unknownField(c, true, schema));
    }
    for (JsonNode c : resource("number-conversion-cases.yaml").get("testCases")) {
      cases++;
      outcome.check(
          "number-conversion-cases.yaml: " + c.get("description").asText() + " (two-way)",
          () -> {
            JsonNode old = json(c.get("old").asText());
            JsonNode patch =
                StrategicMergePatch.createTwoWay(old, json(c.get("new").asText()), precision);
            same(json(c.get("expectedPatch").asText()), patch, "patch");
            same(
                json(c.get("expectedResult").asText()),
                StrategicMergePatch.apply(old, patch, precision),
                "applied");
          });
    }
    Map<String, String> unexpected = new TreeMap<>(outcome.wrong);
    unexpected.keySet().removeAll(DIFFERENT_ON_PURPOSE.keySet());
    List<String> report = new ArrayList<>();
    unexpected.forEach((name, what) -> report.add(name + "\n  " + what));
    assertEquals(
        Map.of(),
        unexpected,
        source
            + ": of "
            + outcome.checked
            + " checks of "
            + cases
            + " cases, these differ from Kubernetes:\n"
            + String.join("\n", report));
    assertEquals(
        DIFFERENT_ON_PURPOSE.keySet(), outcome.wrong.keySet(), "listed differences that are gone");
    assertEquals(301, outcome.checked);
  }

  /** Go's TestUnknownField: patches created, or an error containing the expected text. */
  private static void unknownField(JsonNode c, boolean threeWay, StrategicMergeSchema schema) {
    String prefix = threeWay ? "expectedThreeWay" : "expectedTwoWay";
    JsonNode original = text(c, "original");
    JsonNode modified = text(c, "modified");
    String expectedError = c.has(prefix + "Err") ? c.get(prefix + "Err").asText() : null;
    JsonNode patch;
    try {
      patch =
          threeWay
              ? StrategicMergePatch.createThreeWay(original, modified, text(c, "current"), schema)
              : StrategicMergePatch.createTwoWay(original, modified, schema);
    } catch (PatchException e) {
      if (expectedError != null && e.getMessage().contains(expectedError)) {
        return;
      }
      throw e;
    }
    if (expectedError != null) {
      throw new AssertionError("no error containing \"" + expectedError + "\": " + patch);
    }
    same(text(c, prefix), patch, "patch");
    JsonNode result =
        StrategicMergePatch.apply(threeWay ? text(c, "current") : original, patch, schema);
    same(text(c, prefix + "Result"), result, "applied");
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Go's StrategicMergePatch on documents: ErrBadJSONDoc for a malformed original or patch. */
  @Test
  void documentsThatAreNotJsonObjectsAreInvalidJsonDocuments() {
    StrategicMergeSchema schema = StrategicMergeSchema.ofType(MergeItem.class);
    List<String[]> pairs =
        List.of(
            new String[] {"{\"name\":", "{}"},
            new String[] {"{}", "{\"name\":"},
            new String[] {"[]", "{}"},
            new String[] {"{}", "[{\"name\":\"a\"}]"},
            new String[] {"{}", "{\"name\":\"a\"} {}"},
            new String[] {"{}", ""});
    for (String[] pair : pairs) {
      PatchException e =
          assertThrows(
              PatchException.class,
              () -> StrategicMergePatch.apply(utf8(pair[0]), utf8(pair[1]), schema),
              pair[0] + " " + pair[1]);
      assertEquals("invalid JSON document", e.getMessage());
      assertEquals(PatchException.Kind.MALFORMED, e.kind());
    }
    assertEquals(
        "{\"name\":\"b\",\"value\":\"v\"}",
        new String(
            StrategicMergePatch.apply(
                utf8("{\"name\":\"a\",\"value\":\"v\"}"), utf8("{\"name\":\"b\"}"), schema),
            java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(
        "{\"name\":\"a\"}",
        new String(
            StrategicMergePatch.apply(utf8("{\"name\":\"a\"}"), utf8("null"), schema),
            java.nio.charset.StandardCharsets.UTF_8),
        "a null patch changes nothing, as Go reads it into no map");
    assertEquals(
        "{\"name\":\"a\"}",
        new String(
            StrategicMergePatch.apply(null, utf8("{\"name\":\"a\"}"), schema),
            java.nio.charset.StandardCharsets.UTF_8),
        "no original is an empty object");
  }

  private static byte[] utf8(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void setElementOrderThatContradictsThePatchListIsRefused() {
    PatchException e =
        assertThrows(
            PatchException.class,
            () ->
                StrategicMergePatch.apply(
                    json("{\"mergeItemPtr\":{\"mergingList\":[{\"name\":1},{\"name\":2}]}}"),
                    json(
                        "{\"mergeItemPtr\":{\"$setElementOrder/mergingList\":[{\"name\":1},"
                            + "{\"name\":2}],\"mergingList\":[{\"name\":2,\"value\":\"b\"},"
                            + "{\"$patch\":\"delete\",\"name\":3},{\"name\":1}]}}"),
                    MergeItem.class));
    assertEquals(
        "mergeItemPtr.mergingList: the order in patch list [{\"name\":2,\"value\":\"b\"},"
            + "{\"$patch\":\"delete\",\"name\":3},{\"name\":1}] doesn't match $setElementOrder"
            + " list [{\"name\":1},{\"name\":2}]",
        e.getMessage());
    assertEquals(PatchException.Kind.MALFORMED, e.kind());
    PatchException values =
        assertThrows(
            PatchException.class,
            () ->
                StrategicMergePatch.apply(
                    json("{}"),
                    json("{\"$setElementOrder/mergingIntList\":[1,2],\"mergingIntList\":[3]}"),
                    MergeItem.class));
    assertEquals(
        "mergingIntList: the order in patch list [3] doesn't match $setElementOrder list [1,2]",
        values.getMessage());
  }

  @Test
  void deletingAMapLeavesItEmpty() {
    assertEquals(
        json("{\"simpleMap\":{},\"mergeItemPtr\":{\"simpleMap\":{}}}"),
        StrategicMergePatch.apply(
            json("{\"simpleMap\":{\"a\":\"1\"},\"mergeItemPtr\":{\"simpleMap\":{\"b\":\"2\"}}}"),
            json(
                "{\"simpleMap\":{\"$patch\":\"delete\"},"
                    + "\"mergeItemPtr\":{\"simpleMap\":{\"$patch\":\"delete\"}}}"),
            MergeItem.class));
  }

  @Test
  void anUnknownFieldOfATypedObjectIsAnErrorWhereItsStrategyIsNeeded() {
    JsonNode original = json("{\"mergeItemPtr\":{\"name\":\"a\",\"complex\":{\"nested\":true}}}");
    JsonNode modified = json("{\"mergeItemPtr\":{\"name\":\"a\",\"complex\":{\"nested\":false}}}");
    String message =
        "mergeItemPtr.complex: unable to find api field in struct MergeItem for the json field"
            + " \"complex\"";
    PatchException twoWay =
        assertThrows(
            PatchException.class,
            () -> StrategicMergePatch.createTwoWay(original, modified, MergeItem.class));
    assertEquals(message, twoWay.getMessage());
    assertEquals(PatchException.Kind.MALFORMED, twoWay.kind());
    PatchException threeWay =
        assertThrows(
            PatchException.class,
            () ->
                StrategicMergePatch.createThreeWay(original, modified, original, MergeItem.class));
    assertEquals(message, threeWay.getMessage());
    PatchException applied =
        assertThrows(
            PatchException.class,
            () ->
                StrategicMergePatch.apply(
                    original,
                    json("{\"mergeItemPtr\":{\"complex\":{\"nested\":false}}}"),
                    MergeItem.class));
    assertEquals(message, applied.getMessage());
    PatchException list =
        assertThrows(
            PatchException.class,
            () ->
                StrategicMergePatch.apply(
                    json("{\"retainKeysMap\":{\"items\":[1]}}"),
                    json("{\"retainKeysMap\":{\"items\":[2]}}"),
                    MergeItem.class));
    assertEquals(
        "retainKeysMap.items: unable to find api field in struct RetainKeysMergeItem for the json"
            + " field \"items\"",
        list.getMessage());
    // Unchanged, or new, or a scalar: no strategy is needed, as in Kubernetes.
    assertEquals(json("{}"), StrategicMergePatch.createTwoWay(original, original, MergeItem.class));
    assertEquals(
        json("{\"mergeItemPtr\":{\"name\":\"a\",\"complex\":{\"nested\":true},\"n\":{\"x\":1}}}"),
        StrategicMergePatch.apply(
            original, json("{\"mergeItemPtr\":{\"n\":{\"x\":1}}}"), MergeItem.class));
    // A value of a type that says nothing of its fields (an Object) merges as a JSON merge patch.
    assertEquals(
        json("{\"jsonItem\":{\"a\":{\"b\":2}}}"),
        StrategicMergePatch.createTwoWay(
            json("{\"jsonItem\":{\"a\":{\"b\":1}}}"),
            json("{\"jsonItem\":{\"a\":{\"b\":2}}}"),
            MergeItem.class));
  }
}
