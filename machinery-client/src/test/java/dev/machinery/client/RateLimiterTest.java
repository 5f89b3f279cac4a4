package dev.machinery.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The token bucket as client-go's util/flowcontrol tests describe it, on a clock the test moves: it
 * starts full, a burst is taken at once, tokens come back at the rate, and a caller that finds none
 * waits its turn.
 */
class RateLimiterTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final List<Long> sleeps = new ArrayList<>();

  private TokenBucket bucket(float qps, int burst) {
    return new TokenBucket(
        qps,
        burst,
        now::get,
        nanos -> {
          sleeps.add(nanos);
          now.addAndGet(nanos);
        });
  }

  @Test
  void aBurstIsTakenAtOnceAndThenRefused() {
    // throttle_test.go TestBasicThrottle: qps 1, burst 3
    TokenBucket limiter = bucket(1, 3);
    for (int i = 0; i < 3; i++) {
      assertTrue(limiter.tryAccept(), "token " + i);
    }
    assertFalse(limiter.tryAccept());
  }

  @Test
  void aTokenComesBackAfterOneOverQps() {
    // TestIncrementThrottle: qps 1, burst 1
    TokenBucket limiter = bucket(1, 1);
    assertTrue(limiter.tryAccept());
    assertFalse(limiter.tryAccept());
    now.addAndGet(999_000_000L);
    assertFalse(limiter.tryAccept(), "not before a whole second");
    now.addAndGet(1_000_000L);
    assertTrue(limiter.tryAccept());
  }

  @Test
  void tokensNeverPassTheBurst() {
    TokenBucket limiter = bucket(10, 2);
    now.addAndGet(60_000_000_000L);
    assertTrue(limiter.tryAccept());
    assertTrue(limiter.tryAccept());
    assertFalse(limiter.tryAccept());
  }

  @ParameterizedTest(name = "qps {0}, burst {1}: request {2} waits {3} ns")
  @CsvSource({
    "5,  10, 10, 0",
    "5,  10, 11, 200000000",
    "5,  10, 12, 200000000",
    "10, 1,  2,  100000000",
    "2,  1,  3,  500000000",
  })
  void acceptWaitsForItsToken(float qps, int burst, int requests, long lastWait)
      throws InterruptedException {
    TokenBucket limiter = bucket(qps, burst);
    for (int i = 0; i < requests; i++) {
      int before = sleeps.size();
      limiter.accept();
      if (i == requests - 1) {
        assertEquals(lastWait, sleeps.size() == before ? 0 : sleeps.get(before));
      }
    }
  }

  @Test
  void theDefaultsAreClientGos() {
    assertEquals(5f, RateLimiter.DEFAULT_QPS);
    assertEquals(10, RateLimiter.DEFAULT_BURST);
    assertEquals(5f, RateLimiter.tokenBucket(5, 10).qps());
    assertTrue(RateLimiter.unlimited().tryAccept());
  }

  @Test
  void outOfRangeSettingsAreRefused() {
    assertEquals(
        "qps must be a finite number above 0, got 0.0",
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.tokenBucket(0, 1))
            .getMessage());
    assertEquals(
        "burst must be at least 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.tokenBucket(1, 0))
            .getMessage());
  }
}
