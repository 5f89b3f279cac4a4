package dev.machinery.controller.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A clock that moves only when told ({@code testingclock.FakeClock}): {@link #step(Duration)} and
 * {@link #setTime(Instant)} advance it and run, on the calling thread, every wake-up that fell due.
 * {@link #waiters()} tells a test how many wake-ups are pending, so it can wait until a worker is
 * blocked before stepping.
 *
 * <p>Thread-safe.
 */
public final class FakeClock implements Clock {
  private final Object lock = new Object();
  private final List<Waiter> waiters = new ArrayList<>();
  private Instant now;
  private long sequence;

  /**
   * Creates a clock standing at an instant.
   *
   * @param start the instant
   */
  public FakeClock(Instant start) {
    this.now = Objects.requireNonNull(start, "start");
  }

  @Override
  public Instant now() {
    synchronized (lock) {
      return now;
    }
  }

  @Override
  public Cancellable scheduleAt(Instant when, Runnable task) {
    Objects.requireNonNull(when, "when");
    Objects.requireNonNull(task, "task");
    Waiter waiter;
    synchronized (lock) {
      waiter = new Waiter(when, task, sequence++);
      if (waiter.due.isAfter(now)) {
        waiters.add(waiter);
        lock.notifyAll();
        return () -> {
          synchronized (lock) {
            return waiters.remove(waiter);
          }
        };
      }
    }
    task.run();
    return () -> false;
  }

  /**
   * Moves the clock forward and runs the wake-ups that fell due, earliest first.
   *
   * @param duration how far; not negative
   */
  public void step(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("a fake clock steps forward, not by " + duration);
    }
    Instant target;
    synchronized (lock) {
      target = now.plus(duration);
    }
    setTime(target);
  }

  /**
   * Sets the time and runs the wake-ups that fell due, earliest first.
   *
   * @param time the new time
   */
  public void setTime(Instant time) {
    Objects.requireNonNull(time, "time");
    List<Waiter> due = new ArrayList<>();
    synchronized (lock) {
      now = time;
      for (Waiter waiter : waiters) {
        if (!waiter.due.isAfter(time)) {
          due.add(waiter);
        }
      }
      waiters.removeAll(due);
    }
    due.sort(Comparator.comparing(Waiter::due).thenComparingLong(Waiter::order));
    for (Waiter waiter : due) {
      waiter.task.run();
    }
  }

  /**
   * Returns how many wake-ups are pending.
   *
   * @return the count
   */
  public int waiters() {
    synchronized (lock) {
      return waiters.size();
    }
  }

  /**
   * Blocks until at least {@code count} wake-ups are pending: a test's way to know that the threads
   * it drives are waiting on this clock.
   *
   * @param count the count
   * @throws InterruptedException when interrupted
   */
  public void awaitWaiters(int count) throws InterruptedException {
    synchronized (lock) {
      while (waiters.size() < count) {
        lock.wait();
      }
    }
  }

  private record Waiter(Instant due, Runnable task, long order) {}
}
