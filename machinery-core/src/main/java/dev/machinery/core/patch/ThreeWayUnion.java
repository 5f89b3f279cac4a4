package dev.machinery.core.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Joins the two halves of a three-way strategic merge patch, the deletions (last applied against
 * the manifest) and the changes (live object against the manifest), into one patch as Kubernetes
 * does: the changes merged into the deletions with the strategies of the schema, directives kept
 * ({@code mergeMap} without parallel lists). An element of a merged list appears once per merge
 * key, its halves merged; an element the changes mark {@code $patch: delete} removes the same
 * element from the deletions and is not kept itself; lists keep Kubernetes' order. Stateless;
 * thread-safe.
 */
final class ThreeWayUnion {
  private static final String PATCH = "$patch";
  private static final String RETAIN_KEYS = "$retainKeys";
  private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
  private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ThreeWayUnion() {}

  /** The changes merged into the deletions (neither is changed). */
  static ObjectNode union(ObjectNode deletions, ObjectNode changes, PatchSchema schema) {
    return mergeMap(deletions.deepCopy(), changes.deepCopy(), schema, "");
  }

  private static ObjectNode mergeMap(
      ObjectNode original, ObjectNode patch, PatchSchema schema, String path) {
    JsonNode directive = patch.get(PATCH);
    if (directive != null) {
      switch (directive.asText()) {
        case "replace" -> {
          patch.remove(PATCH);
          return patch;
        }
        case "delete" -> {
          return NODES.objectNode();
        }
        default ->
            throw malformed(path, "unknown patch type \"" + directive.asText() + "\" in " + patch);
      }
    }
    JsonNode retain = patch.remove(RETAIN_KEYS);
    if (retain != null) {
      JsonNode mine = original.get(RETAIN_KEYS);
      if (mine == null) {
        original.set(RETAIN_KEYS, retain);
      } else if (!mine.equals(retain)) {
        throw malformed(path, "$retainKeys lists " + mine + " and " + retain + " differ");
      }
    }
    for (String key : new ArrayList<>(names(patch))) {
      if (key.startsWith(SET_ELEMENT_ORDER)) {
        mergeOrderedList(original, patch, key, schema, path);
      }
    }
    for (Map.Entry<String, JsonNode> entry : patch.properties()) {
      String key = entry.getKey();
      JsonNode value = entry.getValue();
      JsonNode mine = original.get(key);
      if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        original.set(key, value);
      } else if (value.isNull()
          || mine == null
          || mine.isNull()
          || mine.getNodeType() != value.getNodeType()) {
        set(original, key, removeDirectives(value));
      } else if (value.isObject()) {
        PatchSchema.Field field = schema.field(key);
        original.set(
            key,
            field.replaces()
                ? value
                : mergeMap((ObjectNode) mine, (ObjectNode) value, field.schema(), join(path, key)));
      } else if (value.isArray()) {
        PatchSchema.Field field = schema.field(key);
        original.set(
            key,
            field.merges() && !field.replaces()
                ? mergeSlice((ArrayNode) mine, (ArrayNode) value, field, join(path, key))
                : value);
      } else {
        original.set(key, value);
      }
    }
    return original;
  }

  /** A {@code $setElementOrder} list, and the list it orders, from both halves in one. */
  private static void mergeOrderedList(
      ObjectNode original, ObjectNode patch, String key, PatchSchema schema, String path) {
    JsonNode order = patch.remove(key);
    JsonNode mine = original.get(key);
    if (mine != null && !mine.equals(order)) {
      throw malformed(path, "the halves of a three-way patch order " + key + " differently");
    }
    original.set(key, order);
    String name = key.substring(SET_ELEMENT_ORDER.length());
    PatchSchema.Field field = schema.field(name);
    JsonNode before = original.get(name);
    JsonNode patchList = patch.remove(name);
    if ((before != null && !before.isArray()) || (patchList != null && !patchList.isArray())) {
      throw malformed(join(path, name), "a list ordered by " + key + " must be a list");
    }
    List<JsonNode> merged;
    if (before != null && patchList == null) {
      merged = list(before);
    } else if (before == null && patchList != null) {
      merged = list(removeDirectives(patchList));
    } else if (before != null) {
      merged = list(mergeSlice((ArrayNode) before, (ArrayNode) patchList, field, join(path, name)));
    } else {
      return;
    }
    String mergeKey = objects(before) || objects(patchList) ? field.mergeKey() : null;
    List<JsonNode> orderList = list(order);
    List<JsonNode> named = new ArrayList<>();
    List<JsonNode> serverOnly = new ArrayList<>();
    for (JsonNode item : merged) {
      (index(orderList, item, mergeKey) >= 0 ? named : serverOnly).add(item);
    }
    original.set(
        name,
        normalize(
            named, serverOnly, orderList, before == null ? List.of() : list(before), mergeKey));
  }

  private static ArrayNode mergeSlice(
      ArrayNode original, ArrayNode patch, PatchSchema.Field field, String path) {
    if (original.isEmpty() && patch.isEmpty()) {
      return original;
    }
    List<JsonNode> serverOrder = list(original);
    List<JsonNode> merged;
    String mergeKey = null;
    if (!objects(original) && !objects(patch)) {
      merged = new ArrayList<>(serverOrder);
      patch.forEach(merged::add);
      deduplicate(merged);
    } else {
      mergeKey = field.mergeKey();
      if (mergeKey == null) {
        throw malformed(
            path,
            "a list of objects merged by a strategic merge patch needs a merge key"
                + " (@PatchMergeKey, or x-kubernetes-patch-merge-key in OpenAPI)");
      }
      List<JsonNode> remaining = new ArrayList<>(serverOrder);
      List<JsonNode> plain = new ArrayList<>();
      boolean replace = false;
      for (JsonNode item : patch) {
        JsonNode directive = item.get(PATCH);
        if (directive == null) {
          plain.add(item);
        } else if ("delete".equals(directive.asText())) {
          JsonNode id = requireKey(item, mergeKey, path);
          String key = mergeKey;
          remaining.removeIf(candidate -> sameId(candidate.get(key), id));
        } else if ("replace".equals(directive.asText())) {
          replace = true;
        } else {
          throw malformed(path, "unknown patch type \"" + directive.asText() + "\" in " + item);
        }
      }
      if (replace) {
        remaining.clear();
        remaining.addAll(plain);
        plain = List.of();
      }
      merged = remaining;
      for (JsonNode item : plain) {
        JsonNode id = requireKey(item, mergeKey, path);
        int at = -1;
        for (int k = 0; k < merged.size() && at < 0; k++) {
          if (sameId(merged.get(k).get(mergeKey), id)) {
            at = k;
          }
        }
        if (at >= 0 && merged.get(at).isObject()) {
          merged.set(
              at,
              mergeMap(
                  (ObjectNode) merged.get(at),
                  (ObjectNode) item,
                  field.schema().element(),
                  path + "[" + mergeKey + "=" + id.asText() + "]"));
        } else {
          merged.add(item);
        }
      }
    }
    List<JsonNode> order = list(patch);
    List<JsonNode> named = new ArrayList<>();
    List<JsonNode> serverOnly = new ArrayList<>();
    for (JsonNode item : merged) {
      (index(order, item, mergeKey) >= 0 ? named : serverOnly).add(item);
    }
    return normalize(named, serverOnly, order, serverOrder, mergeKey);
  }

  /**
   * Kubernetes' {@code normalizeElementOrder}: the named elements sorted by the order, the others
   * by the server's order (elements to delete after both), then the two interleaved by the server's
   * order where both are in it.
   */
  private static ArrayNode normalize(
      List<JsonNode> named,
      List<JsonNode> serverOnly,
      List<JsonNode> order,
      List<JsonNode> serverOrder,
      String mergeKey) {
    List<JsonNode> left = sortByOrder(serverOnly, serverOrder, mergeKey);
    List<JsonNode> right = sortByOrder(named, order, mergeKey);
    ArrayNode result = NODES.arrayNode();
    int i = 0;
    int j = 0;
    while (i < left.size() || j < right.size()) {
      if (i >= left.size()) {
        result.add(right.get(j++));
      } else if (j >= right.size()) {
        result.add(left.get(i++));
      } else {
        int li = index(serverOrder, left.get(i), mergeKey);
        int ri = index(serverOrder, right.get(j), mergeKey);
        result.add(li >= 0 && ri >= 0 && li < ri ? left.get(i++) : right.get(j++));
      }
    }
    return result;
  }

  /**
   * Kubernetes' {@code normalizeSliceOrder}: a stable insertion sort (what Go's stable sort is for
   * lists this short) with its comparison, in which an element not in the order sorts before any
   * other; elements to delete go last.
   */
  private static List<JsonNode> sortByOrder(
      List<JsonNode> items, List<JsonNode> order, String mergeKey) {
    List<JsonNode> sorted = new ArrayList<>();
    List<JsonNode> deletions = new ArrayList<>();
    for (JsonNode item : items) {
      (mergeKey != null && "delete".equals(item.path(PATCH).asText()) ? deletions : sorted)
          .add(item);
    }
    for (int i = 1; i < sorted.size(); i++) {
      for (int j = i; j > 0 && less(sorted.get(j), sorted.get(j - 1), order, mergeKey); j--) {
        JsonNode swap = sorted.get(j);
        sorted.set(j, sorted.get(j - 1));
        sorted.set(j - 1, swap);
      }
    }
    sorted.addAll(deletions);
    return sorted;
  }

  private static boolean less(JsonNode a, JsonNode b, List<JsonNode> order, String mergeKey) {
    int ia = index(order, a, mergeKey);
    int ib = index(order, b, mergeKey);
    return ia < 0 || ib < 0 || ia < ib;
  }

  /** Kubernetes' {@code deduplicateScalars}: a repeat is replaced by the list's last element. */
  private static void deduplicate(List<JsonNode> values) {
    int length = values.size() - 1;
    for (int i = 0; i < length; i++) {
      for (int j = i + 1; j <= length; j++) {
        if (JsonValues.same(values.get(i), values.get(j))) {
          values.set(j, values.get(length));
          values.remove(length);
          length--;
          j--;
        }
      }
    }
  }

  /** A value with its directives taken out; null when the value itself is one. */
  private static JsonNode removeDirectives(JsonNode value) {
    if (value.isObject()) {
      if (value.has(PATCH)) {
        return null;
      }
      ObjectNode copy = NODES.objectNode();
      for (Map.Entry<String, JsonNode> entry : value.properties()) {
        set(copy, entry.getKey(), removeDirectives(entry.getValue()));
      }
      return copy;
    }
    if (value.isArray()) {
      ArrayNode copy = NODES.arrayNode();
      for (JsonNode item : value) {
        JsonNode kept = removeDirectives(item);
        if (kept != null) {
          copy.add(kept);
        }
      }
      return copy;
    }
    return value;
  }

  private static void set(ObjectNode object, String key, JsonNode value) {
    if (value == null) {
      object.remove(key);
    } else {
      object.set(key, value);
    }
  }

  private static int index(List<JsonNode> list, JsonNode item, String mergeKey) {
    JsonNode id = mergeKey == null ? item : item.get(mergeKey);
    for (int i = 0; i < list.size(); i++) {
      JsonNode candidate = mergeKey == null ? list.get(i) : list.get(i).get(mergeKey);
      if (sameId(candidate, id)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean sameId(JsonNode a, JsonNode b) {
    return a != null && b != null && JsonValues.same(a, b);
  }

  private static JsonNode requireKey(JsonNode item, String mergeKey, String path) {
    JsonNode id = item.get(mergeKey);
    if (id == null) {
      throw malformed(path, "map: " + item + " does not contain declared merge key: " + mergeKey);
    }
    return id;
  }

  private static boolean objects(JsonNode list) {
    if (list != null) {
      for (JsonNode item : list) {
        if (item.isObject()) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<JsonNode> list(JsonNode array) {
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    return items;
  }

  private static List<String> names(ObjectNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static PatchException malformed(String path, String message) {
    return new PatchException(
        PatchException.Kind.MALFORMED, (path.isEmpty() ? "" : path + ": ") + message);
  }
}
