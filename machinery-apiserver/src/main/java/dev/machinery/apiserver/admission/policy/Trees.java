package dev.machinery.apiserver.admission.policy;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import java.util.List;
import java.util.Map;

/** Reading JSON trees held as maps and lists. Stateless. */
final class Trees {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Trees() {}

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object tree, String... path) {
    Object at = at(tree, path);
    return at instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object tree, String... path) {
    Object at = at(tree, path);
    return at instanceof List<?> l ? (List<Object>) l : List.of();
  }

  static String string(Object tree, String... path) {
    Object at = at(tree, path);
    return at instanceof String s ? s : null;
  }

  static List<String> strings(Object tree, String... path) {
    return list(tree, path).stream().map(String::valueOf).toList();
  }

  static Object at(Object tree, String... path) {
    Object at = tree;
    for (String key : path) {
      if (!(at instanceof Map<?, ?> m)) {
        return null;
      }
      at = m.get(key);
    }
    return at;
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> labels(Map<String, Object> object) {
    Map<String, Object> labels = map(object, "metadata", "labels");
    return labels == null ? Map.of() : (Map<String, String>) (Map<?, ?>) labels;
  }

  /**
   * The selector of a {@code LabelSelector} tree; an absent one (the API defaults it to {@code {}})
   * selects everything.
   */
  static Selector selector(Map<String, Object> selector) {
    if (selector == null) {
      return Selector.everything();
    }
    return LabelSelectors.toSelector(MAPPER.convertValue(selector, LabelSelector.class));
  }
}
