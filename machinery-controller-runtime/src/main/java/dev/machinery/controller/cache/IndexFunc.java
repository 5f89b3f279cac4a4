package dev.machinery.controller.cache;

import java.util.List;

/**
 * Computes the values an object is indexed under ({@code cache.IndexFunc}).
 *
 * <p>Implementations must be thread-safe and must not change the object.
 *
 * @param <T> the object type
 */
@FunctionalInterface
public interface IndexFunc<T> {
  /** The name client-go gives the namespace index. */
  String NAMESPACE_INDEX = "namespace";

  /**
   * Returns the values the object is indexed under.
   *
   * @param object the object
   * @return the values, possibly none
   */
  List<String> values(T object);
}
