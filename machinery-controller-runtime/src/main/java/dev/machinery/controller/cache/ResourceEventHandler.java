package dev.machinery.controller.cache;

/**
 * Receives an informer's notifications ({@code cache.ResourceEventHandler}). Each handler gets its
 * notifications in order on a thread of its own; a slow handler delays only itself.
 *
 * <p>Objects handed in are the cache's: never change them. Implementations need not be thread-safe
 * towards one informer (one thread calls them), but must be when shared.
 *
 * @param <T> the object type
 */
public interface ResourceEventHandler<T> {
  /**
   * An object appeared: listed, watched, or (for a handler added late) already in the cache.
   *
   * @param object the object
   * @param isInInitialList true when it belongs to the cache's content when the handler started
   */
  default void onAdd(T object, boolean isInInitialList) {}

  /**
   * An object changed; on a periodic resync, {@code oldObject} and {@code newObject} carry the same
   * resource version.
   *
   * @param oldObject the state before
   * @param newObject the state after
   */
  default void onUpdate(T oldObject, T newObject) {}

  /**
   * An object was deleted.
   *
   * @param object its final state, or the last state the cache knew
   * @param finalStateUnknown true when a relist found it gone and the deletion itself was missed
   *     ({@code DeletedFinalStateUnknown})
   */
  default void onDelete(T object, boolean finalStateUnknown) {}
}
