package dev.machinery.cluster.tests;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for what the controllers do, with a deadline: reads until a value is there (not null) and
 * satisfies the condition, and fails with the last value or failure seen. A read that throws is
 * tried again (an object not yet there, a request refused for the moment).
 */
public final class Poll {
  /** How long a wait lasts unless a test says otherwise. */
  public static final Duration DEADLINE = Duration.ofSeconds(60);

  private Poll() {}

  /**
   * Reads until the value is there and satisfies the condition.
   *
   * @param what what is waited for, for the failure's message
   * @param read what to read
   * @param done the condition
   * @param <T> the value's type
   * @return the value that satisfied it
   */
  public static <T> T until(String what, Supplier<T> read, Predicate<? super T> done) {
    return until(what, DEADLINE, read, done);
  }

  /**
   * Reads until the value is there and satisfies the condition, within a deadline.
   *
   * @param what what is waited for, for the failure's message
   * @param timeout the deadline
   * @param read what to read
   * @param done the condition
   * @param <T> the value's type
   * @return the value that satisfied it
   */
  public static <T> T until(
      String what, Duration timeout, Supplier<T> read, Predicate<? super T> done) {
    Object[] last = new Object[1];
    return until(what, timeout, read, done, () -> last[0], last);
  }

  /**
   * Reads until the value is gone (the read answers null).
   *
   * @param what what is waited for, for the failure's message
   * @param read what to read
   */
  public static void gone(String what, Supplier<?> read) {
    Object[] last = new Object[1];
    until(
        what,
        DEADLINE,
        () -> {
          Object value = read.get();
          last[0] = value;
          return value == null ? Boolean.TRUE : null;
        },
        done -> true,
        () -> last[0],
        new Object[1]);
  }

  /**
   * Reads until the value is there, failing with what another read shows.
   *
   * @param what what is waited for, for the failure's message
   * @param read what to read: null until it is there
   * @param seen what to show when it never is
   * @param <T> the value's type
   * @return the value
   */
  public static <T> T present(String what, Supplier<T> read, Supplier<?> seen) {
    return until(what, DEADLINE, read, value -> true, seen, new Object[1]);
  }

  /**
   * Waits until a condition holds, failing with what another read shows.
   *
   * @param what what is waited for, for the failure's message
   * @param condition the condition
   * @param seen what to show when it never holds
   */
  public static void holds(String what, Supplier<Boolean> condition, Supplier<?> seen) {
    present(what, () -> condition.get() ? Boolean.TRUE : null, seen);
  }

  private static <T> T until(
      String what,
      Duration timeout,
      Supplier<T> read,
      Predicate<? super T> done,
      Supplier<?> seen,
      Object[] last) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException failure = null;
    while (System.nanoTime() < deadline) {
      try {
        T value = read.get();
        last[0] = value;
        failure = null;
        if (value != null && done.test(value)) {
          return value;
        }
      } catch (RuntimeException e) {
        failure = e;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return fail("interrupted while waiting for " + what, e);
      }
    }
    String shown = String.valueOf(seen.get());
    return fail(
        "never happened: "
            + what
            + "; last seen: "
            + (shown.length() <= 2000 ? shown : shown.substring(0, 2000) + "...")
            + (failure == null ? "" : "; last failure: " + failure),
        failure);
  }
}
