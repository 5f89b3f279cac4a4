package dev.machinery.client;

import java.util.function.LongSupplier;

/**
 * client-go's token bucket (over golang.org/x/time/rate): tokens accrue at {@code qps} a second up
 * to {@code burst}; a request takes one, and when none is left it reserves the next and waits for
 * it, so waiting callers are served in order at the rate. Thread-safe: the bucket is guarded by its
 * monitor; waiting happens outside it.
 */
final class TokenBucket implements RateLimiter {
  /** Waits a number of nanoseconds. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(long nanos) throws InterruptedException;
  }

  static final RateLimiter UNLIMITED =
      new RateLimiter() {
        @Override
        public void accept() {}

        @Override
        public boolean tryAccept() {
          return true;
        }

        @Override
        public float qps() {
          return Float.POSITIVE_INFINITY;
        }

        @Override
        public String toString() {
          return "RateLimiter.unlimited()";
        }
      };

  private final float qps;
  private final int burst;
  private final LongSupplier clock;
  private final Sleeper sleeper;
  private double tokens;
  private long last;

  TokenBucket(float qps, int burst, LongSupplier clock, Sleeper sleeper) {
    if (!(qps > 0) || Float.isInfinite(qps)) {
      throw new IllegalArgumentException("qps must be a finite number above 0, got " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, got " + burst);
    }
    this.qps = qps;
    this.burst = burst;
    this.clock = clock;
    this.sleeper = sleeper;
    this.tokens = burst;
    this.last = clock.getAsLong();
  }

  static void sleepNanos(long nanos) throws InterruptedException {
    Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
  }

  private void advance(long now) {
    long elapsed = now - last;
    if (elapsed > 0) {
      tokens = Math.min(burst, tokens + elapsed * (double) qps / 1e9);
      last = now;
    }
  }

  /** Takes a token, possibly going into debt; returns how long the caller must wait. */
  private synchronized long reserve() {
    advance(clock.getAsLong());
    tokens -= 1;
    return tokens >= 0 ? 0 : (long) Math.ceil(-tokens * 1e9 / qps);
  }

  private synchronized void cancel() {
    tokens = Math.min(burst, tokens + 1);
  }

  @Override
  public void accept() throws InterruptedException {
    long wait = reserve();
    if (wait > 0) {
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        cancel();
        throw e;
      }
    }
  }

  @Override
  public synchronized boolean tryAccept() {
    advance(clock.getAsLong());
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }

  @Override
  public float qps() {
    return qps;
  }

  @Override
  public String toString() {
    return "RateLimiter.tokenBucket(" + qps + ", " + burst + ")";
  }
}
