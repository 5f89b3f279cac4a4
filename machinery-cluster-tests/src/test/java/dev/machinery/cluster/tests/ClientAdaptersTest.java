package dev.machinery.cluster.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.controller.cache.CacheIndexer;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.client.ClientEventSink;
import dev.machinery.controller.client.ClientLeaseLock;
import dev.machinery.controller.client.ClientListerWatcher;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventBroadcaster;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.controller.leaderelection.LeaderCallbacks;
import dev.machinery.controller.leaderelection.LeaderElectionConfig;
import dev.machinery.controller.leaderelection.LeaderElectionRecord;
import dev.machinery.controller.leaderelection.LeaderElector;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The adapters over machinery-client against a real API server on loopback. */
class ClientAdaptersTest {
  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static TestApiServer server;
  private static Client client;

  @BeforeAll
  static void start() {
    server = TestApiServer.builder().controllers(List.of()).nodes(0).start();
    client = Client.builder(HttpTransport.builder(server.url()).build()).build();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    for (int i = 0; i < 10_000; i++) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(2);
    }
    fail("never happened: " + what);
  }

  private static Unstructured configMap(String name, String value) {
    Unstructured map = new Unstructured();
    map.setApiVersion("v1");
    map.setKind("ConfigMap");
    map.setNamespace("default");
    map.setName(name);
    map.setField("data", Map.of("value", value));
    return map;
  }

  @Test
  void anInformerListsAndWatchesThroughTheClient() throws Exception {
    ResourceClient<Unstructured> maps = client.resources(CONFIGMAPS).inNamespace("default");
    maps.create(configMap("informed-a", "1"));
    SharedIndexInformer<Unstructured> informer =
        new SharedIndexInformer<>(
            "configmaps",
            new ClientListerWatcher<>(maps),
            Duration.ZERO,
            CacheIndexer.namespaceIndexers(),
            Clock.system());
    informer.start();
    try {
      assertTrue(informer.awaitSynced());
      assertTrue(informer.indexer().getByKey("default/informed-a").isPresent());
      maps.create(configMap("informed-b", "2"));
      await("b cached", () -> informer.indexer().getByKey("default/informed-b").isPresent());
      Unstructured a = maps.get("informed-a");
      a.setField("data", Map.of("value", "changed"));
      maps.update(a);
      await(
          "a changed",
          () ->
              informer
                  .indexer()
                  .getByKey("default/informed-a")
                  .orElseThrow()
                  .nestedString("data", "value")
                  .orElse("")
                  .equals("changed"));
      maps.delete("informed-b");
      await("b gone", () -> informer.indexer().getByKey("default/informed-b").isEmpty());
    } finally {
      informer.stop();
    }
  }

  @Test
  void theLeaseLockReadsCreatesAndUpdatesWithOptimisticConcurrency() {
    ClientLeaseLock one = new ClientLeaseLock(client, "default", "lock-test", "one");
    ClientLeaseLock two = new ClientLeaseLock(client, "default", "lock-test", "two");
    assertTrue(one.get().isEmpty());
    Instant t = Instant.parse("2026-01-01T00:00:00.123456Z");
    one.create(new LeaderElectionRecord("one", 15, t, t, 0));
    LeaderElectionRecord read = two.get().orElseThrow();
    assertEquals(new LeaderElectionRecord("one", 15, t, t, 0), read);
    two.update(new LeaderElectionRecord("two", 15, t, t.plusSeconds(1), 1));
    RuntimeException stale =
        assertThrows(
            RuntimeException.class,
            () -> one.update(new LeaderElectionRecord("one", 15, t, t.plusSeconds(2), 0)));
    assertTrue(ApiErrors.isConflict(stale), stale.getMessage());
    assertEquals("two", one.get().orElseThrow().holderIdentity());
    assertEquals("default/lock-test", one.describe());
  }

  @Test
  void anElectorTakesTheLeaseAndReleasesItOnCancel() throws Exception {
    ClientLeaseLock lock = new ClientLeaseLock(client, "default", "elector-test", "me");
    List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
    LeaderElector elector =
        new LeaderElector(
            LeaderElectionConfig.defaults(
                "test",
                lock,
                new LeaderCallbacks() {
                  @Override
                  public void onStartedLeading() {
                    calls.add("started");
                  }

                  @Override
                  public void onStoppedLeading() {
                    calls.add("stopped");
                  }
                }),
            Clock.system());
    Thread runner = new Thread(elector::run);
    runner.start();
    await("leading", () -> calls.contains("started"));
    assertEquals("me", lock.get().orElseThrow().holderIdentity());
    elector.cancel();
    runner.join();
    LeaderElectionRecord released = lock.get().orElseThrow();
    assertEquals("", released.holderIdentity());
    assertEquals(1, released.leaseDurationSeconds());
    assertFalse(elector.isLeader());
  }

  @Test
  void eventsAreCreatedThenCountedOnTheServer() throws Exception {
    ResourceClient<Unstructured> maps = client.resources(CONFIGMAPS).inNamespace("default");
    Unstructured regarding = maps.create(configMap("evented", "1"));
    try (EventBroadcaster broadcaster =
        new EventBroadcaster(new ClientEventSink(client), Clock.system())) {
      EventRecorder recorder = broadcaster.newRecorder("example.com/test", "replica-1");
      Event first =
          recorder.eventf(regarding, null, Event.TYPE_WARNING, "Broken", "Check", "still broken");
      broadcaster.flush();
      recorder.eventf(regarding, null, Event.TYPE_WARNING, "Broken", "Check", "still broken");
      broadcaster.flush();
      Unstructured stored =
          client.resources(ClientEventSink.EVENTS).inNamespace("default").get(first.name());
      assertEquals("still broken", stored.nestedString("note").orElseThrow());
      assertEquals("ConfigMap", stored.nestedString("regarding", "kind").orElseThrow());
      assertEquals(2L, stored.nestedLong("series", "count").orElseThrow());
      assertEquals("example.com/test", stored.nestedString("reportingController").orElseThrow());
      ListOptions all = new ListOptions();
      assertEquals(
          1,
          client.resources(ClientEventSink.EVENTS).inNamespace("default").list(all).items().stream()
              .filter(e -> e.getName().startsWith("evented."))
              .count());
    }
  }
}
