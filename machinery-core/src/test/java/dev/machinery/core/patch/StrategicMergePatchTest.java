package dev.machinery.core.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes' strategic merge patch tables (test resources under {@code strategicpatch/}, carried
 * over from its patch_test.go): every patch Kubernetes computes, applied here with the same
 * strategies, gives the object Kubernetes gives.
 */
class StrategicMergePatchTest {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private static JsonNode resource(String name) throws IOException {
    try (InputStream in =
        StrategicMergePatchTest.class.getResourceAsStream("/strategicpatch/" + name)) {
      return name.endsWith(".json") ? JSON.readTree(in) : YAML.readTree(in);
    }
  }

  private static JsonNode yaml(JsonNode text) throws IOException {
    JsonNode tree = YAML.readTree(text.asText());
    return tree == null || tree.isMissingNode() || tree.isNull() ? JSON.createObjectNode() : tree;
  }

  private static JsonNode node(JsonNode value) {
    return value == null || value.isNull() ? JSON.createObjectNode() : value;
  }

  private static void check(
      List<String> wrong, String what, JsonNode original, JsonNode patch, JsonNode expected) {
    try {
      JsonNode got = StrategicMergePatch.apply(original, patch, MergeItem.class);
      if (!got.equals(expected)) {
        wrong.add(what + "\n  patch " + patch + "\n  want  " + expected + "\n  got   " + got);
      }
    } catch (PatchException e) {
      wrong.add(what + ": " + e.getMessage());
    }
  }

  /** The cases as (name, original, modified, current, twoWay, expected two-way result, result). */
  private static List<JsonNode[]> cases() throws IOException {
    List<JsonNode[]> cases = new ArrayList<>();
    for (JsonNode c : resource("create-cases.yaml").get("testCases")) {
      cases.add(
          new JsonNode[] {
            c.get("description"),
            node(c.get("original")),
            node(c.get("modified")),
            node(c.get("current")),
            node(c.get("twoWay")),
            node(c.has("twoWayResult") ? c.get("twoWayResult") : c.get("modified")),
            c.has("result") ? node(c.get("result")) : null
          });
    }
    for (JsonNode c : resource("raw-cases.json").get("cases")) {
      cases.add(
          new JsonNode[] {
            c.get("description"),
            yaml(c.get("original")),
            yaml(c.get("modified")),
            yaml(c.get("current")),
            yaml(c.get("twoWay")),
            c.has("twoWayResult") ? yaml(c.get("twoWayResult")) : yaml(c.get("modified")),
            c.has("result") ? yaml(c.get("result")) : null
          });
    }
    return cases;
  }

  @Test
  void twoWayPatchesAreKubernetesPatches() throws IOException {
    List<String> wrong = new ArrayList<>();
    List<JsonNode[]> cases = cases();
    for (JsonNode[] c : cases) {
      try {
        JsonNode patch = StrategicMergePatch.createTwoWay(c[1], c[2], MergeItem.class);
        if (!patch.equals(c[4])) {
          wrong.add(c[0].asText() + "\n  want " + c[4] + "\n  got  " + patch);
        }
      } catch (PatchException e) {
        wrong.add(c[0].asText() + ": " + e.getMessage());
      }
    }
    assertEquals(
        List.of(),
        wrong,
        "of " + cases.size() + " two-way patches, these differ:\n" + String.join("\n", wrong));
  }

  @Test
  void threeWayPatchesGiveKubernetesResults() throws IOException {
    List<String> wrong = new ArrayList<>();
    int checked = 0;
    for (JsonNode[] c : cases()) {
      if (c[6] == null) {
        continue;
      }
      checked++;
      try {
        JsonNode patch = StrategicMergePatch.createThreeWay(c[1], c[2], c[3], MergeItem.class);
        JsonNode result = StrategicMergePatch.apply(c[3], patch, MergeItem.class);
        if (!result.equals(c[6])) {
          wrong.add(
              c[0].asText() + "\n  patch " + patch + "\n  want  " + c[6] + "\n  got   " + result);
        }
      } catch (PatchException e) {
        wrong.add(c[0].asText() + ": " + e.getMessage());
      }
    }
    assertEquals(
        List.of(),
        wrong,
        "of " + checked + " three-way patches, these differ:\n" + String.join("\n", wrong));
  }

  @Test
  void kubernetesPatchesApplyAsInKubernetes() throws IOException {
    List<String> wrong = new ArrayList<>();
    int checked = 0;
    for (JsonNode c : resource("create-cases.yaml").get("testCases")) {
      String name = c.get("description").asText();
      check(
          wrong,
          name + " (two-way)",
          node(c.get("original")),
          node(c.get("twoWay")),
          node(c.has("twoWayResult") ? c.get("twoWayResult") : c.get("modified")));
      if (c.has("threeWay") && c.has("result")) {
        check(
            wrong,
            name + " (three-way)",
            node(c.get("current")),
            node(c.get("threeWay")),
            node(c.get("result")));
        checked++;
      }
      checked++;
    }
    for (JsonNode c : resource("raw-cases.json").get("cases")) {
      String name = c.get("description").asText();
      if (c.has("twoWay")) {
        JsonNode expected =
            c.has("twoWayResult") ? yaml(c.get("twoWayResult")) : yaml(c.get("modified"));
        check(wrong, name + " (two-way)", yaml(c.get("original")), yaml(c.get("twoWay")), expected);
        checked++;
      }
      if (c.has("threeWay") && c.has("result")) {
        check(
            wrong,
            name + " (three-way)",
            yaml(c.get("current")),
            yaml(c.get("threeWay")),
            yaml(c.get("result")));
        checked++;
      }
    }
    assertEquals(
        List.of(), wrong, "of " + checked + " patches, these differ:\n" + String.join("\n", wrong));
  }
}
