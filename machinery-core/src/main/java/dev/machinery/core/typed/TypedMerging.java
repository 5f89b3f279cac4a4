package dev.machinery.core.typed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.PathElement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Walks two values of one type side by side to compare them or to merge the second into the first,
 * and one value with a field set to remove or extract fields: structured-merge-diff's compare,
 * merge and remove walkers. Values are checked before; a Java null is an absent value, a JSON null
 * a present one. Inputs are never changed. Not safe for concurrent use; one per walk.
 */
final class TypedMerging {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Schema schema;
  private final TypedWalker items;
  private final List<PathElement> path = new ArrayList<>();
  private final FieldSet.Builder added = FieldSet.builder();
  private final FieldSet.Builder modified = FieldSet.builder();
  private final FieldSet.Builder removed = FieldSet.builder();

  TypedMerging(Schema schema) {
    this.schema = schema;
    this.items = new TypedWalker(schema, true);
  }

  private FieldPath here() {
    return new FieldPath(path);
  }

  private static boolean isMap(JsonNode value) {
    return value != null && value.isObject();
  }

  private static boolean isList(JsonNode value) {
    return value != null && value.isArray();
  }

  private static JsonNode copy(JsonNode value) {
    return value == null ? null : value.deepCopy();
  }

  private TypeRef entryType(MapAtom map, String name) {
    StructField field = map.field(name);
    return field != null ? field.type() : map.elementType();
  }

  /** The union of the keys of two maps, the first map's order first. */
  private static Set<String> keys(JsonNode lhs, JsonNode rhs) {
    Set<String> names = new LinkedHashSet<>();
    if (isMap(lhs)) {
      lhs.fieldNames().forEachRemaining(names::add);
    }
    if (isMap(rhs)) {
      rhs.fieldNames().forEachRemaining(names::add);
    }
    return names;
  }

  // ---- compare

  Comparison compare(TypeRef ref, JsonNode lhs, JsonNode rhs) {
    new Side(ref, lhs, rhs).compare();
    return new Comparison(added.build(), modified.build(), removed.build());
  }

  /** One step of the side-by-side walk: the type and the two values here. */
  private final class Side {
    private final TypeRef ref;
    private final JsonNode lhs;
    private final JsonNode rhs;
    private boolean inLeaf;

    Side(TypeRef ref, JsonNode lhs, JsonNode rhs) {
      this.ref = ref;
      this.lhs = lhs;
      this.rhs = rhs;
    }

    Side copy() {
      Side other = new Side(ref, lhs, rhs);
      other.inLeaf = inLeaf;
      return other;
    }

    void compare() {
      Atom atom = schema.resolve(ref);
      if (atom == null) {
        throw new IllegalStateException("refused by validation before");
      }
      Atom left = TypedWalker.deduce(atom, lhs);
      Atom right = TypedWalker.deduce(atom, rhs);
      if (rhs == null) {
        handle(left);
      } else if (lhs == null || left.equals(right)) {
        handle(right);
      } else {
        copy().handle(left); // each side's shape is looked at; the copy's leaf state is dropped
        handle(right);
      }
      if (!inLeaf) {
        if (lhs == null) {
          added.insert(here());
        } else if (rhs == null) {
          removed.insert(here());
        }
      }
    }

    private void handle(Atom atom) {
      if (atom.map() != null) {
        compareMap(atom.map());
      } else if (atom.scalar() != null) {
        leaf();
      } else if (atom.list() != null) {
        compareList(atom.list());
      }
    }

    private void leaf() {
      if (inLeaf) {
        return;
      }
      inLeaf = true;
      if (lhs == null) {
        added.insert(here());
      } else if (rhs == null) {
        removed.insert(here());
      } else if (!JsonValues.equal(lhs, rhs)) {
        modified.insert(here());
      }
    }

    private void compareMap(MapAtom map) {
      JsonNode left = isMap(lhs) ? lhs : null;
      JsonNode right = isMap(rhs) ? rhs : null;
      boolean empty = (left == null || left.isEmpty()) && (right == null || right.isEmpty());
      if (map.relationship() == ElementRelationship.ATOMIC || empty) {
        leaf();
        return;
      }
      for (String name : keys(left, right)) {
        path.add(PathElement.field(name));
        new Side(
                entryType(map, name),
                left == null ? null : left.get(name),
                right == null ? null : right.get(name))
            .compare();
        path.remove(path.size() - 1);
      }
    }

    private void compareList(ListAtom list) {
      JsonNode left = isList(lhs) ? lhs : null;
      JsonNode right = isList(rhs) ? rhs : null;
      boolean empty = (left == null || left.isEmpty()) && (right == null || right.isEmpty());
      if (list.relationship() == ElementRelationship.ATOMIC || empty) {
        leaf();
        return;
      }
      Map<PathElement, List<JsonNode>> lValues = group(list, left);
      Map<PathElement, List<JsonNode>> rValues = group(list, right);
      Set<PathElement> all = new LinkedHashSet<>(lValues.keySet());
      all.addAll(rValues.keySet());
      for (PathElement element : all) {
        List<JsonNode> l = lValues.getOrDefault(element, List.of());
        List<JsonNode> r = rValues.getOrDefault(element, List.of());
        path.add(element);
        if (l.size() <= 1 && r.size() <= 1) {
          item(list, l.isEmpty() ? null : l.get(0), r.isEmpty() ? null : r.get(0));
        } else if (l.size() >= 2 && r.size() >= 2) {
          // duplicates on both sides: the group is compared as a whole
          if (!JsonValues.equal(l, r)) {
            modified.insert(here());
          }
        } else if (l.size() >= 2) {
          // duplicates resolved: the new item is added, the duplicated one removed
          if (!r.isEmpty()) {
            item(list, null, r.get(0));
          }
          removed.insert(here());
        } else {
          // duplicates introduced
          if (!l.isEmpty()) {
            item(list, l.get(0), null);
          }
          added.insert(here());
        }
        path.remove(path.size() - 1);
      }
    }

    private void item(ListAtom list, JsonNode left, JsonNode right) {
      new Side(list.elementType(), left, right).compare();
    }
  }

  /** The items of an associative list by their elements, in order, duplicates together. */
  private Map<PathElement, List<JsonNode>> group(ListAtom list, JsonNode value) {
    Map<PathElement, List<JsonNode>> groups = new LinkedHashMap<>();
    if (value == null) {
      return groups;
    }
    for (JsonNode child : value) {
      PathElement element = items.elementOrNull(list, child);
      if (element != null) {
        groups.computeIfAbsent(element, e -> new ArrayList<>()).add(child);
      }
    }
    return groups;
  }

  // ---- merge

  /** The merged value, or null when nothing is left. */
  JsonNode merge(TypeRef ref, JsonNode lhs, JsonNode rhs) {
    Atom atom = schema.resolve(ref);
    if (atom == null) {
      throw new IllegalStateException("refused by validation before");
    }
    // the walk looks at both shapes when they differ, but only the new value's shape decides
    Atom chosen = TypedWalker.deduce(atom, rhs != null ? rhs : lhs);
    if (chosen.map() != null) {
      return mergeMap(chosen.map(), lhs, rhs);
    }
    if (chosen.scalar() != null) {
      return keepNew(lhs, rhs);
    }
    return mergeList(chosen.list(), lhs, rhs);
  }

  private static JsonNode keepNew(JsonNode lhs, JsonNode rhs) {
    return copy(rhs != null ? rhs : lhs);
  }

  private JsonNode mergeMap(MapAtom map, JsonNode lhs, JsonNode rhs) {
    JsonNode left = isMap(lhs) ? lhs : null;
    JsonNode right = isMap(rhs) ? rhs : null;
    boolean empty = (left == null || left.isEmpty()) && (right == null || right.isEmpty());
    if (map.relationship() == ElementRelationship.ATOMIC || empty) {
      return keepNew(lhs, rhs);
    }
    ObjectNode out = NODES.objectNode();
    for (String name : keys(left, right)) {
      JsonNode merged =
          merge(
              entryType(map, name),
              left == null ? null : left.get(name),
              right == null ? null : right.get(name));
      if (merged != null) {
        out.set(name, merged);
      }
    }
    return out.isEmpty() ? null : out;
  }

  private JsonNode mergeList(ListAtom list, JsonNode lhs, JsonNode rhs) {
    JsonNode left = isList(lhs) ? lhs : null;
    JsonNode right = isList(rhs) ? rhs : null;
    boolean empty = (left == null || left.isEmpty()) && (right == null || right.isEmpty());
    if (list.relationship() == ElementRelationship.ATOMIC || empty) {
      return keepNew(lhs, rhs);
    }
    List<PathElement> rElements = new ArrayList<>();
    Map<PathElement, JsonNode> rObserved = new LinkedHashMap<>();
    index(list, right, rElements, rObserved);
    List<PathElement> lElements = new ArrayList<>();
    Map<PathElement, JsonNode> lObserved = new LinkedHashMap<>();
    index(list, left, lElements, lObserved);

    // the new value's items the old one holds too, in the new value's order
    Deque<PathElement> shared = new ArrayDeque<>();
    for (PathElement element : rElements) {
      if (lObserved.containsKey(element)) {
        shared.add(element);
      }
    }
    PathElement nextShared = shared.poll();
    Set<PathElement> mergedRight = new HashSet<>();
    ArrayNode out = NODES.arrayNode();
    int l = 0;
    int r = 0;
    while (l < lElements.size() || r < rElements.size()) {
      if (l < lElements.size() && r < rElements.size()) {
        PathElement element = lElements.get(l);
        if (element.equals(rElements.get(r))) {
          mergedRight.add(element);
          addItem(out, list, element, lObserved.get(element), rObserved.get(element));
          l++;
          r++;
          nextShared = shared.poll();
          continue;
        }
        if (rObserved.containsKey(element) && nextShared != null && !nextShared.equals(element)) {
          l++; // a shared item out of the new order: placed when the new value reaches it
          continue;
        }
      }
      if (l < lElements.size()) {
        PathElement element = lElements.get(l);
        if (!rObserved.containsKey(element)) {
          addItem(out, list, element, left.get(l), null);
          l++;
          continue;
        } else if (mergedRight.contains(element)) {
          l++;
        }
      }
      if (r < rElements.size()) {
        PathElement element = rElements.get(r);
        mergedRight.add(element);
        addItem(out, list, element, lObserved.get(element), rObserved.get(element));
        r++;
        if (nextShared != null && nextShared.equals(element)) {
          nextShared = shared.poll();
        }
      }
    }
    return out.isEmpty() ? null : out;
  }

  /** Lists the elements of a list's items; an element held twice is observed as a JSON null. */
  private void index(
      ListAtom list, JsonNode value, List<PathElement> elements, Map<PathElement, JsonNode> seen) {
    if (value == null) {
      return;
    }
    for (JsonNode child : value) {
      PathElement element = items.elementOrNull(list, child);
      if (element == null) {
        throw new IllegalStateException("refused by validation before");
      }
      seen.put(element, seen.containsKey(element) ? NullNode.getInstance() : child);
      elements.add(element);
    }
  }

  private void addItem(
      ArrayNode out, ListAtom list, PathElement element, JsonNode lhs, JsonNode rhs) {
    path.add(element);
    JsonNode merged = merge(list.elementType(), lhs, rhs);
    path.remove(path.size() - 1);
    if (merged != null) {
      out.add(merged);
    }
  }

  // ---- remove and extract

  /**
   * The value with the fields of the set removed, or only they kept (with the parents that lead to
   * them); a JSON null when nothing is left.
   */
  JsonNode remove(TypeRef ref, JsonNode value, FieldSet set, boolean extract) {
    Atom atom = ref == null ? null : schema.resolve(ref);
    if (atom == null) {
      return NullNode.getInstance();
    }
    atom = TypedWalker.deduce(atom, value);
    if (atom.map() != null) {
      return removeFromMap(atom.map(), value, set, extract);
    }
    if (atom.scalar() != null) {
      return copy(value);
    }
    if (atom.list() != null) {
      return removeFromList(atom.list(), value, set, extract);
    }
    return NullNode.getInstance();
  }

  private JsonNode removeFromList(ListAtom list, JsonNode value, FieldSet set, boolean extract) {
    if (!isList(value)) {
      return NullNode.getInstance();
    }
    if (value.isEmpty() || list.relationship() == ElementRelationship.ATOMIC) {
      return extract ? copy(value) : NullNode.getInstance();
    }
    ArrayNode out = NODES.arrayNode();
    for (JsonNode item : value) {
      PathElement element = items.elementOrNull(list, item);
      if (element == null) {
        continue;
      }
      boolean exact = set.has(FieldPath.of(element));
      FieldSet below = set.withPrefix(element);
      JsonNode kept =
          below.isEmpty() ? copy(item) : remove(list.elementType(), item, below, extract);
      if (extract ? exact || !below.isEmpty() : !exact) {
        out.add(kept);
      }
    }
    return out.isEmpty() ? NullNode.getInstance() : out;
  }

  private JsonNode removeFromMap(MapAtom map, JsonNode value, FieldSet set, boolean extract) {
    if (!isMap(value)) {
      return NullNode.getInstance();
    }
    if (value.isEmpty() || map.relationship() == ElementRelationship.ATOMIC) {
      return extract ? copy(value) : NullNode.getInstance();
    }
    ObjectNode out = NODES.objectNode();
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      PathElement element = PathElement.field(entry.getKey());
      TypeRef type = entryType(map, entry.getKey());
      if (set.has(FieldPath.of(element))) {
        if (extract) {
          // as in structured-merge-diff, the whole set applies below a member taken as a whole
          out.set(entry.getKey(), remove(type, entry.getValue(), set, true));
        }
        continue;
      }
      FieldSet below = set.withPrefix(element);
      if (!below.isEmpty()) {
        out.set(entry.getKey(), remove(type, entry.getValue(), below, extract));
      } else if (!extract) {
        out.set(entry.getKey(), copy(entry.getValue()));
      }
    }
    return out.isEmpty() ? NullNode.getInstance() : out;
  }
}
