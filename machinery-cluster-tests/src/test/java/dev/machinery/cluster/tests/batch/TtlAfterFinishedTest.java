package dev.machinery.cluster.tests.batch;

import static dev.machinery.cluster.tests.batch.BatchTesting.activePodsOf;
import static dev.machinery.cluster.tests.batch.BatchTesting.condition;
import static dev.machinery.cluster.tests.batch.BatchTesting.finish;
import static dev.machinery.cluster.tests.batch.BatchTesting.get;
import static dev.machinery.cluster.tests.batch.BatchTesting.job;
import static dev.machinery.cluster.tests.batch.BatchTesting.podsOf;
import static dev.machinery.cluster.tests.batch.BatchTesting.until;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.machinery.controller.clock.FakeClock;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Finished Jobs deleted their TTL after they finished, on a fake cluster clock. */
@EnableApiServer(
    controllers = {"job-controller", "ttl-after-finished-controller"},
    nodes = 0,
    fakeClock = true)
class TtlAfterFinishedTest {
  KubernetesClient client;
  TestApiServer server;

  private boolean deletedOrDeleting(String name) {
    Job job = get(client, name);
    return job == null || job.getMetadata().getDeletionTimestamp() != null;
  }

  @Test
  void aFinishedJobIsDeletedItsTtlAfterItFinished() {
    FakeClock clock = server.fakeClock();
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace("default")
        .resource(job("expiring").editSpec().withTtlSecondsAfterFinished(100).endSpec().build())
        .create();
    client.batch().v1().jobs().inNamespace("default").resource(job("kept").build()).create();
    until(
        "pods",
        () ->
            activePodsOf(client, "expiring").size() == 1
                && activePodsOf(client, "kept").size() == 1,
        () -> podsOf(client, "expiring"));
    finish(client, activePodsOf(client, "expiring").get(0), 0, clock.now());
    finish(client, activePodsOf(client, "kept").get(0), 0, clock.now());
    until(
        "both Complete",
        () ->
            condition(get(client, "expiring"), "Complete").isPresent()
                && condition(get(client, "kept"), "Complete").isPresent(),
        () -> get(client, "expiring").getStatus());
    clock.step(Duration.ofSeconds(99));
    // Not yet: the TTL counts from the Complete condition's transition.
    assertNull(get(client, "expiring").getMetadata().getDeletionTimestamp());
    clock.step(Duration.ofSeconds(2));
    until("expiring deleted", () -> deletedOrDeleting("expiring"), () -> get(client, "expiring"));
    Job kept = get(client, "kept");
    assertNotNull(kept);
    assertNull(kept.getMetadata().getDeletionTimestamp());
  }

  @Test
  void aTtlOfZeroDeletesAtOnce() {
    FakeClock clock = server.fakeClock();
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace("default")
        .resource(
            job("instant")
                .editSpec()
                .withTtlSecondsAfterFinished(0)
                .withBackoffLimit(0)
                .endSpec()
                .build())
        .create();
    until(
        "a pod",
        () -> activePodsOf(client, "instant").size() == 1,
        () -> podsOf(client, "instant"));
    finish(client, activePodsOf(client, "instant").get(0), 1, clock.now());
    until("instant deleted", () -> deletedOrDeleting("instant"), () -> get(client, "instant"));
  }
}
