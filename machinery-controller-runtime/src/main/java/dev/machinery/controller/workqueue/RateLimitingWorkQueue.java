package dev.machinery.controller.workqueue;

import dev.machinery.controller.clock.Clock;
import java.util.Objects;

/**
 * client-go's rate-limited queue ({@code workqueue.rateLimitingType}): {@link #addRateLimited} asks
 * the {@link RateLimiter} for the item's delay and adds it after that delay.
 *
 * <p>Thread-safe.
 *
 * @param <T> the item type
 */
public class RateLimitingWorkQueue<T> extends DelayingWorkQueue<T> implements RateLimitingQueue<T> {
  private final RateLimiter<T> rateLimiter;

  /**
   * Creates a rate-limited queue.
   *
   * @param rateLimiter the limiter, for instance {@link RateLimiters#defaultControllerRateLimiter}
   * @param clock the clock delays are measured on
   * @param name a name for the waiting thread
   */
  public RateLimitingWorkQueue(RateLimiter<T> rateLimiter, Clock clock, String name) {
    super(clock, name);
    this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
  }

  @Override
  public void addRateLimited(T item) {
    addAfter(item, rateLimiter.when(item));
  }

  @Override
  public void forget(T item) {
    rateLimiter.forget(item);
  }

  @Override
  public int numRequeues(T item) {
    return rateLimiter.numRequeues(item);
  }
}
