package dev.machinery.apiserver.registry.rest;

import java.util.AbstractCollection;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
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

  /**
   * A JSON object: its keys and values alternating in one array, in their order. It implements
   * {@link Map} itself rather than extending {@code AbstractMap}, whose two cached views would add
   * 8 bytes to each of the tens of maps a cached object holds; its views are made when asked for.
   */
  private static final class FrozenMap implements Map<String, Object> {
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
    public boolean containsValue(Object value) {
      for (int i = 1; i < keysAndValues.length; i += 2) {
        if (Objects.equals(keysAndValues[i], value)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public Object put(String key, Object value) {
      throw new UnsupportedOperationException("a cached object is never changed");
    }

    @Override
    public Object remove(Object key) {
      throw new UnsupportedOperationException("a cached object is never changed");
    }

    @Override
    public void putAll(Map<? extends String, ?> map) {
      throw new UnsupportedOperationException("a cached object is never changed");
    }

    @Override
    public void clear() {
      throw new UnsupportedOperationException("a cached object is never changed");
    }

    @Override
    public Set<String> keySet() {
      return new AbstractSet<>() {
        @Override
        public int size() {
          return keysAndValues.length / 2;
        }

        @Override
        public boolean contains(Object key) {
          return indexOf(key) >= 0;
        }

        @Override
        public Iterator<String> iterator() {
          return new Walk<>(0) {
            @Override
            String at(int index) {
              return (String) keysAndValues[index];
            }
          };
        }
      };
    }

    @Override
    public Collection<Object> values() {
      return new AbstractCollection<>() {
        @Override
        public int size() {
          return keysAndValues.length / 2;
        }

        @Override
        public Iterator<Object> iterator() {
          return new Walk<>(1) {
            @Override
            Object at(int index) {
              return keysAndValues[index];
            }
          };
        }
      };
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
          return new Walk<>(0) {
            @Override
            Map.Entry<String, Object> at(int index) {
              return new AbstractMap.SimpleImmutableEntry<>(
                  (String) keysAndValues[index], keysAndValues[index + 1]);
            }
          };
        }
      };
    }

    /** Equal to any map of the same entries, as {@link Map#equals} says. */
    @Override
    public boolean equals(Object other) {
      if (other == this) {
        return true;
      }
      if (!(other instanceof Map<?, ?> map) || map.size() != size()) {
        return false;
      }
      for (int i = 0; i < keysAndValues.length; i += 2) {
        Object value = keysAndValues[i + 1];
        Object theirs = map.get(keysAndValues[i]);
        if (value == null
            ? theirs != null || !map.containsKey(keysAndValues[i])
            : !value.equals(theirs)) {
          return false;
        }
      }
      return true;
    }

    /** The sum of the entries' hashes, as {@link Map#hashCode} says. */
    @Override
    public int hashCode() {
      int hash = 0;
      for (int i = 0; i < keysAndValues.length; i += 2) {
        hash += keysAndValues[i].hashCode() ^ Objects.hashCode(keysAndValues[i + 1]);
      }
      return hash;
    }

    /** As {@code AbstractMap} writes a map: {@code {key=value, ...}}. */
    @Override
    public String toString() {
      StringBuilder text = new StringBuilder("{");
      for (int i = 0; i < keysAndValues.length; i += 2) {
        if (i > 0) {
          text.append(", ");
        }
        text.append(keysAndValues[i]).append('=').append(keysAndValues[i + 1]);
      }
      return text.append('}').toString();
    }

    /** A walk of the array from an offset, two slots a step, that changes nothing. */
    private abstract class Walk<T> implements Iterator<T> {
      private int next;

      Walk(int offset) {
        this.next = offset;
      }

      abstract T at(int index);

      @Override
      public boolean hasNext() {
        return next < keysAndValues.length;
      }

      @Override
      public T next() {
        if (next >= keysAndValues.length) {
          throw new NoSuchElementException();
        }
        T item = at(next);
        next += 2;
        return item;
      }
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
