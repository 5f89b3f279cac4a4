package dev.machinery.controller.workqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.controller.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** client-go's default_rate_limiters_test, carried over. */
class RateLimitersTest {
  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  @Test
  void itemExponentialFailure() {
    RateLimiter<String> limiter = RateLimiters.itemExponentialFailure(ms(1), Duration.ofSeconds(1));
    assertEquals(ms(1), limiter.when("one"));
    assertEquals(ms(2), limiter.when("one"));
    assertEquals(ms(4), limiter.when("one"));
    assertEquals(ms(8), limiter.when("one"));
    assertEquals(ms(16), limiter.when("one"));
    assertEquals(5, limiter.numRequeues("one"));
    assertEquals(ms(1), limiter.when("two"));
    assertEquals(ms(2), limiter.when("two"));
    assertEquals(2, limiter.numRequeues("two"));
    limiter.forget("one");
    assertEquals(0, limiter.numRequeues("one"));
    assertEquals(ms(1), limiter.when("one"));
  }

  @Test
  void itemExponentialFailureOverflow() {
    RateLimiter<String> limiter =
        RateLimiters.itemExponentialFailure(ms(1), Duration.ofSeconds(1000));
    for (int i = 0; i < 5; i++) {
      limiter.when("one");
    }
    assertEquals(ms(32), limiter.when("one"));
    for (int i = 0; i < 1000; i++) {
      limiter.when("overflow1");
    }
    assertEquals(Duration.ofSeconds(1000), limiter.when("overflow1"));

    limiter = RateLimiters.itemExponentialFailure(Duration.ofMinutes(1), Duration.ofHours(1000));
    for (int i = 0; i < 2; i++) {
      limiter.when("two");
    }
    assertEquals(Duration.ofMinutes(4), limiter.when("two"));
    for (int i = 0; i < 1000; i++) {
      limiter.when("overflow2");
    }
    assertEquals(Duration.ofHours(1000), limiter.when("overflow2"));
  }

  @Test
  void itemFastSlow() {
    RateLimiter<String> limiter = RateLimiters.itemFastSlow(ms(5), Duration.ofSeconds(10), 3);
    assertEquals(ms(5), limiter.when("one"));
    assertEquals(ms(5), limiter.when("one"));
    assertEquals(ms(5), limiter.when("one"));
    assertEquals(Duration.ofSeconds(10), limiter.when("one"));
    assertEquals(Duration.ofSeconds(10), limiter.when("one"));
    assertEquals(5, limiter.numRequeues("one"));
    assertEquals(ms(5), limiter.when("two"));
    assertEquals(ms(5), limiter.when("two"));
    assertEquals(2, limiter.numRequeues("two"));
    limiter.forget("one");
    assertEquals(0, limiter.numRequeues("one"));
    assertEquals(ms(5), limiter.when("one"));
  }

  @Test
  void maxOf() {
    RateLimiter<String> limiter =
        RateLimiters.maxOf(
            RateLimiters.itemFastSlow(ms(5), Duration.ofSeconds(3), 3),
            RateLimiters.itemExponentialFailure(ms(1), Duration.ofSeconds(1)));
    assertEquals(ms(5), limiter.when("one"));
    assertEquals(ms(5), limiter.when("one"));
    assertEquals(ms(5), limiter.when("one"));
    assertEquals(Duration.ofSeconds(3), limiter.when("one"));
    assertEquals(Duration.ofSeconds(3), limiter.when("one"));
    assertEquals(5, limiter.numRequeues("one"));
    assertEquals(ms(5), limiter.when("two"));
    assertEquals(ms(5), limiter.when("two"));
    assertEquals(2, limiter.numRequeues("two"));
    limiter.forget("one");
    assertEquals(0, limiter.numRequeues("one"));
    assertEquals(ms(5), limiter.when("one"));
  }

  @Test
  void bucketAllowsItsBurstThenSpacesAttemptsByItsRate() {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    RateLimiter<Integer> limiter = RateLimiters.bucket(10, 100, clock);
    for (int i = 0; i < 100; i++) {
      assertEquals(Duration.ZERO, limiter.when(i), "attempt " + i);
    }
    assertEquals(ms(100), limiter.when(100));
    assertEquals(ms(200), limiter.when(101));
    clock.step(Duration.ofSeconds(1));
    // the debt of two tokens is paid after 200ms; eight tokens refilled since
    for (int i = 0; i < 8; i++) {
      assertEquals(Duration.ZERO, limiter.when(200 + i));
    }
    assertEquals(ms(100), limiter.when(300));
    assertEquals(0, limiter.numRequeues(300));
  }

  @Test
  void defaultControllerRateLimiterIsExponentialFromFiveMillisecondsUnderTheBucket() {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    RateLimiter<String> limiter = RateLimiters.defaultControllerRateLimiter(clock);
    assertEquals(ms(5), limiter.when("a"));
    assertEquals(ms(10), limiter.when("a"));
    assertEquals(ms(20), limiter.when("a"));
    assertEquals(3, limiter.numRequeues("a"));
    for (int i = 0; i < 30; i++) {
      limiter.when("b");
    }
    assertEquals(Duration.ofSeconds(1000), limiter.when("b"));
    limiter.forget("a");
    assertEquals(ms(5), limiter.when("a"));
  }

  @Test
  void bucketRefusesNonsense() {
    FakeClock clock = new FakeClock(Instant.EPOCH);
    assertThrows(IllegalArgumentException.class, () -> RateLimiters.bucket(0, 1, clock));
    assertThrows(IllegalArgumentException.class, () -> RateLimiters.bucket(1, 0, clock));
  }
}
