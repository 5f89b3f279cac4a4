package dev.machinery.controller;

import dev.machinery.controller.workqueue.RateLimitingQueue;

/**
 * Turns an informer's notifications into requests ({@code handler.EventHandler}). {@link
 * EventHandlers} holds controller-runtime's two stock handlers.
 *
 * <p>Implementations must be thread-safe.
 *
 * @param <T> the object type
 */
public interface EventHandler<T> {
  /**
   * Handles an addition.
   *
   * @param object the object
   * @param queue the controller's queue
   */
  void create(T object, RateLimitingQueue<Request> queue);

  /**
   * Handles a change.
   *
   * @param oldObject the state before
   * @param newObject the state after
   * @param queue the controller's queue
   */
  void update(T oldObject, T newObject, RateLimitingQueue<Request> queue);

  /**
   * Handles a deletion.
   *
   * @param object the last known state
   * @param finalStateUnknown true when the deletion was inferred from a relist
   * @param queue the controller's queue
   */
  void delete(T object, boolean finalStateUnknown, RateLimitingQueue<Request> queue);
}
