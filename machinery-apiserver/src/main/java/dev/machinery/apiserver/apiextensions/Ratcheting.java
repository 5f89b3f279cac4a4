package dev.machinery.apiserver.apiextensions;

import dev.machinery.unversioned.validation.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Validation ratcheting, as kube-apiserver applies it to custom resources on update (GA in 1.33):
 * an error about a value the update leaves unchanged is dropped, so that a schema made stricter
 * after objects were stored does not lock those objects, while a new or changed value must pass. A
 * missing required field counts as unchanged when the object that lacks it is unchanged. Errors
 * whose path cannot be followed in both objects are kept. Stateless.
 */
final class Ratcheting {
  private Ratcheting() {}

  /** The errors that remain after ratcheting against the stored object ({@code null}: a create). */
  static List<FieldError> ratchet(
      List<FieldError> errors, Map<String, Object> object, Map<String, Object> old) {
    if (old == null || errors.isEmpty()) {
      return errors;
    }
    List<FieldError> kept = new ArrayList<>();
    for (FieldError error : errors) {
      List<Object> path = parse(error.field());
      if (error.type() == FieldError.Type.REQUIRED && !path.isEmpty()) {
        path = path.subList(0, path.size() - 1);
      }
      Optional<Object> now = find(object, path);
      Optional<Object> before = find(old, path);
      boolean unchanged =
          path != null && now.isPresent() && before.isPresent() && same(now.get(), before.get());
      if (!unchanged) {
        kept.add(error);
      }
    }
    return kept;
  }

  /**
   * The steps of a field path such as {@code spec.items[2].name} or {@code metadata.labels[app]}:
   * names as strings, list indexes as integers; null when the text is not such a path.
   */
  static List<Object> parse(String field) {
    if (field == null || field.isEmpty() || field.equals("<nil>")) {
      return List.of();
    }
    List<Object> steps = new ArrayList<>();
    int i = 0;
    while (i < field.length()) {
      char c = field.charAt(i);
      if (c == '.') {
        i++;
      } else if (c == '[') {
        int end = field.indexOf(']', i);
        if (end < 0) {
          return null;
        }
        String inside = field.substring(i + 1, end);
        steps.add(inside.matches("\\d+") ? (Object) Integer.valueOf(inside) : inside);
        i = end + 1;
      } else {
        int end = i;
        while (end < field.length() && field.charAt(end) != '.' && field.charAt(end) != '[') {
          end++;
        }
        steps.add(field.substring(i, end));
        i = end;
      }
    }
    return steps;
  }

  /** JSON equality: numbers by value, whatever class holds them. */
  private static boolean same(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return new java.math.BigDecimal(x.toString())
              .compareTo(new java.math.BigDecimal(y.toString()))
          == 0;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (Map.Entry<?, ?> entry : x.entrySet()) {
        if (!y.containsKey(entry.getKey()) || !same(entry.getValue(), y.get(entry.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!same(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    return java.util.Objects.equals(a, b);
  }

  private static Optional<Object> find(Object root, List<Object> path) {
    if (path == null) {
      return Optional.empty();
    }
    Object at = root;
    for (Object step : path) {
      if (step instanceof Integer index && at instanceof List<?> list) {
        if (index >= list.size()) {
          return Optional.empty();
        }
        at = list.get(index);
      } else if (at instanceof Map<?, ?> map && map.containsKey(String.valueOf(step))) {
        at = map.get(String.valueOf(step));
      } else {
        return Optional.empty();
      }
    }
    return Optional.ofNullable(at);
  }
}
