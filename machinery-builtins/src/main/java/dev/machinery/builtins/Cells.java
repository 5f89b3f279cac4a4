package dev.machinery.builtins;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.negotiation.Ages;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.Rfc3339;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The cells kube-apiserver's printers make from objects, for {@link Printers}. */
final class Cells {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Cells() {}

  /** The object's age, as kubectl shows it ({@code 5m}, {@code 2d3h}). */
  static String age(Map<String, Object> object) {
    return since(JsonTrees.string(object, null, "metadata", "creationTimestamp"));
  }

  /** The age of a time, {@code <unknown>} when there is none. */
  static String since(String time) {
    Instant instant = instant(time);
    return instant == null ? "<unknown>" : Ages.since(instant);
  }

  static Instant instant(String time) {
    if (time == null) {
      return null;
    }
    try {
      return Rfc3339.parse(time);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** A number at a path, 0 when absent. */
  static long number(Map<String, Object> object, String... path) {
    return JsonTrees.number(object, 0, path);
  }

  /** The containers of a pod spec at a path, their names joined by commas. */
  static String containerNames(Map<String, Object> object, String... podSpec) {
    return containers(object, "name", podSpec);
  }

  /** The containers of a pod spec at a path, their images joined by commas. */
  static String images(Map<String, Object> object, String... podSpec) {
    return containers(object, "image", podSpec);
  }

  private static String containers(Map<String, Object> object, String field, String... podSpec) {
    Object spec = JsonTrees.get(object, podSpec);
    return JsonTrees.maps(spec, "containers").stream()
        .map(c -> JsonTrees.string(c, "", field))
        .collect(Collectors.joining(","));
  }

  /** A LabelSelector at a path as selector text, {@code <none>} when absent. */
  static String selector(Map<String, Object> object, String... path) {
    Map<String, Object> selector = JsonTrees.map(object, path);
    if (selector == null) {
      return "<none>";
    }
    String text =
        LabelSelectors.toSelector(JSON.convertValue(selector, LabelSelector.class)).toString();
    return text.isEmpty() ? "<none>" : text;
  }

  /** A label map at a path as {@code k=v,...} text (sorted), {@code <none>} when empty. */
  static String labels(Map<String, Object> object, String... path) {
    Map<String, Object> labels = JsonTrees.map(object, path);
    if (labels == null || labels.isEmpty()) {
      return "<none>";
    }
    return new TreeMap<>(labels)
        .entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(","));
  }

  /** Strings at a path joined by commas, or {@code none} when there are none. */
  static String joined(Map<String, Object> object, String none, String... path) {
    List<String> out = new ArrayList<>();
    if (JsonTrees.get(object, path) instanceof List<?> list) {
      list.forEach(v -> out.add(String.valueOf(v)));
    }
    return out.isEmpty() ? none : String.join(",", out);
  }

  /** The keys of maps at paths, counted together. */
  static long keys(Map<String, Object> object, String... fields) {
    long count = 0;
    for (String field : fields) {
      Map<String, Object> map = JsonTrees.map(object, field);
      count += map == null ? 0 : map.size();
    }
    return count;
  }
}
