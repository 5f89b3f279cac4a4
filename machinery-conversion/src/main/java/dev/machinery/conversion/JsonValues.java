package dev.machinery.conversion;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep copies of untyped JSON values ({@code Object} properties, {@code Map<String, Object>}): the
 * form a JSON document takes when it is read without a class, as maps, lists, strings, numbers,
 * booleans and {@code null}. Generated code uses it for properties declared as {@code Object}, as
 * Kubernetes' generated deep copy uses {@code runtime.DeepCopyJSONValue}.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class JsonValues {
  private JsonValues() {}

  /**
   * Returns a deep copy of a JSON value: maps and lists are copied (maps keep their order),
   * strings, numbers and booleans are returned as they are.
   *
   * @param value a JSON value, possibly {@code null}
   * @return the copy
   * @throws IllegalArgumentException if the value, or anything inside it, is not a JSON value; the
   *     message names where it was found
   */
  public static Object deepCopy(Object value) {
    return copy(value, "");
  }

  private static Object copy(Object value, String path) {
    if (value == null
        || value instanceof String
        || value instanceof Boolean
        || value instanceof Integer
        || value instanceof Long
        || value instanceof Double
        || value instanceof Float
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger
        || value instanceof BigDecimal) {
      return value;
    }
    if (value instanceof Map) {
      Map<?, ?> map = (Map<?, ?>) value;
      Map<String, Object> out = new LinkedHashMap<>(map.size() * 4 / 3 + 1);
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String)) {
          throw new IllegalArgumentException(
              "not a JSON value at "
                  + (path.isEmpty() ? "the root" : path)
                  + ": a map key is "
                  + (entry.getKey() == null ? "null" : entry.getKey().getClass().getName())
                  + ", expected a string");
        }
        String key = (String) entry.getKey();
        out.put(key, copy(entry.getValue(), path + "[" + key + "]"));
      }
      return out;
    }
    if (value instanceof List) {
      List<?> list = (List<?>) value;
      List<Object> out = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        out.add(copy(list.get(i), path + "[" + i + "]"));
      }
      return out;
    }
    throw new IllegalArgumentException(
        "not a JSON value at "
            + (path.isEmpty() ? "the root" : path)
            + ": "
            + value.getClass().getName()
            + "; expected a map, list, string, number, boolean or null");
  }
}
