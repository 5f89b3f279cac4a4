package dev.machinery.cluster.controller.cronjob;

import java.time.Duration;
import java.time.Instant;

/**
 * The schedule arithmetic of Go's {@code pkg/controller/cronjob/utils.go}: the most recent time a
 * CronJob should have started ({@code mostRecentScheduleTime}) and how long until the next one
 * ({@code nextScheduleTimeDuration}).
 *
 * <p>Stateless; thread-safe.
 */
final class ScheduleTimes {
  /** Go's {@code nextScheduleDelta}: wake-ups land a little after the scheduled time. */
  static final Duration NEXT_SCHEDULE_DELTA = Duration.ofMillis(100);

  private ScheduleTimes() {}

  /** How many start times were missed since the earliest time. */
  enum Missed {
    NONE,
    FEW,
    MANY
  }

  /**
   * The answer of {@link #mostRecent}.
   *
   * @param earliest the time from which start times count
   * @param mostRecent the latest start time not after now, null when none
   * @param missed how many were missed
   */
  record Recent(Instant earliest, Instant mostRecent, Missed missed) {}

  /** Thrown for a schedule whose activations are less than a second apart or never come. */
  static final class InvalidScheduleException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidScheduleException(String message) {
      super(message);
    }
  }

  /**
   * Go's {@code mostRecentScheduleTime}: from the last schedule time (else the creation), or the
   * starting deadline before now when that is later and asked for, the latest activation not after
   * now; more than 100 missed activations are {@link Missed#MANY}.
   */
  static Recent mostRecent(
      Instant created,
      Instant lastScheduled,
      Long startingDeadlineSeconds,
      Instant now,
      CronSchedule schedule,
      boolean includeStartingDeadline)
      throws InvalidScheduleException {
    Instant earliest = lastScheduled != null ? lastScheduled : created;
    if (includeStartingDeadline && startingDeadlineSeconds != null) {
      Instant deadline = now.minusSeconds(startingDeadlineSeconds);
      if (deadline.isAfter(earliest)) {
        earliest = deadline;
      }
    }
    Instant t1 = schedule.next(earliest);
    Instant t2 = t1 == null ? null : schedule.next(t1);
    if (t1 != null && now.isBefore(t1)) {
      return new Recent(earliest, null, Missed.NONE);
    }
    if (t2 != null && now.isBefore(t2)) {
      return new Recent(earliest, t1, Missed.NONE);
    }
    long between =
        t1 == null || t2 == null ? 0 : Math.round(Duration.between(t1, t2).toMillis() / 1000.0);
    if (between < 1) {
      throw new InvalidScheduleException(
          "time difference between two schedules is less than 1 second");
    }
    long elapsed = Duration.between(t1, now).getSeconds();
    long missedCount = elapsed / between + 1;
    // Back two intervals from the estimate, and let the schedule find the real times: the
    // activations of a schedule such as "30 6-16/4 * * 1-5" are not evenly spaced.
    Instant potentialEarliest = t1.plusSeconds((missedCount - 2) * between);
    Instant mostRecent = null;
    for (Instant t = schedule.next(potentialEarliest);
        t != null && !t.isAfter(now);
        t = schedule.next(t)) {
      mostRecent = t;
    }
    Missed missed = missedCount > 100 ? Missed.MANY : Missed.FEW;
    return new Recent(earliest, mostRecent, missed);
  }

  /**
   * Go's {@code nextScheduleTimeDuration}: how long from now until the activation after the most
   * recent one (or after the earliest time when none was missed, after now when some were), plus
   * {@link #NEXT_SCHEDULE_DELTA}.
   */
  static Duration nextDuration(
      Instant created,
      Instant lastScheduled,
      Long startingDeadlineSeconds,
      Instant now,
      CronSchedule schedule) {
    Instant from;
    try {
      Recent recent =
          mostRecent(created, lastScheduled, startingDeadlineSeconds, now, schedule, false);
      if (recent.mostRecent() != null) {
        from = recent.mostRecent();
      } else if (recent.missed() == Missed.NONE) {
        from = recent.earliest();
      } else {
        from = now;
      }
    } catch (InvalidScheduleException e) {
      from = now;
    }
    Instant next = schedule.next(from);
    if (next == null) {
      return null;
    }
    return Duration.between(now, next.plus(NEXT_SCHEDULE_DELTA));
  }
}
