package dev.machinery.controller.workqueue;

import dev.machinery.controller.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * client-go's rate limiters ({@code workqueue/default_rate_limiters.go}).
 *
 * <p>Every limiter built here is thread-safe. This class has no instances.
 */
public final class RateLimiters {
  private RateLimiters() {}

  /**
   * Returns the limiter controllers use by default: the larger of a per-item exponential back-off
   * from 5ms to 1000s and an overall token bucket of 10 per second with a burst of 100.
   *
   * @param clock the clock the bucket refills on
   * @param <T> the item type
   * @return the limiter
   */
  public static <T> RateLimiter<T> defaultControllerRateLimiter(Clock clock) {
    return maxOf(
        itemExponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1000)),
        bucket(10, 100, clock));
  }

  /**
   * Returns the default per-item limiter: exponential from 1ms to 1000s.
   *
   * @param <T> the item type
   * @return the limiter
   */
  public static <T> RateLimiter<T> defaultItemBasedRateLimiter() {
    return itemExponentialFailure(Duration.ofMillis(1), Duration.ofSeconds(1000));
  }

  /**
   * Returns a limiter that waits {@code base * 2^failures} for an item, at most {@code max}.
   *
   * @param base the first delay
   * @param max the longest delay
   * @param <T> the item type
   * @return the limiter
   */
  public static <T> RateLimiter<T> itemExponentialFailure(Duration base, Duration max) {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(max, "max");
    return new PerItem<>() {
      @Override
      Duration delay(int previousFailures) {
        double backoff = base.toNanos() * Math.pow(2, previousFailures);
        if (backoff > Long.MAX_VALUE) {
          return max;
        }
        Duration calculated = Duration.ofNanos((long) backoff);
        return calculated.compareTo(max) > 0 ? max : calculated;
      }
    };
  }

  /**
   * Returns a limiter that waits {@code fast} for an item's first {@code maxFastAttempts} attempts,
   * then {@code slow}.
   *
   * @param fast the fast delay
   * @param slow the slow delay
   * @param maxFastAttempts how many attempts are fast
   * @param <T> the item type
   * @return the limiter
   */
  public static <T> RateLimiter<T> itemFastSlow(Duration fast, Duration slow, int maxFastAttempts) {
    Objects.requireNonNull(fast, "fast");
    Objects.requireNonNull(slow, "slow");
    return new PerItem<>() {
      @Override
      Duration delay(int previousFailures) {
        return previousFailures + 1 <= maxFastAttempts ? fast : slow;
      }
    };
  }

  /**
   * Returns a limiter that waits as long as the longest of its limiters; every limiter records the
   * attempt, and the requeue count is the largest of theirs.
   *
   * @param first a limiter
   * @param second another
   * @param <T> the item type
   * @return the limiter
   */
  public static <T> RateLimiter<T> maxOf(RateLimiter<T> first, RateLimiter<T> second) {
    return maxOf(List.of(first, second));
  }

  /**
   * Returns a limiter that waits as long as the longest of its limiters; every limiter records the
   * attempt, and the requeue count is the largest of theirs.
   *
   * @param limiters the limiters
   * @param <T> the item type
   * @return the limiter
   */
  public static <T> RateLimiter<T> maxOf(List<? extends RateLimiter<T>> limiters) {
    List<RateLimiter<T>> all = List.copyOf(limiters);
    return new RateLimiter<>() {
      @Override
      public Duration when(T item) {
        Duration longest = Duration.ZERO;
        for (RateLimiter<T> limiter : all) {
          Duration delay = limiter.when(item);
          if (delay.compareTo(longest) > 0) {
            longest = delay;
          }
        }
        return longest;
      }

      @Override
      public void forget(T item) {
        all.forEach(limiter -> limiter.forget(item));
      }

      @Override
      public int numRequeues(T item) {
        int most = 0;
        for (RateLimiter<T> limiter : all) {
          most = Math.max(most, limiter.numRequeues(item));
        }
        return most;
      }
    };
  }

  /**
   * Returns a limiter over all items together: a token bucket ({@code golang.org/x/time/rate}) that
   * holds {@code burst} tokens, starts full and refills {@code qps} per second; each attempt takes
   * a token, waiting for one when none is left.
   *
   * @param qps the refill rate, tokens per second; positive
   * @param burst the bucket's size; positive
   * @param clock the clock the bucket refills on
   * @param <T> the item type
   * @return the limiter
   */
  public static <T> RateLimiter<T> bucket(double qps, int burst, Clock clock) {
    TokenBucket bucket = new TokenBucket(qps, burst, clock);
    return new RateLimiter<>() {
      @Override
      public Duration when(T item) {
        return bucket.reserve();
      }

      @Override
      public void forget(T item) {}

      @Override
      public int numRequeues(T item) {
        return 0;
      }
    };
  }

  private abstract static class PerItem<T> implements RateLimiter<T> {
    private final Map<T, Integer> failures = new HashMap<>();

    abstract Duration delay(int previousFailures);

    @Override
    public synchronized Duration when(T item) {
      int previous = failures.getOrDefault(item, 0);
      failures.put(item, previous + 1);
      return delay(previous);
    }

    @Override
    public synchronized void forget(T item) {
      failures.remove(item);
    }

    @Override
    public synchronized int numRequeues(T item) {
      return failures.getOrDefault(item, 0);
    }
  }

  /**
   * A token bucket with reservations, as {@code rate.Limiter.Reserve}: tokens may go negative, and
   * the delay is the time the debt takes to refill.
   *
   * <p>Thread-safe.
   */
  public static final class TokenBucket {
    private final double qps;
    private final int burst;
    private final Clock clock;
    private double tokens;
    private Instant last;

    /**
     * Creates a full bucket; its clock is first read when a token is first taken.
     *
     * @param qps the refill rate per second; positive
     * @param burst the size; positive
     * @param clock the clock
     */
    public TokenBucket(double qps, int burst, Clock clock) {
      if (!(qps > 0)) {
        throw new IllegalArgumentException("qps must be positive, not " + qps);
      }
      if (burst <= 0) {
        throw new IllegalArgumentException("burst must be positive, not " + burst);
      }
      this.qps = qps;
      this.burst = burst;
      this.clock = Objects.requireNonNull(clock, "clock");
      this.tokens = burst;
    }

    /**
     * Takes a token and returns how long the caller must wait for it.
     *
     * @return the wait, zero when a token was there
     */
    public synchronized Duration reserve() {
      refill();
      tokens -= 1;
      if (tokens >= 0) {
        return Duration.ZERO;
      }
      return Duration.ofNanos((long) Math.ceil(-tokens / qps * 1e9));
    }

    /**
     * Takes a token when one is there now.
     *
     * @return true when a token was taken
     */
    public synchronized boolean tryAccept() {
      refill();
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    }

    private void refill() {
      Instant now = clock.now();
      if (last == null) {
        last = now;
      } else if (now.isAfter(last)) {
        double elapsed = Duration.between(last, now).toNanos() / 1e9;
        tokens = Math.min(burst, tokens + elapsed * qps);
        last = now;
      }
    }
  }
}
