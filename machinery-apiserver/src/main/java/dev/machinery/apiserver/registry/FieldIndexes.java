package dev.machinery.apiserver.registry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A watch cache's indexes of field values, as kube-apiserver's cache indexes a Pod's {@code
 * spec.nodeName}: for each indexed field, the keys of the objects with each value. An object whose
 * value cannot be read (its stored value does not decode) is kept apart and given to every lookup,
 * so that a list meets the same error it would without the index.
 *
 * <p>Not thread-safe: the cache calls it with its lock held.
 */
final class FieldIndexes {
  private final Map<String, Function<Object, String>> readers;
  private final Map<String, Map<String, NavigableSet<String>>> keysByValue = new HashMap<>();
  private final Map<String, String[]> valuesByKey = new HashMap<>();
  private final NavigableSet<String> unreadable = new TreeSet<>();
  private final List<String> fields;

  /**
   * @param readers each indexed field and the reader of its value from a decoded object
   */
  FieldIndexes(Map<String, Function<Object, String>> readers) {
    this.readers = Map.copyOf(readers);
    this.fields = List.copyOf(readers.keySet());
    for (String field : fields) {
      keysByValue.put(field, new HashMap<>());
    }
  }

  /** Indexes a key's entry (decoding it when a field is indexed). */
  void add(String key, WatchCache.Entry entry) {
    if (fields.isEmpty()) {
      return;
    }
    String[] values = new String[fields.size()];
    try {
      Object object = entry.object();
      for (int i = 0; i < values.length; i++) {
        values[i] = readers.get(fields.get(i)).apply(object);
      }
    } catch (RuntimeException e) {
      unreadable.add(key);
      return;
    }
    valuesByKey.put(key, values);
    for (int i = 0; i < values.length; i++) {
      keysByValue.get(fields.get(i)).computeIfAbsent(values[i], v -> new TreeSet<>()).add(key);
    }
  }

  /** The values of a key that was absent: none match. */
  static final String[] ABSENT = new String[0];

  /** The position of an indexed field in {@link #values}, -1 when not indexed. */
  int position(String field) {
    return fields.indexOf(field);
  }

  /**
   * The indexed values of a key's object, in {@link #position} order; {@code null} when not known
   * (no field is indexed, or its value could not be read).
   */
  String[] values(String key) {
    return fields.isEmpty() ? null : valuesByKey.get(key);
  }

  /** Forgets a key. */
  void remove(String key) {
    if (fields.isEmpty()) {
      return;
    }
    unreadable.remove(key);
    String[] values = valuesByKey.remove(key);
    if (values == null) {
      return;
    }
    for (int i = 0; i < values.length; i++) {
      Map<String, NavigableSet<String>> byValue = keysByValue.get(fields.get(i));
      NavigableSet<String> keys = byValue.get(values[i]);
      if (keys != null && keys.remove(key) && keys.isEmpty()) {
        byValue.remove(values[i]);
      }
    }
  }

  /** Forgets every key. */
  void clear() {
    keysByValue.values().forEach(Map::clear);
    valuesByKey.clear();
    unreadable.clear();
  }

  /**
   * The keys under a prefix whose field has a value, with the unreadable ones, in key order; {@code
   * null} when the field is not indexed.
   */
  Collection<String> keys(String field, String value, String prefix) {
    Map<String, NavigableSet<String>> byValue = keysByValue.get(field);
    if (byValue == null) {
      return null;
    }
    List<String> out = new ArrayList<>(under(byValue.getOrDefault(value, EMPTY), prefix));
    if (!unreadable.isEmpty()) {
      out.addAll(under(unreadable, prefix));
      out.sort(null);
    }
    return out;
  }

  private static final NavigableSet<String> EMPTY = new TreeSet<>();

  private static List<String> under(NavigableSet<String> keys, String prefix) {
    List<String> out = new ArrayList<>();
    for (String key : keys.tailSet(prefix, true)) {
      if (!key.startsWith(prefix)) {
        break;
      }
      out.add(key);
    }
    return out;
  }
}
