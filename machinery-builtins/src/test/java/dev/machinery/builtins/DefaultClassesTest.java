package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The default class among several marked default, as kube-apiserver's DefaultStorageClass and
 * DefaultIngressClass pick it: the newest, then the first by name.
 */
class DefaultClassesTest {
  private static Map<String, Object> cls(String name, String created, boolean isDefault) {
    return Map.of(
        "metadata",
        Map.of(
            "name", name,
            "creationTimestamp", created,
            "annotations", Map.of("default", String.valueOf(isDefault))));
  }

  private static Optional<String> pick(List<Map<String, Object>> classes) {
    return DefaultClasses.defaultName(
        classes, c -> "true".equals(JsonTrees.string(c, "", "metadata", "annotations", "default")));
  }

  @Test
  void theNewestDefaultThenTheFirstByName() {
    assertEquals(
        Optional.of("newer"),
        pick(
            List.of(
                cls("older", "2024-01-01T00:00:00Z", true),
                cls("newer", "2024-06-01T00:00:00Z", true),
                cls("newest-but-not-default", "2025-01-01T00:00:00Z", false))));
    assertEquals(
        Optional.of("alpha"),
        pick(
            List.of(
                cls("beta", "2024-06-01T00:00:00Z", true),
                cls("alpha", "2024-06-01T00:00:00Z", true))));
    assertEquals(Optional.empty(), pick(List.of(cls("plain", "2024-06-01T00:00:00Z", false))));
    assertEquals(Optional.empty(), pick(List.of()));
  }
}
