package dev.machinery.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.fieldpath.FieldSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * structured-merge-diff's conflict_test.go, kept as data in {@code merge/smd/conflict.json}: the
 * conflicts listed for managers' fields, in order and with their paths printed as Go prints them,
 * and all their paths together.
 */
class SmdConflictsTest {
  static Stream<JsonNode> cases() {
    List<JsonNode> cases = new ArrayList<>();
    SmdMergeTablesTest.load("conflict.json").path("cases").forEach(cases::add);
    assertEquals(3, cases.size());
    return cases.stream();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void listsConflictsAsGoDoes(JsonNode c) {
    Map<String, FieldSet> byManager = new LinkedHashMap<>();
    c.path("managers")
        .properties()
        .forEach(
            e -> byManager.put(e.getKey(), SmdMergeTablesTest.set(e.getValue().path("paths"))));
    List<Conflict> conflicts = Updater.conflictsOf(byManager);
    assertFalse(conflicts.isEmpty());
    ConflictException exception = new ConflictException(conflicts);
    if (c.has("conflicts")) {
      List<String> want = new ArrayList<>();
      c.get("conflicts")
          .forEach(x -> want.add(x.path("manager").asText() + " " + x.path("path").asText()));
      List<String> got = new ArrayList<>();
      exception.conflicts().forEach(x -> got.add(x.manager() + " " + x.path()));
      assertEquals(want, got, c.path("name").asText());
    }
    if (c.has("set")) {
      FieldSet all = FieldSet.empty();
      for (Conflict x : exception.conflicts()) {
        all = all.with(x.path());
      }
      assertEquals(SmdMergeTablesTest.set(c.get("set")), all, c.path("name").asText());
    }
  }
}
