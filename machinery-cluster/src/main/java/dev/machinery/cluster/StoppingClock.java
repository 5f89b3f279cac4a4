package dev.machinery.cluster;

import dev.machinery.controller.clock.Cancellable;
import dev.machinery.controller.clock.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cluster's clock as the controllers see it: the chosen clock, with every wake-up they schedule
 * remembered until it runs, so that closing the manager cancels those still waiting. A wake-up left
 * on the system clock's timer would otherwise keep its controller, and through its client the
 * server, alive until it came due.
 *
 * <p>Thread-safe.
 */
final class StoppingClock implements Clock {
  private final Clock clock;
  private final Set<Cancellable> waiting = ConcurrentHashMap.newKeySet();
  private volatile boolean stopped;

  StoppingClock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Instant now() {
    return clock.now();
  }

  @Override
  public Cancellable scheduleAt(Instant when, Runnable task) {
    Objects.requireNonNull(task, "task");
    if (stopped) {
      return () -> false;
    }
    Cancellable[] self = new Cancellable[1];
    Cancellable scheduled =
        clock.scheduleAt(
            when,
            () -> {
              if (self[0] != null) {
                waiting.remove(self[0]);
              }
              if (!stopped) {
                task.run();
              }
            });
    Cancellable handle =
        () -> {
          waiting.remove(self[0]);
          return scheduled.cancel();
        };
    self[0] = handle;
    waiting.add(handle);
    if (stopped) {
      handle.cancel();
    }
    return handle;
  }

  /** Cancels every wake-up still waiting; later ones are not scheduled. */
  void stop() {
    stopped = true;
    for (Cancellable cancellable : Set.copyOf(waiting)) {
      cancellable.cancel();
    }
    waiting.clear();
  }
}
