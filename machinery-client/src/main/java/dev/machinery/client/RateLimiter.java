package dev.machinery.client;

/**
 * Limits how fast a client sends requests ({@code flowcontrol.RateLimiter}): every request, retries
 * included, takes a token first. {@link #tokenBucket} is client-go's token bucket; {@link
 * #unlimited()} takes nothing.
 *
 * <p>Implementations must be safe for concurrent use.
 */
public interface RateLimiter {
  /** client-go's default rate: 5 requests a second. */
  float DEFAULT_QPS = 5f;

  /** client-go's default burst: 10 requests at once. */
  int DEFAULT_BURST = 10;

  /**
   * Takes a token, waiting until one is free.
   *
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  void accept() throws InterruptedException;

  /**
   * Takes a token if one is free now.
   *
   * @return whether a token was taken
   */
  boolean tryAccept();

  /**
   * Returns the rate tokens are added at.
   *
   * @return tokens a second; {@link Float#POSITIVE_INFINITY} for no limit
   */
  float qps();

  /**
   * A token bucket that holds {@code burst} tokens, starts full and refills at {@code qps} tokens a
   * second ({@code NewTokenBucketRateLimiter}).
   *
   * @param qps tokens a second, more than zero
   * @param burst the bucket's size, at least one
   * @return the limiter
   * @throws IllegalArgumentException when qps is not positive or burst is less than one
   */
  static RateLimiter tokenBucket(float qps, int burst) {
    return new TokenBucket(qps, burst, System::nanoTime, TokenBucket::sleepNanos);
  }

  /**
   * A limiter that never waits ({@code NewFakeAlwaysRateLimiter}).
   *
   * @return the limiter
   */
  static RateLimiter unlimited() {
    return TokenBucket.UNLIMITED;
  }
}
