package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * fabric8's {@code LeaderElector}, two candidates on one {@code coordination.k8s.io/v1} Lease: one
 * leads, and when it stops (releasing the lease) the other takes over. Every call goes through
 * fabric8. What is asserted is the order of events, not how long anything takes: the second
 * candidate starts leading only after the first has stopped (cancelled by the test, or, on a
 * machine too loaded to renew in time, having lost the lease), and the lease then names the second.
 */
@EnableApiServer
class LeaderElectionTest {
  KubernetesClient client;

  @Test
  void theSecondCandidateTakesOverWhenTheLeaderStops() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    BlockingQueue<String> started = new LinkedBlockingQueue<>();
    CompletableFuture<?> first = candidate("first", started, events);
    assertEquals("first", started.poll(60, TimeUnit.SECONDS), "the first candidate leads");
    Lease lease = client.leases().inNamespace("default").withName("machinery-test").get();
    assertEquals("first", lease.getSpec().getHolderIdentity(), events.toString());
    int transitions = transitions(lease);
    events.add("second candidate starts");
    CompletableFuture<?> second = candidate("second", started, events);
    events.add("first cancelled");
    first.cancel(true);
    assertEquals("second", started.poll(60, TimeUnit.SECONDS), "the second takes over");
    int secondLeads = events.indexOf("second starts leading");
    int firstStopped = events.indexOf("first stops leading");
    int firstCancelled = events.indexOf("first cancelled");
    assertTrue(
        secondLeads > events.indexOf("second candidate starts")
            && (secondLeads > firstCancelled || firstStopped >= 0 && secondLeads > firstStopped),
        "the second leads only once the first has stopped: " + events);
    lease = client.leases().inNamespace("default").withName("machinery-test").get();
    assertEquals("second", lease.getSpec().getHolderIdentity(), events.toString());
    assertTrue(transitions(lease) > transitions, "the lease counts the transition: " + events);
    second.cancel(true);
  }

  private static int transitions(Lease lease) {
    Integer count = lease.getSpec().getLeaseTransitions();
    return count == null ? 0 : count;
  }

  private CompletableFuture<?> candidate(
      String identity, BlockingQueue<String> started, List<String> events) {
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
                    new LeaderCallbacks(
                        () -> {
                          events.add(identity + " starts leading");
                          started.add(identity);
                        },
                        () -> events.add(identity + " stops leading"),
                        leader -> {}))
                .build())
        .build()
        .start();
  }
}
