package dev.machinery.controller;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.BooleanSupplier;

/** Waits for a condition other threads bring about; fails after a generous real-time bound. */
final class Poll {
  private Poll() {}

  static void until(String what, BooleanSupplier condition) throws InterruptedException {
    for (int i = 0; i < 10_000; i++) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(1);
    }
    fail("never happened: " + what);
  }
}
