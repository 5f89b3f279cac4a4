package dev.machinery.controller;

import java.time.Duration;
import java.util.Objects;

/**
 * What a reconcile asks for next ({@code reconcile.Result}).
 *
 * <p>Immutable; thread-safe.
 *
 * @param requeue requeue through the rate limiter
 * @param requeueAfter requeue after this delay (and forget the rate limiter's failures); zero for
 *     none; wins over {@code requeue}
 */
public record Result(boolean requeue, Duration requeueAfter) {
  private static final Result DONE = new Result(false, Duration.ZERO);

  /**
   * Checks the parts.
   *
   * @param requeue whether to requeue
   * @param requeueAfter the delay
   * @throws IllegalArgumentException when the delay is negative
   */
  public Result {
    Objects.requireNonNull(requeueAfter, "requeueAfter");
    if (requeueAfter.isNegative()) {
      throw new IllegalArgumentException("requeueAfter must not be negative: " + requeueAfter);
    }
  }

  /**
   * Returns the result of a reconcile that is done.
   *
   * @return the result
   */
  public static Result done() {
    return DONE;
  }

  /**
   * Returns a result that requeues through the rate limiter.
   *
   * @return the result
   */
  public static Result requeueRateLimited() {
    return new Result(true, Duration.ZERO);
  }

  /**
   * Returns a result that requeues after a delay.
   *
   * @param delay the delay
   * @return the result
   */
  public static Result requeueAfter(Duration delay) {
    return new Result(false, delay);
  }
}
