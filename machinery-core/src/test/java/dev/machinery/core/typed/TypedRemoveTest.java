package dev.machinery.core.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * structured-merge-diff's remove_test.go (TestRemove, TestReversibleExtract and
 * TestExtractWithKeys), its tables kept as data in {@code typed/smd/remove.json}: an object, a
 * field set, and what Go's RemoveItems and ExtractItems return ({@code unparseable} where Go checks
 * only one of them).
 */
class TypedRemoveTest {
  static Stream<Arguments> removals() {
    List<Arguments> cases = new ArrayList<>();
    for (JsonNode tableCase : SmdTables.load("remove.json").path("removeCases")) {
      SchemaType type = SmdTables.type(tableCase);
      int i = 0;
      for (JsonNode quadruplet : tableCase.path("quadruplets")) {
        cases.add(
            Arguments.of(
                tableCase.path("name").asText() + "-" + i++,
                type,
                SmdTables.object(quadruplet.get(0)),
                SmdTables.set(quadruplet.get(1)),
                quadruplet.get(2).asText(),
                quadruplet.get(3).asText()));
      }
    }
    assertEquals(59, cases.size());
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("removals")
  void removesAndExtractsAsGoDoes(
      String name,
      SchemaType type,
      JsonNode object,
      FieldSet set,
      String removeOutput,
      String extractOutput) {
    String before = object.toString();
    if (!removeOutput.equals("unparseable")) {
      JsonNode want = SmdTables.object(SmdSchemas.YAML.getNodeFactory().textNode(removeOutput));
      JsonNode got = type.removeItems(object, set);
      assertTrue(JsonValues.equal(want, got), () -> "remove: expected " + want + " got " + got);
    }
    if (!extractOutput.equals("unparseable")) {
      JsonNode want = SmdTables.object(SmdSchemas.YAML.getNodeFactory().textNode(extractOutput));
      JsonNode got = type.extractItems(object, set);
      assertTrue(JsonValues.equal(want, got), () -> "extract: expected " + want + " got " + got);
    }
    assertEquals(before, object.toString(), "input unchanged");
  }

  static Stream<Arguments> reversibleExtracts() {
    List<Arguments> cases = new ArrayList<>();
    for (JsonNode tableCase : SmdTables.load("remove.json").path("reversibleExtractCases")) {
      SchemaType type = SmdTables.type(tableCase);
      int i = 0;
      for (JsonNode pair : tableCase.path("pairs")) {
        cases.add(
            Arguments.of(
                tableCase.path("name").asText() + "-" + i++,
                type,
                SmdTables.object(pair.get(0)),
                SmdTables.object(pair.get(1))));
      }
    }
    assertEquals(17, cases.size());
    return cases.stream();
  }

  /**
   * remove_test.go's TestReversibleExtract: a partial object merged into another is extracted back
   * by the leaves of its own field set.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("reversibleExtracts")
  void extractsWhatWasMergedIn(String name, SchemaType type, JsonNode object, JsonNode partial) {
    JsonNode merged = type.merge(object, partial);
    JsonNode got = type.extractItems(merged, type.toFieldSet(partial).leaves());
    assertTrue(JsonValues.equal(partial, got), () -> "expected " + partial + " got " + got);
  }

  static Stream<Arguments> extractsWithKeys() {
    SchemaType type =
        SmdTables.type(SmdTables.load("remove.json").path("removeCases").get(2)); // myRoot
    Object nginx = PathElement.key("key", "nginx", "id", 1);
    String object = "{\"list\":[{\"key\":\"nginx\",\"id\":1,\"nv\":2}]}";
    String atomicItem =
        "{\"atomicElementList\":[{\"id\":\"test-123\",\"data\":\"value\",\"extra\":\"field\"}]}";
    return Stream.of(
        Arguments.of(
            type,
            object,
            FieldSet.of(FieldPath.of("list", nginx, "key"), FieldPath.of("list", nginx, "id")),
            "{\"list\":[{\"key\":\"nginx\",\"id\":1}]}"),
        Arguments.of(type, object, FieldSet.of(FieldPath.of("list", nginx, "nv")), object),
        Arguments.of(
            type,
            object,
            FieldSet.of(FieldPath.of("list", nginx, "nv"), FieldPath.of("list", nginx, "id")),
            object),
        Arguments.of(
            type, object, FieldSet.of(FieldPath.of("list", nginx, "value")), "{\"list\":[null]}"),
        Arguments.of(
            type,
            atomicItem,
            FieldSet.of(FieldPath.of("atomicElementList", PathElement.key("id", "test-123"))),
            atomicItem));
  }

  /** remove_test.go's TestExtractWithKeys: extraction that keeps the key fields of the items. */
  @ParameterizedTest
  @MethodSource("extractsWithKeys")
  void extractsWithKeyFieldsAsGoDoes(SchemaType type, String object, FieldSet set, String want) {
    JsonNode got = type.extractItems(SmdSchemas.yaml(object), set, true);
    assertTrue(
        JsonValues.equal(SmdSchemas.yaml(want), got), () -> "expected " + want + " got " + got);
  }
}
