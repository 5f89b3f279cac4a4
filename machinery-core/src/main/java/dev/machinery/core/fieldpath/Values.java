package dev.machinery.core.fieldpath;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The JSON values of key and value path elements as structured-merge-diff treats them: numbers are
 * either 64-bit integers ({@link LongNode}) or doubles ({@link DoubleNode}) and compare by value
 * across the two; the order of kinds is numbers, strings, booleans, lists, maps, null; strings
 * compare by code point (the byte order of their UTF-8).
 */
final class Values {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Values() {}

  /** A Java value as a normalized, private JSON value. */
  static JsonNode of(Object value) {
    if (value == null) {
      return NullNode.instance;
    }
    if (value instanceof JsonNode node) {
      return normalize(node);
    }
    if (value instanceof String s) {
      return TextNode.valueOf(s);
    }
    if (value instanceof Boolean b) {
      return BooleanNode.valueOf(b);
    }
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return LongNode.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigInteger big) {
      if (big.bitLength() > 63) {
        throw new IllegalArgumentException("integer " + big + " is outside the 64-bit range");
      }
      return LongNode.valueOf(big.longValue());
    }
    if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
      return finite(((Number) value).doubleValue());
    }
    throw new IllegalArgumentException(
        "a path element value must be null, a String, a Boolean, an integer, a floating-point"
            + " number or a JsonNode; got "
            + value.getClass().getName());
  }

  /** A copy of a JSON tree with integers as longs and other numbers as doubles. */
  static JsonNode normalize(JsonNode node) {
    switch (node.getNodeType()) {
      case NULL:
        return NullNode.instance;
      case BOOLEAN:
        return BooleanNode.valueOf(node.booleanValue());
      case STRING:
        return TextNode.valueOf(node.textValue());
      case NUMBER:
        if (node.isIntegralNumber()) {
          if (!node.canConvertToLong()) {
            throw new IllegalArgumentException(
                "integer " + node.asText() + " is outside the 64-bit range");
          }
          return LongNode.valueOf(node.longValue());
        }
        return finite(node.doubleValue());
      case ARRAY:
        ArrayNode array = NODES.arrayNode(node.size());
        for (JsonNode element : node) {
          array.add(normalize(element));
        }
        return array;
      case OBJECT:
        ObjectNode object = NODES.objectNode();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
          object.set(field.getKey(), normalize(field.getValue()));
        }
        return object;
      default:
        throw new IllegalArgumentException(
            "a path element value must be JSON (null, a boolean, a number, a string, an array or"
                + " an object); got a "
                + node.getNodeType());
    }
  }

  private static JsonNode finite(double d) {
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("number " + d + " is not finite");
    }
    return DoubleNode.valueOf(d);
  }

  /** A value as its owner may see it: containers are copied, scalars are immutable. */
  static JsonNode exposed(JsonNode node) {
    return node.isContainerNode() ? node.deepCopy() : node;
  }

  /** Compares strings by code point, as Go compares their UTF-8 bytes. */
  static int compareStrings(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (x >= 0xD800 && y >= 0xD800) {
          return codePointOrder(x) - codePointOrder(y);
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }

  private static int codePointOrder(char c) {
    return Character.isSurrogate(c) ? c + 0x2000 : c - 0x800;
  }

  /** The order of structured-merge-diff's {@code value.Compare}. */
  static int compare(JsonNode l, JsonNode r) {
    if (l.isDouble()) {
      if (!r.isDouble()) {
        return r.isLong() ? compareDoubles(l.doubleValue(), r.longValue()) : -1;
      }
      return compareDoubles(l.doubleValue(), r.doubleValue());
    } else if (r.isDouble()) {
      return l.isLong() ? compareDoubles(l.longValue(), r.doubleValue()) : 1;
    }
    if (l.isLong()) {
      return r.isLong() ? Long.compare(l.longValue(), r.longValue()) : -1;
    } else if (r.isLong()) {
      return 1;
    }
    if (l.isTextual()) {
      return r.isTextual() ? compareStrings(l.textValue(), r.textValue()) : -1;
    } else if (r.isTextual()) {
      return 1;
    }
    if (l.isBoolean()) {
      return r.isBoolean() ? Boolean.compare(l.booleanValue(), r.booleanValue()) : -1;
    } else if (r.isBoolean()) {
      return 1;
    }
    if (l.isArray()) {
      return r.isArray() ? compareLists(l, r) : -1;
    } else if (r.isArray()) {
      return 1;
    }
    if (l.isObject()) {
      return r.isObject() ? compareMaps(l, r) : -1;
    } else if (r.isObject()) {
      return 1;
    }
    if (l.isNull()) {
      return r.isNull() ? 0 : -1;
    } else if (r.isNull()) {
      return 1;
    }
    return 0;
  }

  private static int compareDoubles(double l, double r) {
    return l > r ? 1 : l < r ? -1 : 0;
  }

  private static int compareLists(JsonNode l, JsonNode r) {
    int n = Math.min(l.size(), r.size());
    for (int i = 0; i < n; i++) {
      int c = compare(l.get(i), r.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(l.size(), r.size());
  }

  // Walks the union of both maps' keys in order; the first key only one side has decides.
  private static int compareMaps(JsonNode l, JsonNode r) {
    TreeSet<String> keys = new TreeSet<>(Values::compareStrings);
    l.fieldNames().forEachRemaining(keys::add);
    r.fieldNames().forEachRemaining(keys::add);
    int i = 0;
    for (String key : keys) {
      JsonNode a = l.get(key);
      JsonNode b = r.get(key);
      int c;
      if (i == l.size()) {
        c = -1;
      } else if (i == r.size()) {
        c = 1;
      } else if (a == null) {
        c = 1;
      } else if (b == null) {
        c = -1;
      } else {
        c = compare(a, b);
      }
      if (c != 0) {
        return c;
      }
      i++;
    }
    return 0;
  }

  /** A hash consistent with {@link #compare}: values that compare equal hash alike. */
  static int hash(JsonNode node) {
    if (node.isDouble() || node.isLong()) {
      double d = node.doubleValue();
      return Double.hashCode(d == 0 ? 0.0 : d);
    }
    if (node.isTextual()) {
      return node.textValue().hashCode();
    }
    if (node.isBoolean()) {
      return Boolean.hashCode(node.booleanValue());
    }
    if (node.isArray()) {
      int h = 1;
      for (JsonNode element : node) {
        h = 31 * h + hash(element);
      }
      return h;
    }
    if (node.isObject()) {
      int h = 7;
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        h += field.getKey().hashCode() ^ hash(field.getValue());
      }
      return h;
    }
    return 0;
  }

  /** The value as Go's {@code value.ToString} prints it (map entries in key order). */
  static String toDisplay(JsonNode node) {
    if (node.isNull()) {
      return "null";
    }
    if (node.isDouble()) {
      return GoText.formatFloat(node.doubleValue());
    }
    if (node.isLong()) {
      return Long.toString(node.longValue());
    }
    if (node.isTextual()) {
      return GoText.quote(node.textValue());
    }
    if (node.isBoolean()) {
      return Boolean.toString(node.booleanValue());
    }
    StringBuilder b = new StringBuilder();
    if (node.isArray()) {
      b.append('[');
      for (int i = 0; i < node.size(); i++) {
        b.append(i > 0 ? "," : "").append(toDisplay(node.get(i)));
      }
      return b.append(']').toString();
    }
    for (Map.Entry<String, JsonNode> field : sorted(node).entrySet()) {
      b.append(field.getKey()).append('=').append(toDisplay(field.getValue()));
    }
    return b.toString();
  }

  /** Writes the value as kube-apiserver's JSON library does. */
  static void writeJson(StringBuilder out, JsonNode node) {
    if (node.isNull()) {
      out.append("null");
    } else if (node.isBoolean()) {
      out.append(node.booleanValue());
    } else if (node.isLong()) {
      out.append(node.longValue());
    } else if (node.isDouble()) {
      out.append(GoText.formatJsonFloat(node.doubleValue()));
    } else if (node.isTextual()) {
      GoText.writeString(out, node.textValue(), true);
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        writeJson(out, node.get(i));
      }
      out.append(']');
    } else {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> field : sorted(node).entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        GoText.writeString(out, field.getKey(), true);
        out.append(':');
        writeJson(out, field.getValue());
      }
      out.append('}');
    }
  }

  private static TreeMap<String, JsonNode> sorted(JsonNode object) {
    TreeMap<String, JsonNode> sorted = new TreeMap<>(Values::compareStrings);
    object.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }
}
