package dev.machinery.cluster.tests.nodes;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.Supplier;

/** Waits for a condition with a deadline, failing with what was last seen. */
final class Poll {
  private Poll() {}

  static <T> T until(String what, Supplier<T> read, java.util.function.Predicate<T> done) {
    return until(what, Duration.ofSeconds(30), read, done);
  }

  static <T> T until(
      String what, Duration timeout, Supplier<T> read, java.util.function.Predicate<T> done) {
    long deadline = System.nanoTime() + timeout.toNanos();
    T last = null;
    RuntimeException failure = null;
    while (System.nanoTime() < deadline) {
      try {
        last = read.get();
        failure = null;
        if (last != null && done.test(last)) {
          return last;
        }
      } catch (RuntimeException e) {
        failure = e;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted while waiting for " + what);
      }
    }
    fail(
        "never happened: "
            + what
            + "; last seen: "
            + abbreviate(String.valueOf(last))
            + (failure == null ? "" : "; last failure: " + failure));
    return null;
  }

  private static String abbreviate(String text) {
    return text.length() <= 2000 ? text : text.substring(0, 2000) + "...";
  }
}
