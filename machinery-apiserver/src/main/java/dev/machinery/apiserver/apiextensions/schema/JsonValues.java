package dev.machinery.apiserver.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** JSON values as {@code Unstructured} holds them: from trees, compared, shown. Stateless. */
final class JsonValues {
  private JsonValues() {}

  /** A tree as maps, lists, strings, {@code Long}, {@code BigInteger}, {@code Double}, booleans. */
  static Object fromTree(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        map.put(field.getKey(), fromTree(field.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(fromTree(item)));
      return list;
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    return node.asText();
  }

  /** A number as a decimal. */
  static BigDecimal decimal(Number number) {
    if (number instanceof BigInteger big) {
      return new BigDecimal(big);
    }
    if (number instanceof Long || number instanceof Integer) {
      return BigDecimal.valueOf(number.longValue());
    }
    if (number instanceof BigDecimal decimal) {
      return decimal;
    }
    return BigDecimal.valueOf(number.doubleValue());
  }

  /** A value in a form whose equals is JSON equality (numbers by value, maps unordered). */
  static Object canonical(Object value) {
    if (value instanceof Number number) {
      return decimal(number).stripTrailingZeros();
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(String.valueOf(k), canonical(v)));
      return sorted;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      list.forEach(item -> out.add(canonical(item)));
      return out;
    }
    return value;
  }

  /** Whether two values are equal as JSON. */
  static boolean equal(Object a, Object b) {
    return java.util.Objects.equals(canonical(a), canonical(b));
  }
}
