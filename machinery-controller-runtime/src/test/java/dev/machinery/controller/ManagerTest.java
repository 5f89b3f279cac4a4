package dev.machinery.controller;

import static dev.machinery.controller.InMemorySource.object;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.FakeClock;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The manager: caches before controllers, leader election gating, ordered shutdown. */
class ManagerTest {
  private static final GroupVersionResource WIDGETS =
      new GroupVersionResource("example.com", "v1", "widgets");

  private static Controller controller(
      Manager manager, InMemorySource source, String name, List<String> log) {
    SharedIndexInformer<Unstructured> informer =
        manager.informers().informerFor(WIDGETS, Unstructured.class, () -> source);
    return Controller.builder(
            name,
            r -> {
              log.add(name + " " + r);
              return Result.done();
            })
        .watches(informer, EventHandlers.enqueueRequestForObject())
        .build();
  }

  @Test
  void withoutLeaderElectionControllersRunOnceCachesSync() throws Exception {
    InMemorySource source = new InMemorySource();
    source.put(object("Widget", "ns", "a"));
    List<String> log = new CopyOnWriteArrayList<>();
    Manager manager = Manager.builder("m").build();
    SharedIndexInformer<Unstructured> informer;
    try {
      manager.add(controller(manager, source, "first", log));
      manager.add(controller(manager, source, "second", log));
      manager.start();
      assertTrue(manager.isRunningControllers());
      Poll.until("both reconciled", () -> log.size() == 2);
      assertTrue(log.containsAll(List.of("first ns/a", "second ns/a")));
      informer = manager.informers().informerFor(WIDGETS, Unstructured.class, () -> source);
      assertTrue(informer.hasSynced());
    } finally {
      manager.close();
    }
    assertFalse(manager.isRunningControllers());
    assertTrue(informer.isStopped(), "one informer served both controllers and was stopped");
  }

  @Test
  void onlyTheLeaderRunsControllersAndTheOtherTakesOverWhenItCloses() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    MemoryLeaseLock.Lease lease = new MemoryLeaseLock.Lease();
    InMemorySource source = new InMemorySource();
    source.put(object("Widget", "ns", "a"));
    List<String> log = new CopyOnWriteArrayList<>();
    Manager first =
        Manager.builder("first")
            .clock(clock)
            .leaderElection(new MemoryLeaseLock(lease, "first"))
            .build();
    Manager second =
        Manager.builder("second")
            .clock(clock)
            .leaderElection(new MemoryLeaseLock(lease, "second"))
            .build();
    try {
      first.add(controller(first, source, "first", log));
      second.add(controller(second, source, "second", log));
      first.start();
      Poll.until("first leads", first::isRunningControllers);
      Poll.until("first reconciled", () -> log.contains("first ns/a"));
      second.start();
      // the second replica retries on the clock and keeps finding the lease held
      for (int i = 0; i < 3; i++) {
        clock.awaitWaiters(2);
        clock.step(Duration.ofSeconds(2));
      }
      assertFalse(second.isRunningControllers());
      assertEquals(List.of("first ns/a"), log);

      first.close();
      assertEquals("", lease.record.holderIdentity(), "the lease was released");
      for (int i = 0; i < 100 && !second.isRunningControllers(); i++) {
        clock.awaitWaiters(1);
        clock.step(Duration.ofSeconds(1));
        Thread.sleep(1);
      }
      Poll.until("second reconciled", () -> log.contains("second ns/a"));
      assertEquals("second", lease.record.holderIdentity());
      assertFalse(second.lostLeadership());
    } finally {
      first.close();
      second.close();
    }
  }
}
