package dev.machinery.core.fieldpath;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads {@code FieldsV1} JSON into a {@link FieldSet} as kube-apiserver does: an entry's object
 * holds its children, {@code "."} (with any value) or an object without known entries makes the
 * entry a member, {@code null} reads as an empty object, entries of unknown kinds are dropped, and
 * of two entries for the same element the later one's children count.
 */
final class FieldsV1Reader {
  private final JsonText json;
  private final FieldsV1Limits limits;
  private final Deque<PathElement> path = new ArrayDeque<>();

  private FieldsV1Reader(String text, FieldsV1Limits limits) {
    this.json = new JsonText(text, limits.maxDepth());
    this.limits = limits;
  }

  static FieldSet read(String text, FieldsV1Limits limits) {
    return new FieldsV1Reader(text, limits).read();
  }

  private record Entry(FieldSet children, boolean member) {}

  private FieldSet read() {
    try {
      if (json.consumeNull()) {
        json.expectEnd("the field set");
        return FieldSet.empty();
      }
      if (json.peek() != '{') {
        throw json.problem("expected a JSON object, found " + json.found());
      }
      Entry root = readEntry(1);
      json.expectEnd("the field set");
      return root.children == null ? FieldSet.empty() : root.children;
    } catch (JsonText.Problem p) {
      throw new FieldPathException(
          p.tooLarge ? FieldPathException.Kind.TOO_LARGE : FieldPathException.Kind.MALFORMED,
          p.position,
          where(p.position) + p.getMessage());
    }
  }

  private String where(int offset) {
    StringBuilder b = new StringBuilder("invalid FieldsV1 at offset ").append(offset);
    if (!path.isEmpty()) {
      b.append(" (in ").append(new FieldPath(new ArrayList<>(path))).append(')');
    }
    return b.append(": ").toString();
  }

  private Entry readEntry(int depth) {
    if (json.consumeNull()) {
      return new Entry(null, true);
    }
    if (json.peek() != '{') {
      throw json.problem("expected a JSON object for a field set entry, found " + json.found());
    }
    json.enter(depth);
    json.consume('{');
    TreeSet<PathElement> members = new TreeSet<>();
    Map<PathElement, FieldSet> children = new TreeMap<>();
    boolean self = false;
    boolean any = false;
    if (!json.consume('}')) {
      do {
        if (json.peek() != '"') {
          throw json.problem("expected a string key, found " + json.found());
        }
        int at = json.position();
        String key = json.readString();
        json.expect(':', "':' after a key");
        if (key.equals(".")) {
          self = true;
          json.readValue(depth);
          continue;
        }
        PathElement element = PathElementText.parse(key, limits, at, false, where(at));
        if (element == null) {
          json.readValue(depth);
          continue;
        }
        path.addLast(element);
        Entry entry = readEntry(depth + 1);
        path.removeLast();
        if (entry.member) {
          members.add(element);
          any = true;
        }
        if (entry.children != null) {
          children.put(element, entry.children);
          any = true;
        }
      } while (json.consume(','));
      json.expect('}', "',' or '}' after an entry");
    }
    if (!any) {
      return new Entry(null, true);
    }
    FieldSet set =
        FieldSet.of(
            new ArrayList<>(members),
            new ArrayList<>(children.keySet()),
            new ArrayList<>(children.values()));
    return new Entry(set, self);
  }
}
