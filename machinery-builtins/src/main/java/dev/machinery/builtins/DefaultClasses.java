package dev.machinery.builtins;

import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The default of a kind of class (StorageClass, IngressClass) as kube-apiserver's admission picks
 * it: among the classes marked default, the newest by creation time, then the first by name.
 */
final class DefaultClasses {
  private static final Comparator<Map<String, Object>> NEWEST_FIRST =
      Comparator.comparing(
              (Map<String, Object> c) -> JsonTrees.string(c, "", "metadata", "creationTimestamp"))
          .reversed()
          .thenComparing(c -> JsonTrees.string(c, "", "metadata", "name"));

  private DefaultClasses() {}

  /** The name of the default among classes, or empty when none is marked default. */
  static Optional<String> defaultName(
      List<Map<String, Object>> classes, Predicate<Map<String, Object>> isDefault) {
    return classes.stream()
        .filter(isDefault)
        .min(NEWEST_FIRST)
        .map(c -> JsonTrees.string(c, "", "metadata", "name"));
  }
}
