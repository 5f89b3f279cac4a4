package dev.machinery.cluster.controller.job;

import dev.machinery.api.core.v1.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The pod failure back-off of a Job (Go's {@code backoffRecord}): how many pods failed since the
 * last success, and when the last of them finished. A replacement pod waits {@code 10s · 2^(n-1)},
 * at most ten minutes, after that failure.
 *
 * <p>Immutable and thread-safe.
 *
 * @param failuresAfterLastSuccess consecutive failures
 * @param lastFailureTime when the last failed pod finished, null when none did
 */
record Backoff(int failuresAfterLastSuccess, Instant lastFailureTime) {
  /** Go's {@code DefaultJobPodFailureBackOff}. */
  static final Duration DEFAULT = Duration.ofSeconds(10);

  /** Go's {@code MaxJobPodFailureBackOff}. */
  static final Duration MAX = Duration.ofMinutes(10);

  static final Backoff NONE = new Backoff(0, null);

  /**
   * The record after pods newly finished (Go's {@code newBackoffRecord}): only failures newer than
   * the last new success stay counted.
   */
  Backoff next(List<Pod> newSucceeded, List<Pod> newFailed) {
    List<Instant> succeeded = finishTimes(newSucceeded);
    List<Instant> failed = finishTimes(newFailed);
    if (succeeded.isEmpty()) {
      if (failed.isEmpty()) {
        return this;
      }
      return new Backoff(failuresAfterLastSuccess + failed.size(), failed.get(failed.size() - 1));
    }
    Instant lastSuccess = succeeded.get(succeeded.size() - 1);
    int failures = 0;
    Instant lastFailure = null;
    for (int i = failed.size() - 1; i >= 0; i--) {
      Instant failure = failed.get(i);
      if (!failure.isAfter(lastSuccess)) {
        break;
      }
      if (lastFailure == null) {
        lastFailure = failure;
      }
      failures++;
    }
    return new Backoff(failures, lastFailure);
  }

  /** How long a replacement pod still waits at {@code now}. */
  Duration remaining(Instant now) {
    return remaining(now, DEFAULT, MAX, failuresAfterLastSuccess, lastFailureTime);
  }

  /** Go's {@code getRemainingTimeForFailuresCount}. */
  static Duration remaining(
      Instant now, Duration base, Duration max, int failures, Instant lastFailureTime) {
    if (failures == 0 || lastFailureTime == null) {
      return Duration.ZERO;
    }
    Duration backoff = base;
    for (int i = 1; i < failures; i++) {
      backoff = backoff.multipliedBy(2);
      if (backoff.compareTo(max) >= 0) {
        backoff = max;
        break;
      }
    }
    Duration elapsed = Duration.between(lastFailureTime, now);
    if (backoff.compareTo(elapsed) < 0) {
      return Duration.ZERO;
    }
    return backoff.minus(elapsed);
  }

  private static List<Instant> finishTimes(List<Pod> pods) {
    List<Instant> times = new ArrayList<>();
    for (Pod pod : pods) {
      times.add(JobPods.finishedTime(pod));
    }
    times.sort(Comparator.naturalOrder());
    return times;
  }
}
