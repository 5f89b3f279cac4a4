package dev.machinery.core.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * structured-merge-diff's merge_test.go (TestMerge), its table kept as data in {@code
 * typed/smd/merge.json}: a live object, an applied one and the merged object Go returns.
 */
class TypedMergeTest {
  static Stream<Arguments> merges() {
    List<Arguments> cases = new ArrayList<>();
    for (JsonNode tableCase : SmdTables.load("merge.json").path("mergeCases")) {
      SchemaType type = SmdTables.type(tableCase);
      int i = 0;
      for (JsonNode triplet : tableCase.path("triplets")) {
        cases.add(
            Arguments.of(
                tableCase.path("name").asText() + "-" + i++,
                type,
                SmdTables.object(triplet.get(0)),
                SmdTables.object(triplet.get(1)),
                SmdTables.object(triplet.get(2))));
      }
    }
    assertEquals(64, cases.size());
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("merges")
  void mergesAsGoDoes(String name, SchemaType type, JsonNode lhs, JsonNode rhs, JsonNode out) {
    String before = lhs.toString() + rhs;
    JsonNode got = type.merge(lhs, rhs);
    assertTrue(JsonValues.equal(out, got), () -> "expected " + out + " but got " + got);
    assertEquals(before, lhs.toString() + rhs, "inputs unchanged");
  }

  @Test
  void refusesDuplicateKeysInTheAppliedValue() {
    SchemaType type = TypedToFieldSetTest.GRAB_BAG;
    TypedException e =
        assertThrows(
            TypedException.class,
            () ->
                type.merge(
                    SmdSchemas.yaml("{\"setStr\": [\"a\"]}"),
                    SmdSchemas.yaml("{\"setStr\": [\"a\", \"a\"]}")));
    assertEquals(".setStr: duplicate entries for key [=\"a\"]", e.getMessage());
  }
}
