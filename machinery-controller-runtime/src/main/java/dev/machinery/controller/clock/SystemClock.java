package dev.machinery.controller.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The system clock: {@link Instant#now()} and one daemon timer thread, which ends after a second
 * with nothing scheduled (and starts again when something is), so that a program whose controllers
 * stopped keeps no thread of theirs. Thread-safe.
 */
final class SystemClock implements Clock {
  static final SystemClock INSTANCE = new SystemClock();

  private final ScheduledThreadPoolExecutor timer;

  private SystemClock() {
    timer =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "machinery-clock");
              thread.setDaemon(true);
              return thread;
            });
    timer.setRemoveOnCancelPolicy(true);
    timer.setKeepAliveTime(1, TimeUnit.SECONDS);
    timer.allowCoreThreadTimeOut(true);
  }

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public Cancellable scheduleAt(Instant when, Runnable task) {
    Objects.requireNonNull(when, "when");
    Objects.requireNonNull(task, "task");
    Duration delay = Duration.between(Instant.now(), when);
    long nanos = delay.isNegative() ? 0 : saturatedNanos(delay);
    ScheduledFuture<?> future = timer.schedule(task, nanos, TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }
}
