package dev.machinery.controller.workqueue;

import java.time.Duration;

/**
 * A queue that can add an item later ({@code workqueue.DelayingInterface}). An item waiting for its
 * delay is held once; adding it again with a shorter delay brings it forward.
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the item type
 */
public interface DelayingQueue<T> extends Queue<T> {
  /**
   * Adds an item once {@code delay} has passed on the queue's clock.
   *
   * @param item the item
   * @param delay the delay; zero or negative adds at once
   */
  void addAfter(T item, Duration delay);
}
