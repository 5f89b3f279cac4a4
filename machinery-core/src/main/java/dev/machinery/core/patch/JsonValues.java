package dev.machinery.core.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;

/** Equality of JSON values as JSON means it: {@code 1} and {@code 1.0} are the same number. */
final class JsonValues {
  private static final Comparator<JsonNode> NUMBERS =
      (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
          return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
      };

  private JsonValues() {}

  static boolean same(JsonNode a, JsonNode b) {
    return a.equals(NUMBERS, b);
  }

  /** The number of JSON values in a tree (a scalar is one; containers count themselves too). */
  static long count(JsonNode node) {
    long count = 1;
    for (JsonNode child : node) {
      count += count(child);
    }
    return count;
  }
}
