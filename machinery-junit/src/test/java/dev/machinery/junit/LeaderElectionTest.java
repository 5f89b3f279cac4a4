package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * fabric8's {@code LeaderElector}, two candidates on one {@code coordination.k8s.io/v1} Lease: one
 * leads, and when it stops (releasing the lease) the other takes over. Every call goes through
 * fabric8.
 */
@EnableApiServer
class LeaderElectionTest {
  KubernetesClient client;

  @Test
  void theSecondCandidateTakesOverWhenTheLeaderStops() throws Exception {
    BlockingQueue<String> started = new LinkedBlockingQueue<>();
    CompletableFuture<?> first = candidate("first", started);
    assertEquals("first", started.poll(20, TimeUnit.SECONDS), "the first candidate leads");
    CompletableFuture<?> second = candidate("second", started);
    Lease lease = client.leases().inNamespace("default").withName("machinery-test").get();
    assertEquals("first", lease.getSpec().getHolderIdentity());
    assertEquals(null, started.poll(1, TimeUnit.SECONDS), "the second waits while the first leads");
    first.cancel(true);
    assertEquals("second", started.poll(20, TimeUnit.SECONDS), "the second takes over");
    assertEquals(
        "second",
        client
            .leases()
            .inNamespace("default")
            .withName("machinery-test")
            .get()
            .getSpec()
            .getHolderIdentity());
    assertTrue(
        client
                .leases()
                .inNamespace("default")
                .withName("machinery-test")
                .get()
                .getSpec()
                .getLeaseTransitions()
            >= 1);
    second.cancel(true);
  }

  private CompletableFuture<?> candidate(String identity, BlockingQueue<String> started) {
    return client
        .leaderElector()
        .withConfig(
            new LeaderElectionConfigBuilder()
                .withName("machinery-test")
                .withLock(new LeaseLock("default", "machinery-test", identity))
                .withLeaseDuration(Duration.ofSeconds(3))
                .withRenewDeadline(Duration.ofSeconds(2))
                .withRetryPeriod(Duration.ofMillis(200))
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(
                    new LeaderCallbacks(() -> started.add(identity), () -> {}, leader -> {}))
                .build())
        .build()
        .start();
  }
}
