package dev.machinery.cluster.tests.workloads;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.Supplier;

/** Polls a condition with a deadline, failing with what was last seen. */
final class Await {
  private Await() {}

  static <T> T until(String what, Supplier<T> probe, java.util.function.Predicate<T> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    T last = null;
    RuntimeException lastFailure = null;
    while (System.nanoTime() < deadline) {
      try {
        last = probe.get();
        lastFailure = null;
        if (done.test(last)) {
          return last;
        }
      } catch (RuntimeException e) {
        lastFailure = e;
      }
      Thread.sleep(50);
    }
    fail("never happened: " + what + "; last seen: " + last, lastFailure);
    return last;
  }
}
