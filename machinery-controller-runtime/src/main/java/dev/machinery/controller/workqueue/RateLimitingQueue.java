package dev.machinery.controller.workqueue;

/**
 * A delaying queue that asks a {@link RateLimiter} how long each item waits ({@code
 * workqueue.RateLimitingInterface}).
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the item type
 */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {
  /**
   * Adds an item once its rate limiter allows it.
   *
   * @param item the item
   */
  void addRateLimited(T item);

  /**
   * Tells the rate limiter to stop tracking the item (it succeeded, or was given up on).
   *
   * @param item the item
   */
  void forget(T item);

  /**
   * Returns how many times the item was requeued through {@link #addRateLimited}.
   *
   * @param item the item
   * @return the count
   */
  int numRequeues(T item);
}
