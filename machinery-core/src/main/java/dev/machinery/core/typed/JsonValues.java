package dev.machinery.core.typed;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Equality of JSON values as structured-merge-diff's {@code value.Equals}: numbers by their value
 * (an integer equals a float of the same value), maps whatever their order, lists item by item.
 */
final class JsonValues {
  private JsonValues() {}

  static boolean equal(List<JsonNode> a, List<JsonNode> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!equal(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  static boolean equal(JsonNode a, JsonNode b) {
    if (TypedWalker.isNull(a) || TypedWalker.isNull(b)) {
      return TypedWalker.isNull(a) && TypedWalker.isNull(b);
    }
    if (a.isNumber() && b.isNumber()) {
      if (a.isIntegralNumber() && b.isIntegralNumber()) {
        return a.bigIntegerValue().equals(b.bigIntegerValue());
      }
      return a.doubleValue() == b.doubleValue();
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!equal(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> entry : a.properties()) {
        JsonNode other = b.get(entry.getKey());
        if (other == null || !equal(entry.getValue(), other)) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }
}
