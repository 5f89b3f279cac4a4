package dev.machinery.apiserver.registry.rest;

import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.RandomAccess;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JSON values held compactly and never changed, for the objects a watch cache shares between every
 * reader: each object of the tree is one array of its keys and values in their order (no hash
 * table, no entry objects), each list one array, and every empty object and empty list one shared
 * instance (the {@code {}} leaves of {@code managedFields} are most of a Pod's objects). A {@code
 * LinkedHashMap} of three fields takes about 250 bytes, its frozen copy about 50.
 *
 * <p>Maps look keys up by a scan, which is as fast as hashing for the few keys a JSON object has;
 * they keep their keys' order, compare equal to any map with the same entries and hash as {@link
 * Map} says, so an object of frozen values equals, and encodes to the same bytes as, the same
 * object decoded afresh. Every change throws {@link UnsupportedOperationException}, as the JDK's
 * unmodifiable collections do: a reader that changes a shared object is a fault.
 *
 * <p>Thread-safe: immutable.
 */
final class FrozenJson {
  private static final Object[] NONE = new Object[0];
  private static final FrozenMap EMPTY_MAP = new FrozenMap(NONE);
  private static final FrozenList EMPTY_LIST = new FrozenList(NONE);

  /** The longest string value shared between frozen objects. */
  static final int SHARED_STRING_LENGTH = 128;

  /** How many distinct strings are remembered before the table starts again. */
  static final int SHARED_STRINGS = 1 << 16;

  /**
   * One instance of each short string value frozen lately: values repeat across objects (images,
   * label values, ports' protocols, node names), each a string of its own when decoded. Bounded:
   * once it holds {@link #SHARED_STRINGS} strings it is emptied, and the values that repeat are
   * found again.
   */
  private static final ConcurrentHashMap<String, String> STRINGS = new ConcurrentHashMap<>();

  private FrozenJson() {}

  /**
   * A JSON value frozen: maps and lists (at every depth) copied into frozen ones, anything else
   * (strings, numbers, booleans, {@code null}) as it is.
   *
   * @param value a JSON value, as an {@code Unstructured} object holds it
   * @return the frozen value
   */
  static Object freeze(Object value) {
    if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        return EMPTY_MAP;
      }
      Object[] keysAndValues = new Object[map.size() * 2];
      int i = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        keysAndValues[i++] = entry.getKey();
        keysAndValues[i++] = freeze(entry.getValue());
      }
      return new FrozenMap(keysAndValues);
    }
    if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        return EMPTY_LIST;
      }
      Object[] items = new Object[list.size()];
      int i = 0;
      for (Object item : list) {
        items[i++] = freeze(item);
      }
      return new FrozenList(items);
    }
    if (value instanceof String text && text.length() <= SHARED_STRING_LENGTH) {
      return shared(text);
    }
    return value;
  }

  private static String shared(String text) {
    String known = STRINGS.putIfAbsent(text, text);
    if (known != null) {
      return known;
    }
    if (STRINGS.size() > SHARED_STRINGS) {
      STRINGS.clear();
    }
    return text;
  }

  /** How many strings the table of shared strings holds now (for tests). */
  static int sharedStrings() {
    return STRINGS.size();
  }

  /** A JSON object: its keys and values alternating in one array, in their order. */
  private static final class FrozenMap extends AbstractMap<String, Object> {
    private final Object[] keysAndValues;

    FrozenMap(Object[] keysAndValues) {
      this.keysAndValues = keysAndValues;
    }

    private int indexOf(Object key) {
      for (int i = 0; i < keysAndValues.length; i += 2) {
        if (keysAndValues[i].equals(key)) {
          return i;
        }
      }
      return -1;
    }

    @Override
    public int size() {
      return keysAndValues.length / 2;
    }

    @Override
    public boolean isEmpty() {
      return keysAndValues.length == 0;
    }

    @Override
    public Object get(Object key) {
      int i = indexOf(key);
      return i < 0 ? null : keysAndValues[i + 1];
    }

    @Override
    public boolean containsKey(Object key) {
      return indexOf(key) >= 0;
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public int size() {
          return keysAndValues.length / 2;
        }

        @Override
        public Iterator<Map.Entry<String, Object>> iterator() {
          return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
              return next < keysAndValues.length;
            }

            @Override
            public Map.Entry<String, Object> next() {
              if (next >= keysAndValues.length) {
                throw new NoSuchElementException();
              }
              Map.Entry<String, Object> entry =
                  new AbstractMap.SimpleImmutableEntry<>(
                      (String) keysAndValues[next], keysAndValues[next + 1]);
              next += 2;
              return entry;
            }
          };
        }
      };
    }
  }

  /** A JSON array: its items in one array. */
  private static final class FrozenList extends AbstractList<Object> implements RandomAccess {
    private final Object[] items;

    FrozenList(Object[] items) {
      this.items = items;
    }

    @Override
    public Object get(int index) {
      return items[index];
    }

    @Override
    public int size() {
      return items.length;
    }
  }
}
