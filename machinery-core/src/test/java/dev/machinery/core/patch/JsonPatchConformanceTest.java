package dev.machinery.core.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON Patch conformance suite (json-patch/json-patch-tests, under {@code json-patch-tests/} in
 * the test resources; see the README there): every case with an {@code expected} document gives it,
 * every case with an {@code error} fails with a {@link PatchException}, and cases the suite marks
 * {@code disabled} are skipped. Cases where the library deliberately behaves otherwise are listed
 * in {@link #DIFFERENCES} with the reason (docs/patches.md explains them too).
 */
class JsonPatchConformanceTest {
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /**
   * Cases (file and index in it) where the library deliberately differs from the suite, with why.
   * Empty: the library follows the suite on every case it does not disable.
   */
  private static final Map<String, String> DIFFERENCES = Map.of();

  private static JsonNode resource(String name) throws IOException {
    try (InputStream in =
        JsonPatchConformanceTest.class.getResourceAsStream("/json-patch-tests/" + name)) {
      return JSON.readTree(in);
    }
  }

  /** Runs one file's cases; returns {run, passed, skipped, differing} and adds what failed. */
  private static int[] run(String file, List<String> wrong) throws IOException {
    int run = 0;
    int passed = 0;
    int skipped = 0;
    int differing = 0;
    JsonNode cases = resource(file);
    for (int index = 0; index < cases.size(); index++) {
      JsonNode c = cases.get(index);
      String name = file + "#" + index;
      String what = name + " (" + c.path("comment").asText("no comment") + ")";
      if (c.path("disabled").asBoolean(false) || !c.has("patch")) {
        skipped++;
        continue;
      }
      run++;
      String outcome;
      try {
        JsonNode got = JsonPatch.apply(c.get("doc"), c.get("patch"));
        if (c.has("error")) {
          outcome = "expected an error (" + c.get("error").asText() + "), got " + got;
        } else if (c.has("expected") && !JsonValues.same(c.get("expected"), got)) {
          outcome = "expected " + c.get("expected") + ", got " + got;
        } else {
          outcome = null;
        }
      } catch (PatchException e) {
        outcome = c.has("error") ? null : "expected " + c.get("expected") + ", got " + e;
      }
      if (DIFFERENCES.containsKey(name)) {
        if (outcome == null) {
          wrong.add(what + ": listed as a difference but follows the suite");
        } else {
          differing++;
        }
      } else if (outcome == null) {
        passed++;
      } else {
        wrong.add(what + ": " + outcome);
      }
    }
    return new int[] {run, passed, skipped, differing};
  }

  @Test
  void mainTestsPass() throws IOException {
    List<String> wrong = new ArrayList<>();
    int[] counts = run("tests.json", wrong);
    assertEquals(List.of(), wrong);
    assertEquals("run 92, passed 92, skipped 3, differing 0", counts(counts));
  }

  @Test
  void specTestsPass() throws IOException {
    List<String> wrong = new ArrayList<>();
    int[] counts = run("spec_tests.json", wrong);
    assertEquals(List.of(), wrong);
    assertEquals("run 16, passed 16, skipped 1, differing 0", counts(counts));
  }

  private static String counts(int[] counts) {
    return "run "
        + counts[0]
        + ", passed "
        + counts[1]
        + ", skipped "
        + counts[2]
        + ", differing "
        + counts[3];
  }
}
