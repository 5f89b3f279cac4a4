package dev.machinery.cluster.controller.util;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes' controller_utils_test.go {@code TestControllerExpectations} and the UID-tracking
 * variant.
 */
class ControllerExpectationsTest {
  @Test
  void creationsAreSatisfiedWhenObservedOrExpired() {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    ControllerExpectations e = new ControllerExpectations(clock);
    assertTrue(e.satisfied("ns/rc"), "no record: satisfied");
    e.expectCreations("ns/rc", 3);
    for (int i = 0; i < 3; i++) {
      assertFalse(e.satisfied("ns/rc"));
      e.creationObserved("ns/rc");
    }
    assertTrue(e.satisfied("ns/rc"));
    e.expectCreations("ns/rc", 2);
    assertFalse(e.satisfied("ns/rc"));
    clock.step(ControllerExpectations.TIMEOUT.plus(Duration.ofSeconds(1)));
    assertTrue(e.satisfied("ns/rc"), "expired");
    e.expectCreations("ns/rc", 1);
    e.delete("ns/rc");
    assertTrue(e.satisfied("ns/rc"), "deleted");
  }

  @Test
  void deletionsAreTrackedByPodKeySoThatARepeatCountsOnce() {
    ControllerExpectations e = new ControllerExpectations(new FakeClock(Instant.EPOCH));
    e.expectDeletions("ns/rs", Set.of("ns/a", "ns/b"));
    e.deletionObserved("ns/rs", "ns/a");
    e.deletionObserved("ns/rs", "ns/a");
    e.deletionObserved("ns/rs", "ns/unexpected");
    assertFalse(e.satisfied("ns/rs"));
    e.deletionObserved("ns/rs", "ns/b");
    assertTrue(e.satisfied("ns/rs"));
  }
}
