package dev.machinery.core.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Computes strategic merge patches between two JSON objects as Kubernetes does ({@code diffMaps}):
 * removed fields become {@code null}, changed ones are diffed by their strategy, merged lists of
 * objects give changed and new elements plus {@code $patch: delete} elements and a {@code
 * $setElementOrder} list, merged lists of values give additions, a {@code $deleteFromPrimitiveList}
 * and a {@code $setElementOrder}, and {@code retainKeys} objects a {@code $retainKeys} list. The
 * options say whether deletions, or changes and additions, are left out (the halves of a three-way
 * patch). Stateless; thread-safe.
 */
final class StrategicDiff {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final boolean ignoreDeletions;
  private final boolean ignoreChangesAndAdditions;

  StrategicDiff(boolean ignoreDeletions, boolean ignoreChangesAndAdditions) {
    this.ignoreDeletions = ignoreDeletions;
    this.ignoreChangesAndAdditions = ignoreChangesAndAdditions;
  }

  ObjectNode diffObjects(
      ObjectNode original,
      ObjectNode modified,
      PatchSchema schema,
      boolean retainKeys,
      String path) {
    ObjectNode patch = NODES.objectNode();
    List<String> retain = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : modified.properties()) {
      String key = entry.getKey();
      JsonNode after = entry.getValue();
      if (retainKeys && !after.isNull()) {
        retain.add(key);
      }
      JsonNode before = original.get(key);
      if (before == null) {
        if (!ignoreChangesAndAdditions) {
          patch.set(key, after.deepCopy());
        }
        continue;
      }
      if (key.equals("$patch")) {
        if (!JsonValues.same(before, after)) {
          patch.set(key, after.deepCopy());
        }
        continue;
      }
      if (before.getNodeType() != after.getNodeType()) {
        if (!ignoreChangesAndAdditions) {
          patch.set(key, after.deepCopy());
        }
        continue;
      }
      PatchSchema.Field field =
          (after.isObject() || after.isArray()) && !JsonValues.same(before, after)
              ? schema.fieldWithStrategy(key, join(path, key))
              : schema.field(key);
      if (after.isObject()) {
        if (field.replaces()) {
          if (!ignoreChangesAndAdditions) {
            patch.set(key, after.deepCopy());
          }
        } else {
          ObjectNode nested =
              diffObjects(
                  (ObjectNode) before,
                  (ObjectNode) after,
                  field.schema(),
                  field.retainsKeys(),
                  join(path, key));
          if (!nested.isEmpty()) {
            patch.set(key, nested);
          }
        }
      } else if (after.isArray() && field.merges() && !field.replaces()) {
        diffList(key, (ArrayNode) before, (ArrayNode) after, field, patch, join(path, key));
      } else if (!JsonValues.same(before, after) && !ignoreChangesAndAdditions) {
        patch.set(key, after.deepCopy());
      }
    }
    if (!ignoreDeletions) {
      for (Map.Entry<String, JsonNode> entry : original.properties()) {
        if (!modified.has(entry.getKey())) {
          patch.putNull(entry.getKey());
        }
      }
    }
    if (!retain.isEmpty() && (!patch.isEmpty() || hasNewField(original, modified))) {
      retain.sort(Comparator.naturalOrder());
      ArrayNode list = patch.putArray("$retainKeys");
      retain.forEach(list::add);
    }
    return patch;
  }

  /** Whether the original has a field the modified lacks ({@code hasAdditionalNewField}). */
  private static boolean hasNewField(ObjectNode original, ObjectNode modified) {
    for (Map.Entry<String, JsonNode> entry : original.properties()) {
      if (!entry.getValue().isNull() && !modified.has(entry.getKey())) {
        return true;
      }
    }
    return false;
  }

  private void diffList(
      String key,
      ArrayNode original,
      ArrayNode modified,
      PatchSchema.Field field,
      ObjectNode patch,
      String path) {
    boolean objects = false;
    for (JsonNode item : modified) {
      objects |= item.isObject();
    }
    for (JsonNode item : original) {
      objects |= item.isObject();
    }
    if (objects) {
      diffListOfObjects(key, original, modified, field, patch, path);
    } else {
      diffListOfValues(key, original, modified, patch);
    }
  }

  private void diffListOfObjects(
      String key,
      ArrayNode original,
      ArrayNode modified,
      PatchSchema.Field field,
      ObjectNode patch,
      String path) {
    String mergeKey = field.mergeKey();
    if (mergeKey == null) {
      throw new PatchException(
          PatchException.Kind.MALFORMED,
          key
              + ": a list of objects merged by a strategic merge patch needs a merge key"
              + " (@PatchMergeKey, or x-kubernetes-patch-merge-key in OpenAPI)");
    }
    PatchSchema element = field.schema().element();
    List<JsonNode> before = sortedByKey(original, mergeKey);
    List<JsonNode> after = sortedByKey(modified, mergeKey);
    List<JsonNode> changes = new ArrayList<>();
    List<JsonNode> deletions = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < before.size() || j < after.size()) {
      String left = i < before.size() ? text(before.get(i).get(mergeKey)) : null;
      String right = j < after.size() ? text(after.get(j).get(mergeKey)) : null;
      if (left != null && right != null && left.equals(right)) {
        ObjectNode nested =
            diffObjects(
                (ObjectNode) before.get(i),
                (ObjectNode) after.get(j),
                element,
                field.retainsKeys(),
                path + "[" + mergeKey + "=" + left + "]");
        if (!nested.isEmpty()) {
          nested.set(mergeKey, after.get(j).get(mergeKey).deepCopy());
          changes.add(nested);
        }
        i++;
        j++;
      } else if (left == null || (right != null && right.compareTo(left) < 0)) {
        if (!ignoreChangesAndAdditions) {
          changes.add(after.get(j).deepCopy());
        }
        j++;
      } else {
        if (!ignoreDeletions) {
          ObjectNode delete = NODES.objectNode();
          delete.put("$patch", "delete");
          delete.set(mergeKey, before.get(i).get(mergeKey).deepCopy());
          deletions.add(delete);
        }
        i++;
      }
    }
    List<JsonNode> modifiedIds = new ArrayList<>();
    modified.forEach(item -> modifiedIds.add(item.get(mergeKey)));
    changes.sort(Comparator.comparingInt(item -> rank(modifiedIds, item.get(mergeKey))));
    ArrayNode list = NODES.arrayNode();
    changes.forEach(list::add);
    deletions.forEach(list::add);
    boolean sameOrder = original.size() == modified.size();
    for (int k = 0; sameOrder && k < original.size(); k++) {
      sameOrder = JsonValues.same(original.get(k).path(mergeKey), modified.get(k).path(mergeKey));
    }
    if (!list.isEmpty()) {
      patch.set(key, list);
    }
    if (!modified.isEmpty()
        && ((!ignoreChangesAndAdditions && (!list.isEmpty() || !sameOrder))
            || (!ignoreDeletions && !list.isEmpty()))) {
      ArrayNode order = patch.putArray("$setElementOrder/" + key);
      for (JsonNode item : modified) {
        order.addObject().set(mergeKey, item.get(mergeKey).deepCopy());
      }
    }
  }

  private void diffListOfValues(
      String key, ArrayNode original, ArrayNode modified, ObjectNode patch) {
    List<JsonNode> before = sortedByText(original);
    List<JsonNode> after = sortedByText(modified);
    List<JsonNode> additions = new ArrayList<>();
    List<JsonNode> deletions = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < before.size() || j < after.size()) {
      String left = i < before.size() ? text(before.get(i)) : null;
      String right = j < after.size() ? text(after.get(j)) : null;
      if (left != null && right != null && left.equals(right)) {
        i++;
        j++;
      } else if (right == null || (left != null && left.compareTo(right) < 0)) {
        if (!ignoreDeletions) {
          JsonNode value = before.get(i);
          if (deletions.stream().noneMatch(d -> JsonValues.same(d, value))) {
            deletions.add(value.deepCopy());
          }
        }
        i++;
      } else {
        if (!ignoreChangesAndAdditions) {
          additions.add(after.get(j).deepCopy());
        }
        j++;
      }
    }
    List<JsonNode> order = new ArrayList<>();
    modified.forEach(order::add);
    additions.sort(Comparator.comparingInt(item -> rank(order, item)));
    if (!additions.isEmpty()) {
      ArrayNode list = patch.putArray(key);
      additions.forEach(list::add);
    }
    if (!deletions.isEmpty()) {
      ArrayNode list = patch.putArray("$deleteFromPrimitiveList/" + key);
      deletions.forEach(list::add);
    }
    if (!modified.isEmpty()
        && ((!ignoreDeletions && !deletions.isEmpty())
            || (!ignoreChangesAndAdditions && !original.equals(modified)))) {
      patch.set("$setElementOrder/" + key, modified.deepCopy());
    }
  }

  private static int rank(List<JsonNode> ids, JsonNode id) {
    for (int k = 0; k < ids.size(); k++) {
      if (ids.get(k) != null && id != null && JsonValues.same(ids.get(k), id)) {
        return k;
      }
    }
    return Integer.MAX_VALUE;
  }

  private static List<JsonNode> sortedByKey(ArrayNode list, String key) {
    List<JsonNode> sorted = new ArrayList<>();
    for (JsonNode item : list) {
      if (!item.isObject() || item.get(key) == null) {
        throw new PatchException(
            PatchException.Kind.MALFORMED,
            "map: " + item + " does not contain declared merge key: " + key);
      }
      sorted.add(item);
    }
    sorted.sort(Comparator.comparing(item -> text(item.get(key))));
    return sorted;
  }

  private static List<JsonNode> sortedByText(ArrayNode list) {
    List<JsonNode> sorted = new ArrayList<>();
    list.forEach(sorted::add);
    sorted.sort(Comparator.comparing(StrategicDiff::text));
    return sorted;
  }

  /** A value as Go's {@code %v} prints it, which is how Kubernetes sorts merge keys and values. */
  private static String text(JsonNode value) {
    return value.isTextual() ? value.textValue() : value.toString();
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
