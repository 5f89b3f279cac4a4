package dev.machinery.controller.events;

import dev.machinery.controller.clock.Cancellable;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;

/** A clock that moves by a fixed interval every time it is read (testing's SimpleIntervalClock). */
final class IntervalClock implements Clock {
  private final FakeClock clock;
  private final Duration interval;

  IntervalClock(Instant start, Duration interval) {
    this.clock = new FakeClock(start);
    this.interval = interval;
  }

  @Override
  public synchronized Instant now() {
    clock.step(interval);
    return clock.now();
  }

  @Override
  public Cancellable scheduleAt(Instant when, Runnable task) {
    return clock.scheduleAt(when, task);
  }
}
