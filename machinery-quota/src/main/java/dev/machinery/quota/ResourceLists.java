package dev.machinery.quota;

import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.resource.QuantityFormatException;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.Map;
import java.util.TreeMap;

/**
 * Resource lists ({@code ResourceList} in Kubernetes: resource names to quantities) as a quota
 * reads and sums them, Go's {@code quota.Add} and {@code quota.Max} among them. Stateless and
 * thread-safe; the maps passed in are the caller's.
 */
public final class ResourceLists {
  private ResourceLists() {}

  /**
   * Reads the resource list at a path of a JSON tree (a quota's {@code status.hard}, a container's
   * {@code resources.requests}), sorted by name.
   *
   * @param tree the tree
   * @param path the field names of the list
   * @return a new map, empty when there is no list; {@code null} values left out
   * @throws QuantityFormatException if a value is no quantity
   */
  public static TreeMap<String, Quantity> of(Object tree, String... path) {
    TreeMap<String, Quantity> out = new TreeMap<>();
    Map<String, Object> map = JsonTrees.map(tree, path);
    if (map != null) {
      map.forEach(
          (name, value) -> {
            if (value != null) {
              out.put(name, Quantity.parse(String.valueOf(value)));
            }
          });
    }
    return out;
  }

  /**
   * Adds each quantity of {@code more} to the one of the same name in {@code into} (Go's {@code
   * quota.Add}); a name {@code into} lacks is added.
   *
   * @param into the sum, changed
   * @param more what to add
   */
  public static void add(Map<String, Quantity> into, Map<String, Quantity> more) {
    more.forEach((name, q) -> into.merge(name, q, Quantity::add));
  }

  /**
   * Keeps, for each name, the larger quantity of {@code into} and {@code other} (Go's {@code
   * quota.Max}); a name {@code into} lacks is added.
   *
   * @param into the larger values, changed
   * @param other the other list
   */
  public static void max(Map<String, Quantity> into, Map<String, Quantity> other) {
    other.forEach(
        (name, q) -> {
          Quantity have = into.get(name);
          if (have == null || q.compareTo(have) > 0) {
            into.put(name, q);
          }
        });
  }
}
