package dev.machinery.core.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.fieldpath.FieldSet;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * structured-merge-diff's reconcile_schema_test.go, its table kept as data in {@code
 * typed/smd/reconcile.json}: a field set recorded under an old schema, the live object and the
 * reconciled set under the new schema ({@code null} where the set comes back unchanged).
 */
class TypedReconcileTest {
  static Stream<Arguments> reconciles() {
    JsonNode table = SmdTables.load("reconcile.json");
    List<Arguments> cases = new ArrayList<>();
    for (JsonNode c : table.path("reconcileCases")) {
      Schema schema =
          SmdSchemas.parse(table.path("schemas").path(c.path("newSchema").asText()).asText());
      cases.add(
          Arguments.of(
              c.path("name").asText(),
              schema.type(c.path("rootTypeName").asText()),
              c.path("liveObject"),
              SmdTables.set(c.path("oldFields")),
              c.path("fixedFields").isNull() ? null : SmdTables.set(c.path("fixedFields"))));
    }
    assertEquals(7, cases.size());
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("reconciles")
  void reconcilesAsGoDoes(
      String name, SchemaType type, JsonNode live, FieldSet oldFields, FieldSet fixedFields) {
    type.validate(live);
    FieldSet got = type.reconcile(oldFields);
    if (fixedFields == null) {
      assertSame(oldFields, got, "unchanged");
    } else {
      assertEquals(fixedFields, got);
    }
  }
}
