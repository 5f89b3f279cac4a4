package dev.machinery.cluster.tests.services;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits for a condition with a deadline, failing with what was last seen. */
final class Poll {
  private Poll() {}

  static <T> T until(String what, Supplier<T> read, Predicate<? super T> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    T seen = null;
    RuntimeException failure = null;
    while (System.nanoTime() < deadline) {
      try {
        seen = read.get();
        failure = null;
        if (done.test(seen)) {
          return seen;
        }
      } catch (RuntimeException e) {
        failure = e;
      }
      Thread.sleep(20);
    }
    fail(
        "never happened: "
            + what
            + "; last seen: "
            + Objects.toString(seen)
            + (failure == null ? "" : "; last failure: " + failure));
    return seen;
  }
}
