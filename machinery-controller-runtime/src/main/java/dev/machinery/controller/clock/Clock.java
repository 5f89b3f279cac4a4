package dev.machinery.controller.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * The time the runtime's queues, rate limiters, leader election and event correlation read and wait
 * on. Production code uses {@link #system()}; tests pass a {@link FakeClock} and step it, so that
 * no test waits for real time.
 *
 * <p>Implementations are thread-safe.
 */
public interface Clock {
  /**
   * Returns the current time.
   *
   * @return now
   */
  Instant now();

  /**
   * Runs a task once this clock has moved {@code delay} past now. The task runs on a thread of the
   * clock's (the system clock's timer thread, or the thread that steps a fake clock); it must be
   * short and must not block.
   *
   * @param delay how long from now; zero or negative runs the task as soon as possible
   * @param task the task
   * @return a handle that calls the task off
   */
  default Cancellable schedule(Duration delay, Runnable task) {
    Objects.requireNonNull(delay, "delay");
    return scheduleAt(now().plus(delay), task);
  }

  /**
   * Runs a task once this clock reaches an instant; at once (possibly on the calling thread) when
   * it already has. The task must be short and must not block.
   *
   * @param when the instant
   * @param task the task
   * @return a handle that calls the task off
   */
  Cancellable scheduleAt(Instant when, Runnable task);

  /**
   * Blocks the calling thread until this clock has moved {@code duration} past now.
   *
   * @param duration how long
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  default void sleep(Duration duration) throws InterruptedException {
    Objects.requireNonNull(duration, "duration");
    if (duration.isZero() || duration.isNegative()) {
      return;
    }
    CountDownLatch latch = new CountDownLatch(1);
    Cancellable wakeUp = schedule(duration, latch::countDown);
    try {
      latch.await();
    } finally {
      wakeUp.cancel();
    }
  }

  /**
   * Returns the time elapsed since an instant.
   *
   * @param since the instant
   * @return now minus {@code since}
   */
  default Duration since(Instant since) {
    return Duration.between(since, now());
  }

  /**
   * Returns the system's clock: wall time, with wake-ups on one shared daemon timer thread.
   *
   * @return the system clock
   */
  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
