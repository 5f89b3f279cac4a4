package dev.machinery.core.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * structured-merge-diff's symdiff_test.go (TestSymdiff), its table kept as data in {@code
 * typed/smd/symdiff.json}: two objects and the fields Go finds added, modified and removed, checked
 * both ways (the reverse comparison swaps added and removed).
 */
class TypedCompareTest {
  static Stream<Arguments> symdiff() {
    List<Arguments> cases = new ArrayList<>();
    for (JsonNode tableCase : SmdTables.load("symdiff.json").path("symdiffCases")) {
      SchemaType type = SmdTables.type(tableCase);
      int i = 0;
      for (JsonNode quint : tableCase.path("quints")) {
        cases.add(
            Arguments.of(
                tableCase.path("name").asText() + "-" + i++,
                type,
                SmdTables.object(quint.path("lhs")),
                SmdTables.object(quint.path("rhs")),
                SmdTables.set(quint.path("added")),
                SmdTables.set(quint.path("modified")),
                SmdTables.set(quint.path("removed"))));
      }
    }
    assertEquals(84, cases.size());
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("symdiff")
  void comparesAsGoDoes(
      String name,
      SchemaType type,
      JsonNode lhs,
      JsonNode rhs,
      FieldSet added,
      FieldSet modified,
      FieldSet removed) {
    String before = lhs.toString() + rhs;
    Comparison got = type.compare(lhs, rhs);
    assertEquals(added, got.added(), "added");
    assertEquals(modified, got.modified(), "modified");
    assertEquals(removed, got.removed(), "removed");
    Comparison reverse = type.compare(rhs, lhs);
    assertEquals(removed, reverse.added(), "reverse added");
    assertEquals(modified, reverse.modified(), "reverse modified");
    assertEquals(added, reverse.removed(), "reverse removed");
    assertEquals(before, lhs.toString() + rhs, "inputs unchanged");
  }

  @Test
  void equalValuesAreTheSame() {
    SchemaType type = TypedToFieldSetTest.GRAB_BAG;
    ObjectNode value = (ObjectNode) SmdSchemas.yaml("{\"numeric\": 1, \"setStr\": [\"a\", \"b\"]}");
    assertTrue(type.compare(value, value.deepCopy()).isSame());
    Comparison changed =
        type.compare(value, SmdSchemas.yaml("{\"numeric\": 2, \"setStr\": [\"b\"]}"));
    assertEquals(FieldSet.of(FieldPath.of("numeric")), changed.modified());
  }
}
