package dev.machinery.unversioned.unstructured;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lenient reads and fills of JSON trees held as maps, lists and scalars (an {@link Unstructured}
 * object's content, or any part of it): a value that is absent, {@code null} or of another type
 * than asked reads as absent, as code that inspects objects it did not write (admission plugins,
 * controllers, printers) wants. {@link Unstructured#nestedString} and its siblings read strictly
 * instead, naming a field of the wrong type. Paths are field names from the tree's root, as the
 * {@code fields} of Go's {@code unstructured.NestedFieldNoCopy}.
 *
 * <p>Stateless and thread-safe; the trees passed in are read (or, by {@link #child} and {@link
 * #fill}, changed) in place, with the caller's synchronization.
 */
public final class JsonTrees {
  private JsonTrees() {}

  /**
   * Returns the value at a path of field names, live (Go's {@code NestedFieldNoCopy}).
   *
   * @param tree the tree, any JSON value or null
   * @param path the field names
   * @return the value, or null when a field on the way is absent or not an object
   */
  public static Object get(Object tree, String... path) {
    Object at = tree;
    for (String name : path) {
      if (!(at instanceof Map<?, ?> map)) {
        return null;
      }
      at = map.get(name);
    }
    return at;
  }

  /**
   * Returns the object at a path, live.
   *
   * @param tree the tree
   * @param path the field names
   * @return the object, or null when there is none (or the value is not an object)
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(Object tree, String... path) {
    return get(tree, path) instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
  }

  /**
   * Returns the objects a list at a path holds, each live; its elements that are not objects are
   * left out.
   *
   * @param tree the tree
   * @param path the field names
   * @return a new list of the objects, empty when there is no list
   */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> maps(Object tree, String... path) {
    List<Map<String, Object>> out = new ArrayList<>();
    if (get(tree, path) instanceof List<?> list) {
      for (Object item : list) {
        if (item instanceof Map<?, ?> map) {
          out.add((Map<String, Object>) map);
        }
      }
    }
    return out;
  }

  /**
   * Returns the string at a path.
   *
   * @param tree the tree
   * @param otherwise what to return when there is no string there
   * @param path the field names
   * @return the string, or {@code otherwise}
   */
  public static String string(Object tree, String otherwise, String... path) {
    return get(tree, path) instanceof String text ? text : otherwise;
  }

  /**
   * Returns the number at a path as a long (a fraction truncated, as {@link Number#longValue}).
   *
   * @param tree the tree
   * @param otherwise what to return when there is no number there
   * @param path the field names
   * @return the number, or {@code otherwise}
   */
  public static long number(Object tree, long otherwise, String... path) {
    return get(tree, path) instanceof Number n ? n.longValue() : otherwise;
  }

  /**
   * Returns the object at a path, making it, and each object above it, where a field is absent or
   * holds something other than an object (which it replaces), as Go's {@code SetNestedField} makes
   * the objects on its way.
   *
   * @param tree the tree's root object, mutable
   * @param path the field names
   * @return the object at the path, live
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> child(Map<String, Object> tree, String... path) {
    Map<String, Object> at = tree;
    for (String name : path) {
      Object next = at.get(name);
      if (!(next instanceof Map<?, ?>)) {
        next = new LinkedHashMap<String, Object>();
        at.put(name, next);
      }
      at = (Map<String, Object>) next;
    }
    return at;
  }

  /**
   * Sets a field of an object where it is absent or {@code null}, as a default is set; a field that
   * has a value keeps it.
   *
   * @param tree the object, mutable
   * @param name the field's name
   * @param value the value to set
   */
  public static void fill(Map<String, Object> tree, String name, Object value) {
    if (tree.get(name) == null) {
      tree.put(name, value);
    }
  }

  /**
   * Returns a deep copy of a tree's maps and lists (Go's {@code DeepCopyJSONValue}); scalars are
   * shared, as they are immutable. Maps are copied as {@link LinkedHashMap}s, in their order.
   *
   * @param tree the tree
   * @return the copy
   */
  public static Object deepCopy(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), deepCopy(v)));
      return out;
    }
    if (tree instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(item -> out.add(deepCopy(item)));
      return out;
    }
    return tree;
  }
}
