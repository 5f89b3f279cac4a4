package dev.machinery.cluster.controller.cronjob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.cluster.controller.cronjob.ScheduleTimes.Missed;
import dev.machinery.cluster.controller.cronjob.ScheduleTimes.Recent;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Schedule parsing and the schedule arithmetic, with the tables of Kubernetes' {@code
 * pkg/controller/cronjob/utils_test.go} ({@code TestMostRecentScheduleTime}, {@code
 * TestNextScheduleTimeDuration}) and robfig/cron's parser tests; times are relative to {@code
 * topOfTheHour}, 2016-05-19T10:00:00Z, a Thursday.
 */
class ScheduleTimesTest {
  private static final Instant TOP = Instant.parse("2016-05-19T10:00:00Z");

  private static Instant at(Duration delta) {
    return TOP.plus(delta);
  }

  private static Recent recent(
      String schedule, Instant created, Instant last, Long sds, Instant now, boolean includeSds)
      throws Exception {
    return ScheduleTimes.mostRecent(
        created, last, sds, now, CronSchedule.parse(schedule), includeSds);
  }

  @Test
  void mostRecentScheduleTime() throws Exception {
    Instant half = at(Duration.ofMinutes(30));
    assertEquals(
        new Recent(TOP, null, Missed.NONE),
        recent("0 * * * *", TOP, null, null, TOP.plusSeconds(30), false),
        "now before next schedule");
    assertEquals(
        new Recent(TOP, at(Duration.ofMinutes(60)), Missed.NONE),
        recent("0 * * * *", TOP, null, null, at(Duration.ofMinutes(61)), false),
        "now just after next schedule");
    assertEquals(
        new Recent(TOP.plusSeconds(10), at(Duration.ofMinutes(300)), Missed.FEW),
        recent("0 * * * *", TOP.plusSeconds(10), null, null, at(Duration.ofMinutes(301)), false),
        "missed 5 schedules");
    assertEquals(
        new Recent(half, at(Duration.ofHours(24).plusMinutes(30)), Missed.FEW),
        recent(
            "30 6-16/4 * * 1-5", TOP, half, null, at(Duration.ofHours(24).plusMinutes(31)), false),
        "complex schedule");
    assertEquals(
        new Recent(half, null, Missed.FEW),
        recent(
            "30 10,11,12 * * 1-5",
            TOP,
            half,
            null,
            at(Duration.ofHours(30).plusMinutes(30)),
            false),
        "another complex schedule");
    assertEquals(
        new Recent(half, at(Duration.ofHours(96).plusMinutes(30)), Missed.FEW),
        recent(
            "30 6-16/4 * * 1-5", TOP, half, null, at(Duration.ofHours(96).plusMinutes(31)), false),
        "complex schedule with longer diff between executions");
    assertEquals(
        new Recent(TOP, at(Duration.ofHours(24).plusMinutes(30)), Missed.FEW),
        recent(
            "30 6-16/4 * * 1-5", TOP, null, null, at(Duration.ofHours(24).plusMinutes(31)), false),
        "complex schedule with shorter diff between executions");
    assertEquals(
        new Recent(
            at(Duration.ofMinutes(1)),
            at(Duration.ofDays(6).plusHours(23).plusMinutes(1)),
            Missed.MANY),
        recent(
            "@every 1h",
            at(Duration.ofMinutes(-59)),
            at(Duration.ofMinutes(1)),
            10L,
            at(Duration.ofDays(7)),
            false),
        "@every schedule");
    assertThrows(
        ScheduleTimes.InvalidScheduleException.class,
        () ->
            recent("59 23 31 2 *", TOP.plusSeconds(10), null, null, at(Duration.ofHours(1)), false),
        "rogue cronjob");
    assertEquals(
        new Recent(TOP, null, Missed.NONE),
        recent("0 * * * *", TOP, TOP, null, TOP.plusSeconds(30), false),
        "earliestTime being CreationTimestamp and LastScheduleTime");
    assertEquals(
        new Recent(half, null, Missed.NONE),
        recent("*/5 * * * *", TOP, half, null, at(Duration.ofMinutes(31)), false),
        "earliestTime being LastScheduleTime");
    assertEquals(
        new Recent(half, null, Missed.NONE),
        recent("*/5 * * * *", TOP, half, 60L, at(Duration.ofMinutes(31)), false),
        "earliestTime being LastScheduleTime (within StartingDeadlineSeconds)");
    assertEquals(
        new Recent(at(Duration.ofMinutes(31)), null, Missed.NONE),
        recent("*/5 * * * *", TOP, half, 60L, at(Duration.ofMinutes(32)), true),
        "earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)");
  }

  @Test
  void nextScheduleTimeDuration() throws Exception {
    Duration delta = ScheduleTimes.NEXT_SCHEDULE_DELTA;
    assertEquals(
        Duration.ofHours(3).plusMinutes(59).plus(delta),
        ScheduleTimes.nextDuration(
            TOP,
            at(Duration.ofMinutes(30)),
            null,
            at(Duration.ofHours(24).plusMinutes(31)),
            CronSchedule.parse("30 6-16/4 * * 1-5")),
        "complex schedule skipping weekend");
    assertEquals(
        Duration.ofHours(66).plus(delta),
        ScheduleTimes.nextDuration(
            TOP,
            at(Duration.ofMinutes(30)),
            null,
            at(Duration.ofHours(30).plusMinutes(30)),
            CronSchedule.parse("30 10,11,12 * * 1-5")),
        "another complex schedule skipping weekend");
    assertEquals(
        Duration.ofHours(48).plusMinutes(30).plus(delta),
        ScheduleTimes.nextDuration(
            TOP,
            at(Duration.ofHours(2)),
            null,
            at(Duration.ofDays(19).plusHours(1).plusMinutes(30)),
            CronSchedule.parse("0 12 * * 4")),
        "once a week cronjob, missed two runs");
    assertEquals(
        Duration.ofHours(20).plus(delta),
        ScheduleTimes.nextDuration(
            TOP, null, null, at(Duration.ofHours(6)), CronSchedule.parse("0 12 * * 5")),
        "no previous run of a cronjob");
  }

  @ParameterizedTest(name = "{0} after {1}: {2}")
  @CsvSource({
    // robfig/cron's TestActivation and TestNext, as the standard parser reads them.
    "'* * * * *', 2012-07-09T14:45:00Z, 2012-07-09T14:46:00Z",
    "'0 * * * *', 2012-07-09T14:45:00Z, 2012-07-09T15:00:00Z",
    "'0/15 * * * *', 2012-07-09T14:45:00Z, 2012-07-09T15:00:00Z",
    "'15/15 * * * *', 2012-07-09T14:00:00Z, 2012-07-09T14:15:00Z",
    "'*/15 * * * *', 2012-07-09T14:46:00Z, 2012-07-09T15:00:00Z",
    "'20-35/15 * * * *', 2012-07-09T14:21:00Z, 2012-07-09T14:35:00Z",
    "'0 * * Jul *', 2012-07-09T23:35:00Z, 2012-07-10T00:00:00Z",
    "'0 0 * Jul *', 2012-07-31T23:59:00Z, 2013-07-01T00:00:00Z",
    "'0 0 29 Feb *', 2012-03-01T00:00:00Z, 2016-02-29T00:00:00Z",
    "'0 0 1 1 *', 2012-12-31T23:59:00Z, 2013-01-01T00:00:00Z",
    "'0 9 * * MON-FRI', 2012-07-13T09:00:00Z, 2012-07-16T09:00:00Z",
    "'0 0 1,15 * Mon', 2012-07-02T00:00:00Z, 2012-07-09T00:00:00Z",
    "'0 0 1,15 * Mon', 2012-07-09T00:00:00Z, 2012-07-15T00:00:00Z",
    "'0 0 ? * 0', 2012-07-09T00:00:00Z, 2012-07-15T00:00:00Z",
    "'@hourly', 2012-07-09T14:45:00Z, 2012-07-09T15:00:00Z",
    "'@daily', 2012-07-09T14:45:00Z, 2012-07-10T00:00:00Z",
    "'@midnight', 2012-07-09T14:45:00Z, 2012-07-10T00:00:00Z",
    "'@weekly', 2012-07-09T14:45:00Z, 2012-07-15T00:00:00Z",
    "'@monthly', 2012-07-09T14:45:00Z, 2012-08-01T00:00:00Z",
    "'@yearly', 2012-07-09T14:45:00Z, 2013-01-01T00:00:00Z",
    "'@annually', 2012-07-09T14:45:00Z, 2013-01-01T00:00:00Z",
    "'@every 1h30m', 2012-07-09T14:45:00Z, 2012-07-09T16:15:00Z",
    "'@every 5m', 2012-07-09T14:45:30.5Z, 2012-07-09T14:50:30Z",
  })
  void nextActivation(String spec, String after, String want) throws Exception {
    assertEquals(Instant.parse(want), CronSchedule.parse(spec).next(Instant.parse(after)));
  }

  @Test
  void aTimeZoneMovesTheActivations() throws Exception {
    // 09:00 in New York in July is 13:00 UTC (EDT).
    CronSchedule schedule = CronSchedule.parse("0 9 * * *", ZoneId.of("America/New_York"));
    assertEquals(
        Instant.parse("2012-07-09T13:00:00Z"),
        schedule.next(Instant.parse("2012-07-09T12:00:00Z")));
    assertEquals(
        Instant.parse("2012-07-09T13:00:00Z"),
        CronSchedule.parse("TZ=America/New_York 0 9 * * *")
            .next(Instant.parse("2012-07-09T12:00:00Z")));
  }

  @Test
  void aScheduleThatNeverComesHasNoNextActivation() throws Exception {
    assertNull(CronSchedule.parse("59 23 31 2 *").next(TOP));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "* * * *|expected exactly 5 fields, found 4: [* * * *]",
        "* * * * * *|expected exactly 5 fields, found 6: [* * * * * *]",
        "60 * * * *|end of range (60) above maximum (59): 60",
        "* 24 * * *|end of range (24) above maximum (23): 24",
        "* * 0 * *|beginning of range (0) below minimum (1): 0",
        "* * * 13 *|end of range (13) above maximum (12): 13",
        "* * * * 7|end of range (7) above maximum (6): 7",
        "5-1 * * * *|beginning of range (5) beyond end of range (1): 5-1",
        "*/0 * * * *|step of range should be a positive number: */0",
        "a * * * *|failed to parse int from a: strconv.Atoi: parsing \"a\": invalid syntax",
        "@fortnightly|unrecognized descriptor: @fortnightly",
        "|empty spec string",
      })
  void badSchedulesAreRefusedInRobfigsWords(String spec, String message) {
    CronSchedule.ParseException e =
        assertThrows(CronSchedule.ParseException.class, () -> CronSchedule.parse(spec));
    assertEquals(message, e.getMessage());
  }
}
