package dev.machinery.cluster.tests.batch;

import static dev.machinery.cluster.tests.batch.BatchTesting.await;
import static dev.machinery.cluster.tests.batch.BatchTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The CronJob controller alone on a fake cluster clock: the test moves the clock past scheduled
 * times and sees Jobs created, and ends the Jobs itself (no Job controller runs).
 */
@EnableApiServer(
    controllers = {"cronjob-controller"},
    nodes = 0,
    fakeClock = true)
class CronJobControllerTest {
  KubernetesClient client;
  TestApiServer server;

  /**
   * Puts the shared fake clock back at the wall clock's second, no later than the creation time the
   * server will give the next CronJob: a test before may have moved it hours ahead.
   */
  @org.junit.jupiter.api.BeforeEach
  void clockAtNow() {
    server.fakeClock().setTime(Instant.now().truncatedTo(ChronoUnit.SECONDS));
  }

  private CronJob create(String name, String schedule, String policy) {
    return create(name, schedule, policy, spec -> {});
  }

  private CronJob create(
      String name,
      String schedule,
      String policy,
      java.util.function.Consumer<io.fabric8.kubernetes.api.model.batch.v1.CronJobSpec> edit) {
    CronJob cronJob =
        new CronJobBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("default")
            .endMetadata()
            .withNewSpec()
            .withSchedule(schedule)
            .withConcurrencyPolicy(policy)
            .withNewJobTemplate()
            .withNewMetadata()
            .addToLabels("app", name)
            .endMetadata()
            .withNewSpec()
            .withNewTemplate()
            .withNewSpec()
            .withRestartPolicy("Never")
            .addNewContainer()
            .withName("main")
            .withImage("busybox")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .endJobTemplate()
            .endSpec()
            .build();
    edit.accept(cronJob.getSpec());
    return client.batch().v1().cronjobs().inNamespace("default").resource(cronJob).create();
  }

  private CronJob cronJob(String name) {
    return client.batch().v1().cronjobs().inNamespace("default").withName(name).get();
  }

  private List<Job> jobsOf(String name) {
    List<Job> jobs = new ArrayList<>();
    for (Job job : client.batch().v1().jobs().inNamespace("default").list().getItems()) {
      if (job.getMetadata().getOwnerReferences().stream()
          .anyMatch(o -> "CronJob".equals(o.getKind()) && name.equals(o.getName()))) {
        jobs.add(job);
      }
    }
    jobs.sort((a, b) -> a.getMetadata().getName().compareTo(b.getMetadata().getName()));
    return jobs;
  }

  private List<String> eventReasons(String name) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> e.getInvolvedObject() != null && name.equals(e.getInvolvedObject().getName()))
        .map(Event::getReason)
        .collect(Collectors.toList());
  }

  /** The first time after both the clock and the CronJob's creation on a boundary of minutes. */
  private Instant nextBoundary(CronJob cronJob, int minutes) {
    Instant created = Instant.parse(cronJob.getMetadata().getCreationTimestamp());
    Instant from = created.isAfter(server.fakeClock().now()) ? created : server.fakeClock().now();
    Instant minute = from.truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
    while (minute.getEpochSecond() / 60 % minutes != 0) {
      minute = minute.plus(1, ChronoUnit.MINUTES);
    }
    return minute;
  }

  private void complete(Job job, String type) {
    Job latest =
        client
            .batch()
            .v1()
            .jobs()
            .inNamespace("default")
            .withName(job.getMetadata().getName())
            .get();
    String now = server.fakeClock().now().toString();
    latest.getStatus().setStartTime(now);
    if ("Complete".equals(type)) {
      latest.getStatus().setCompletionTime(now);
      latest.getStatus().setSucceeded(1);
      latest
          .getStatus()
          .getConditions()
          .add(
              new JobConditionBuilder()
                  .withType("SuccessCriteriaMet")
                  .withStatus("True")
                  .withLastTransitionTime(now)
                  .build());
    } else {
      latest.getStatus().setFailed(1);
      latest
          .getStatus()
          .getConditions()
          .add(
              new JobConditionBuilder()
                  .withType("FailureTarget")
                  .withStatus("True")
                  .withLastTransitionTime(now)
                  .build());
    }
    latest
        .getStatus()
        .getConditions()
        .add(
            new JobConditionBuilder()
                .withType(type)
                .withStatus("True")
                .withLastTransitionTime(now)
                .build());
    client.batch().v1().jobs().inNamespace("default").resource(latest).updateStatus();
  }

  @Test
  void movingTheClockPastAScheduledTimeCreatesItsJob() {
    FakeClock clock = server.fakeClock();
    CronJob created = create("every-five", "*/5 * * * *", "Allow");
    Instant first = nextBoundary(created, 5);
    clock.setTime(first.plusSeconds(1));
    Job job =
        await(
            "a Job",
            () -> jobsOf("every-five").isEmpty() ? null : jobsOf("every-five").get(0),
            () -> cronJob("every-five").getStatus());
    assertEquals("every-five-" + first.getEpochSecond() / 60, job.getMetadata().getName());
    assertEquals(
        first.toString(),
        job.getMetadata().getAnnotations().get("batch.kubernetes.io/cronjob-scheduled-timestamp"));
    assertEquals("every-five", job.getMetadata().getLabels().get("app"));
    assertEquals(Boolean.TRUE, job.getMetadata().getOwnerReferences().get(0).getController());
    until(
        "status",
        () ->
            cronJob("every-five").getStatus().getActive().size() == 1
                && first.toString().equals(cronJob("every-five").getStatus().getLastScheduleTime()),
        () -> cronJob("every-five").getStatus());
    assertEquals(
        job.getMetadata().getName(),
        cronJob("every-five").getStatus().getActive().get(0).getName());

    // Allow: the next time runs beside the first.
    clock.setTime(first.plusSeconds(5 * 60 + 1));
    until("a second Job", () -> jobsOf("every-five").size() == 2, () -> jobsOf("every-five"));
    until(
        "two active",
        () -> cronJob("every-five").getStatus().getActive().size() == 2,
        () -> cronJob("every-five").getStatus());

    complete(jobsOf("every-five").get(0), "Complete");
    until(
        "one active, lastSuccessfulTime",
        () ->
            cronJob("every-five").getStatus().getActive().size() == 1
                && cronJob("every-five").getStatus().getLastSuccessfulTime() != null,
        () -> cronJob("every-five").getStatus());
    until(
        "events",
        () ->
            eventReasons("every-five").containsAll(List.of("SuccessfulCreate", "SawCompletedJob")),
        () -> eventReasons("every-five"));
  }

  @Test
  void forbidSkipsATimeWhileAJobRunsAndReplaceDeletesIt() {
    FakeClock clock = server.fakeClock();
    CronJob forbid = create("forbid", "* * * * *", "Forbid");
    CronJob replace = create("replace", "* * * * *", "Replace");
    Instant first = nextBoundary(forbid, 1);
    Instant firstReplace = nextBoundary(replace, 1);
    if (firstReplace.isAfter(first)) {
      first = firstReplace;
    }
    clock.setTime(first.plusSeconds(1));
    until(
        "a Job each",
        () -> jobsOf("forbid").size() == 1 && jobsOf("replace").size() == 1,
        () -> jobsOf("forbid") + " " + jobsOf("replace"));
    until(
        "active",
        () ->
            cronJob("forbid").getStatus().getActive().size() == 1
                && cronJob("replace").getStatus().getActive().size() == 1,
        () -> cronJob("forbid").getStatus());
    String replaced = jobsOf("replace").get(0).getMetadata().getName();
    clock.setTime(first.plusSeconds(61));
    until(
        "the replacement",
        () -> {
          List<Job> jobs = jobsOf("replace");
          return jobs.size() == 1 && !jobs.get(0).getMetadata().getName().equals(replaced);
        },
        () -> jobsOf("replace"));
    until(
        "JobAlreadyActive",
        () -> eventReasons("forbid").contains("JobAlreadyActive"),
        () -> eventReasons("forbid"));
    assertEquals(1, jobsOf("forbid").size());
    until(
        "SuccessfulDelete",
        () -> eventReasons("replace").contains("SuccessfulDelete"),
        () -> eventReasons("replace"));
  }

  @Test
  void historyLimitsKeepTheNewestFinishedJobs() {
    FakeClock clock = server.fakeClock();
    CronJob created =
        create(
            "history",
            "* * * * *",
            "Allow",
            spec -> {
              spec.setSuccessfulJobsHistoryLimit(1);
              spec.setFailedJobsHistoryLimit(0);
            });
    Instant first = nextBoundary(created, 1);
    for (int i = 0; i < 3; i++) {
      String name = "history-" + (first.getEpochSecond() / 60 + i);
      clock.setTime(first.plusSeconds(60L * i + 1));
      Job job =
          await(
              name,
              () ->
                  jobsOf("history").stream()
                      .filter(j -> j.getMetadata().getName().equals(name))
                      .findFirst()
                      .orElse(null),
              () -> jobsOf("history"));
      complete(job, i == 1 ? "Failed" : "Complete");
    }
    // Of two successes the older goes; the failure goes at once.
    String newest = "history-" + (first.getEpochSecond() / 60 + 2);
    until(
        "only " + newest + " left",
        () ->
            jobsOf("history").size() == 1
                && jobsOf("history").get(0).getMetadata().getName().equals(newest),
        () -> jobsOf("history").stream().map(j -> j.getMetadata().getName()).toList());
  }

  @Test
  void tooManyMissedTimesAreReportedAndTheLatestRuns() {
    FakeClock clock = server.fakeClock();
    CronJob created = create("missed", "* * * * *", "Allow");
    Instant first = nextBoundary(created, 1);
    clock.setTime(first.plus(200, ChronoUnit.MINUTES).plusSeconds(1));
    until("a Job", () -> jobsOf("missed").size() == 1, () -> cronJob("missed").getStatus());
    assertEquals(
        "missed-" + (first.getEpochSecond() / 60 + 200),
        jobsOf("missed").get(0).getMetadata().getName());
    until(
        "TooManyMissedTimes",
        () -> eventReasons("missed").contains("TooManyMissedTimes"),
        () -> eventReasons("missed"));
  }

  @Test
  void aSuspendedCronJobCreatesNothingAndAZonedOneStampsItsZone() {
    FakeClock clock = server.fakeClock();
    CronJob asleep = create("asleep", "* * * * *", "Allow", spec -> spec.setSuspend(true));
    CronJob zoned =
        create("zoned", "* * * * *", "Allow", spec -> spec.setTimeZone("Europe/Istanbul"));
    Instant first = nextBoundary(asleep, 1);
    Instant firstZoned = nextBoundary(zoned, 1);
    clock.setTime((firstZoned.isAfter(first) ? firstZoned : first).plusSeconds(1));
    until("zoned Job", () -> jobsOf("zoned").size() == 1, () -> jobsOf("zoned"));
    String stamp =
        jobsOf("zoned")
            .get(0)
            .getMetadata()
            .getAnnotations()
            .get("batch.kubernetes.io/cronjob-scheduled-timestamp");
    // Istanbul keeps UTC+3 all year.
    assertTrue(stamp.endsWith("+03:00"), stamp);
    assertTrue(jobsOf("asleep").isEmpty());
    assertNull(cronJob("asleep").getStatus().getLastScheduleTime());
  }
}
