package dev.machinery.cluster.controller.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Revision data, names and hashes: Go's {@code hash/fnv} New32 (FNV-1) test vectors, and the facts
 * of pkg/controller/history (the template patch, the probe changing the hash, names cut to 223).
 */
class ControllerHistoryTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest(name = "FNV-1 32 of \"{0}\"")
  @CsvSource({"'', 811c9dc5", "a, 050c5d7e", "ab, 70772d38", "abc, 439c2f4b"})
  void fnv1MatchesGosVectors(String input, String expected) {
    int hash = ControllerHistory.fnv1(0x811c9dc5, input.getBytes(StandardCharsets.UTF_8));
    assertEquals(expected, String.format("%08x", hash));
  }

  @Test
  void theTemplatePatchReplacesTheTemplate() throws Exception {
    JsonNode set =
        JSON.readTree(
            "{\"metadata\":{\"name\":\"s\"},\"spec\":{\"replicas\":3,"
                + "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}}}}}");
    assertEquals(
        JSON.readTree(
            "{\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},"
                + "\"$patch\":\"replace\"}}}"),
        ControllerHistory.templatePatch(set));
  }

  @Test
  void theProbeChangesTheHashAndTheHashIsSafeInAName() throws Exception {
    JsonNode data = JSON.readTree("{\"spec\":{\"template\":{\"$patch\":\"replace\"}}}");
    String plain = ControllerHistory.hash(data, null);
    assertEquals(plain, ControllerHistory.hash(data, null));
    assertNotEquals(plain, ControllerHistory.hash(data, 1));
    assertNotEquals(ControllerHistory.hash(data, 1), ControllerHistory.hash(data, 2));
    assertTrue(plain.matches("[bcdfghjklmnpqrstvwxz2456789]+"), plain);
  }

  @Test
  void namesAreCutTo223CharactersBeforeTheHash() {
    assertEquals("web-abc", ControllerHistory.revisionName("web", "abc"));
    String name = ControllerHistory.revisionName("x".repeat(250), "abc");
    assertEquals("x".repeat(223) + "-abc", name);
  }
}
