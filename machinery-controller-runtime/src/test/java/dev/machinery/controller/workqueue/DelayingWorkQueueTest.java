package dev.machinery.controller.workqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** client-go's delaying_queue_test, carried over on a fake clock. */
class DelayingWorkQueueTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final DelayingWorkQueue<String> q = new DelayingWorkQueue<>(clock, "test");

  @AfterEach
  void shutDown() {
    q.shutDown();
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  private void awaitLen(int n) throws InterruptedException {
    Poll.until("queue length " + n, () -> q.len() == n);
  }

  @Test
  void simpleQueue() throws Exception {
    q.addAfter("foo", ms(50));
    assertEquals(1, q.waiting());
    assertEquals(0, q.len());
    clock.step(ms(60));
    awaitLen(1);
    assertEquals("foo", q.get().orElseThrow());
    q.done("foo");
    clock.step(Duration.ofSeconds(10));
    assertEquals(0, q.len());
    assertEquals(0, q.waiting());
  }

  @Test
  void deduping() throws Exception {
    q.addAfter("foo", ms(50));
    q.addAfter("foo", ms(70));
    assertEquals(1, q.waiting());
    assertEquals(0, q.len());
    // the earlier time stands
    clock.step(ms(60));
    awaitLen(1);
    assertEquals("foo", q.get().orElseThrow());
    q.done("foo");
    clock.step(ms(20));
    assertEquals(0, q.len());
    assertEquals(0, q.waiting());

    // a later, shorter delay brings the item forward
    q.addAfter("foo", ms(50));
    q.addAfter("foo", ms(30));
    assertEquals(1, q.waiting());
    clock.step(ms(40));
    awaitLen(1);
    assertEquals("foo", q.get().orElseThrow());
    q.done("foo");
    clock.step(ms(20));
    assertEquals(0, q.len());
  }

  @Test
  void addTwoFireEarly() throws Exception {
    q.addAfter("foo", Duration.ofSeconds(1));
    q.addAfter("bar", ms(50));
    assertEquals(2, q.waiting());
    clock.step(ms(60));
    awaitLen(1);
    assertEquals("bar", q.get().orElseThrow());
    q.addAfter("baz", Duration.ofSeconds(2));
    clock.step(Duration.ofSeconds(1));
    awaitLen(1);
    assertEquals("foo", q.get().orElseThrow());
    clock.step(Duration.ofSeconds(2));
    awaitLen(1);
    assertEquals("baz", q.get().orElseThrow());
  }

  @Test
  void copyShifting() throws Exception {
    q.addAfter("foo", Duration.ofSeconds(1));
    q.addAfter("bar", ms(500));
    q.addAfter("baz", ms(250));
    assertEquals(3, q.waiting());
    clock.step(Duration.ofSeconds(2));
    awaitLen(3);
    assertEquals("baz", q.get().orElseThrow());
    assertEquals("bar", q.get().orElseThrow());
    assertEquals("foo", q.get().orElseThrow());
  }

  @Test
  void zeroDelayAddsAtOnceAndShutdownDropsWaiters() throws Exception {
    q.addAfter("now", Duration.ZERO);
    assertEquals(1, q.len());
    q.addAfter("later", ms(10));
    q.shutDown();
    q.addAfter("after-shutdown", ms(1));
    clock.step(Duration.ofSeconds(1));
    assertEquals("now", q.get().orElseThrow());
    assertTrue(q.get().isEmpty());
  }

  @Test
  void rateLimitedAddsWaitForTheLimiter() throws Exception {
    RateLimitingWorkQueue<String> rq =
        new RateLimitingWorkQueue<>(
            RateLimiters.itemExponentialFailure(ms(1), Duration.ofSeconds(1)), clock, "rl");
    try {
      rq.addRateLimited("one");
      rq.addRateLimited("one");
      assertEquals(0, rq.len());
      assertEquals(2, rq.numRequeues("one"));
      clock.step(ms(1));
      Poll.until("one ready", () -> rq.len() == 1);
      rq.forget("one");
      assertEquals(0, rq.numRequeues("one"));
    } finally {
      rq.shutDown();
    }
  }
}
