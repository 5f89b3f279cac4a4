package dev.machinery.controller.workqueue;

import java.time.Duration;

/**
 * Decides how long an item waits before its next attempt ({@code workqueue.TypedRateLimiter}).
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the item type
 */
public interface RateLimiter<T> {
  /**
   * Records an attempt of the item and returns how long it should wait.
   *
   * @param item the item
   * @return the delay, not negative
   */
  Duration when(T item);

  /**
   * Forgets the item's failures.
   *
   * @param item the item
   */
  void forget(T item);

  /**
   * Returns how many failures of the item this limiter tracks.
   *
   * @param item the item
   * @return the count
   */
  int numRequeues(T item);
}
