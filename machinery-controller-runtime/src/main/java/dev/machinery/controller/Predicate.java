package dev.machinery.controller;

/**
 * Filters the notifications a controller turns into requests ({@code predicate.Predicate}): a
 * notification passes when every predicate of its watch returns true.
 *
 * <p>Implementations must be thread-safe.
 *
 * @param <T> the object type
 */
public interface Predicate<T> {
  /**
   * Filters an addition.
   *
   * @param object the object
   * @return true to pass it on
   */
  default boolean create(T object) {
    return true;
  }

  /**
   * Filters a change.
   *
   * @param oldObject the state before
   * @param newObject the state after
   * @return true to pass it on
   */
  default boolean update(T oldObject, T newObject) {
    return true;
  }

  /**
   * Filters a deletion.
   *
   * @param object the last known state
   * @return true to pass it on
   */
  default boolean delete(T object) {
    return true;
  }
}
