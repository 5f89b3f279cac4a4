package dev.machinery.cluster.controller.resourcequota;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading and filling JSON trees as {@code Unstructured} holds them: maps, lists and scalars. */
final class Trees {
  private Trees() {}

  /** The value at a path of field names, or null. */
  static Object get(Object tree, String... path) {
    Object at = tree;
    for (String name : path) {
      if (!(at instanceof Map<?, ?> map)) {
        return null;
      }
      at = map.get(name);
    }
    return at;
  }

  /** The map at a path, or null when there is none. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object tree, String... path) {
    return get(tree, path) instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
  }

  /** The maps a list at a path holds (none when there is no list). */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> maps(Object tree, String... path) {
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

  /** The string at a path, or {@code otherwise}. */
  static String string(Object tree, String otherwise, String... path) {
    return get(tree, path) instanceof String text ? text : otherwise;
  }

  /** The number at a path as a long, or {@code otherwise}. */
  static long number(Object tree, long otherwise, String... path) {
    return get(tree, path) instanceof Number n ? n.longValue() : otherwise;
  }

  /** The map at a path, made (with the maps above it) when absent. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> child(Map<String, Object> tree, String... path) {
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

  /** Sets a field when it is absent (or null). */
  static void fill(Map<String, Object> tree, String name, Object value) {
    if (tree.get(name) == null) {
      tree.put(name, value);
    }
  }

  /** A deep copy of a tree's maps and lists (scalars are shared: they are immutable). */
  static Object copy(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), copy(v)));
      return out;
    }
    if (tree instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(item -> out.add(copy(item)));
      return out;
    }
    return tree;
  }
}
