package dev.machinery.testing;

import java.util.Objects;

/**
 * One difference between two objects: the path of the field, and both values. Immutable.
 *
 * @param path the path, such as {@code spec.template.spec.containers[1].image}; empty for the
 *     objects themselves
 * @param expected the value in the first object
 * @param actual the value in the second object
 */
public record Difference(String path, Object expected, Object actual) {
  /**
   * Checks the path.
   *
   * @param path see the record description
   * @param expected see the record description
   * @param actual see the record description
   */
  public Difference {
    Objects.requireNonNull(path, "path");
  }

  @Override
  public String toString() {
    return (path.isEmpty() ? "(root)" : path) + ": " + show(expected) + " → " + show(actual);
  }

  static String show(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String) {
      String text = (String) value;
      StringBuilder quoted = new StringBuilder("\"");
      for (int i = 0; i < text.length() && i < 80; i++) {
        char c = text.charAt(i);
        if (c == '"' || c == '\\') {
          quoted.append('\\').append(c);
        } else if (c < 0x20) {
          quoted.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
        } else {
          quoted.append(c);
        }
      }
      return quoted.append(text.length() > 80 ? "…\"" : "\"").toString();
    }
    if (value instanceof byte[]) {
      return "byte[" + ((byte[]) value).length + "]";
    }
    String text;
    if (value instanceof java.util.Collection) {
      StringBuilder items = new StringBuilder("[");
      for (Object item : (java.util.Collection<?>) value) {
        items.append(items.length() > 1 ? ", " : "").append(show(item));
        if (items.length() > 120) {
          break;
        }
      }
      text = items.append(']').toString();
    } else if (value instanceof java.util.Map) {
      StringBuilder entries = new StringBuilder("{");
      for (java.util.Map.Entry<?, ?> entry : ((java.util.Map<?, ?>) value).entrySet()) {
        entries
            .append(entries.length() > 1 ? ", " : "")
            .append(show(entry.getKey()))
            .append('=')
            .append(show(entry.getValue()));
        if (entries.length() > 120) {
          break;
        }
      }
      text = entries.append('}').toString();
    } else {
      text = String.valueOf(value);
    }
    return text.length() > 120 ? text.substring(0, 120) + "…" : text;
  }
}
