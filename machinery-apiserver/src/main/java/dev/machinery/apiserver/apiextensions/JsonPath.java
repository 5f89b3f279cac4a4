package dev.machinery.apiserver.apiextensions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSONPath that printer columns, the scale subresource and selectable fields name, in the
 * subset kube-apiserver's CRD validation allows them: fields ({@code .spec.replicas}), indexes
 * ({@code [0]}), every item ({@code [*]}) and equality filters ({@code [?(@.type=="Ready")]}).
 * Immutable; thread-safe.
 */
final class JsonPath {
  private final String text;
  private final List<Step> steps;

  private JsonPath(String text, List<Step> steps) {
    this.text = text;
    this.steps = steps;
  }

  /**
   * Parses a path.
   *
   * @throws IllegalArgumentException naming the path and what is wrong
   */
  static JsonPath parse(String text) {
    String path = text.strip();
    if (path.startsWith("{") && path.endsWith("}")) {
      path = path.substring(1, path.length() - 1);
    }
    if (path.startsWith("$")) {
      path = path.substring(1);
    }
    List<Step> steps = new ArrayList<>();
    int i = 0;
    while (i < path.length()) {
      char c = path.charAt(i);
      if (c == '.') {
        int end = i + 1;
        while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
          end++;
        }
        if (end == i + 1) {
          throw new IllegalArgumentException("empty field name in JSONPath \"" + text + "\"");
        }
        steps.add(new Step(path.substring(i + 1, end), -1, null, null));
        i = end;
      } else if (c == '[') {
        int end = path.indexOf(']', i);
        if (end < 0) {
          throw new IllegalArgumentException("unclosed [ in JSONPath \"" + text + "\"");
        }
        String inner = path.substring(i + 1, end).strip();
        if (inner.equals("*")) {
          steps.add(new Step(null, -2, null, null));
        } else if (inner.startsWith("?(@.") && inner.endsWith(")")) {
          String condition = inner.substring(4, inner.length() - 1);
          int eq = condition.indexOf("==");
          if (eq < 0) {
            throw new IllegalArgumentException(
                "only == filters are supported in JSONPath \"" + text + "\"");
          }
          String value = condition.substring(eq + 2).strip();
          if (value.length() >= 2
              && (value.startsWith("\"") && value.endsWith("\"")
                  || value.startsWith("'") && value.endsWith("'"))) {
            value = value.substring(1, value.length() - 1);
          }
          steps.add(new Step(null, -3, condition.substring(0, eq).strip(), value));
        } else if (inner.startsWith("'") && inner.endsWith("'") && inner.length() >= 2) {
          steps.add(new Step(inner.substring(1, inner.length() - 1), -1, null, null));
        } else {
          try {
            steps.add(new Step(null, Integer.parseInt(inner), null, null));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                "unsupported index \"" + inner + "\" in JSONPath \"" + text + "\"", e);
          }
        }
        i = end + 1;
      } else {
        throw new IllegalArgumentException(
            "unexpected \"" + c + "\" at " + i + " in JSONPath \"" + text + "\"");
      }
    }
    return new JsonPath(text, List.copyOf(steps));
  }

  /** The field names of a path made of fields only, such as {@code [spec, replicas]}. */
  List<String> fields() {
    List<String> names = new ArrayList<>();
    for (Step step : steps) {
      if (step.field() == null) {
        throw new IllegalArgumentException(
            "JSONPath \"" + text + "\" must name fields only, such as .spec.replicas");
      }
      names.add(step.field());
    }
    return names;
  }

  /** Every value the path finds in a JSON value, in document order. */
  List<Object> find(Object root) {
    List<Object> current = new ArrayList<>();
    current.add(root);
    for (Step step : steps) {
      List<Object> next = new ArrayList<>();
      for (Object value : current) {
        step.apply(value, next);
      }
      current = next;
    }
    return current;
  }

  @Override
  public String toString() {
    return text;
  }

  private record Step(String field, int index, String filterField, String filterValue) {
    void apply(Object value, List<Object> out) {
      if (field != null) {
        if (value instanceof Map<?, ?> map && map.containsKey(field)) {
          out.add(map.get(field));
        }
      } else if (index >= 0) {
        if (value instanceof List<?> list && index < list.size()) {
          out.add(list.get(index));
        }
      } else if (value instanceof List<?> list) {
        for (Object item : list) {
          if (index == -2) {
            out.add(item);
          } else if (item instanceof Map<?, ?> map
              && map.get(filterField) != null
              && Objects.equals(String.valueOf(map.get(filterField)), filterValue)) {
            out.add(item);
          }
        }
      }
    }
  }
}
