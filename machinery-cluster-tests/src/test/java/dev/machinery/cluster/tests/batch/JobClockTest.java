package dev.machinery.cluster.tests.batch;

import static dev.machinery.cluster.tests.batch.BatchTesting.activePodsOf;
import static dev.machinery.cluster.tests.batch.BatchTesting.condition;
import static dev.machinery.cluster.tests.batch.BatchTesting.finish;
import static dev.machinery.cluster.tests.batch.BatchTesting.get;
import static dev.machinery.cluster.tests.batch.BatchTesting.job;
import static dev.machinery.cluster.tests.batch.BatchTesting.podsOf;
import static dev.machinery.cluster.tests.batch.BatchTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The Job controller's times (failure back-off, active deadline) on a fake cluster clock. */
@EnableApiServer(
    controllers = {"job-controller"},
    nodes = 0,
    fakeClock = true)
class JobClockTest {
  KubernetesClient client;
  TestApiServer server;

  private Integer failed(String name) {
    Job job = get(client, name);
    return job.getStatus() == null ? null : job.getStatus().getFailed();
  }

  @Test
  void aReplacementWaitsTenSecondsThenTwentyAfterFailures() {
    FakeClock clock = server.fakeClock();
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace("default")
        .resource(job("flaky").editSpec().withBackoffLimit(5).endSpec().build())
        .create();
    until("a pod", () -> activePodsOf(client, "flaky").size() == 1, () -> podsOf(client, "flaky"));
    finish(client, activePodsOf(client, "flaky").get(0), 1, clock.now());
    until(
        "failed 1",
        () -> Integer.valueOf(1).equals(failed("flaky")),
        () -> get(client, "flaky").getStatus());
    // The sync that counted the failure made no replacement: it waits on the cluster's clock.
    assertTrue(activePodsOf(client, "flaky").isEmpty(), () -> podsOf(client, "flaky").toString());
    clock.step(Duration.ofSeconds(10));
    until(
        "a replacement",
        () -> activePodsOf(client, "flaky").size() == 1,
        () -> podsOf(client, "flaky"));

    finish(client, activePodsOf(client, "flaky").get(0), 1, clock.now());
    until(
        "failed 2",
        () -> Integer.valueOf(2).equals(failed("flaky")),
        () -> get(client, "flaky").getStatus());
    clock.step(Duration.ofSeconds(10));
    // Ten seconds are not enough after two failures: the status stays as the last sync wrote it.
    assertTrue(activePodsOf(client, "flaky").isEmpty(), () -> podsOf(client, "flaky").toString());
    clock.step(Duration.ofSeconds(10));
    until(
        "a second replacement",
        () -> activePodsOf(client, "flaky").size() == 1,
        () -> podsOf(client, "flaky"));
    assertEquals(3, podsOf(client, "flaky").size());
  }

  @Test
  void aJobActiveLongerThanItsDeadlineFails() {
    FakeClock clock = server.fakeClock();
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace("default")
        .resource(
            job("deadline")
                .editSpec()
                .withActiveDeadlineSeconds(30L)
                .withParallelism(2)
                .withCompletions(2)
                .endSpec()
                .build())
        .create();
    until(
        "two pods",
        () -> activePodsOf(client, "deadline").size() == 2,
        () -> podsOf(client, "deadline"));
    until(
        "startTime",
        () -> get(client, "deadline").getStatus().getStartTime() != null,
        () -> get(client, "deadline").getStatus());
    clock.step(Duration.ofSeconds(31));
    until(
        "Failed",
        () -> condition(get(client, "deadline"), "Failed").isPresent(),
        () -> get(client, "deadline").getStatus());
    Job failed = get(client, "deadline");
    JobCondition condition = condition(failed, "Failed").orElseThrow();
    assertEquals("DeadlineExceeded", condition.getReason());
    assertEquals("Job was active longer than specified deadline", condition.getMessage());
    // kube-apiserver leaves out an active count of 0 (omitempty), as this server now does.
    assertNull(failed.getStatus().getActive());
    assertEquals(2, failed.getStatus().getFailed());
    until(
        "pods deleted",
        () -> podsOf(client, "deadline").isEmpty(),
        () -> podsOf(client, "deadline"));
  }
}
