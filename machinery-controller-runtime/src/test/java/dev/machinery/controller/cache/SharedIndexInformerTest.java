package dev.machinery.controller.cache;

import static dev.machinery.controller.cache.Objects2.event;
import static dev.machinery.controller.cache.Objects2.expired;
import static dev.machinery.controller.cache.Objects2.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.watch.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** client-go's shared_informer_test: handlers added late, per-handler resync, relist deletions. */
class SharedIndexInformerTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<SharedIndexInformer<?>> started = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (SharedIndexInformer<?> informer : started) {
      informer.stop();
    }
  }

  private SharedIndexInformer<Unstructured> informer(FakeListerWatcher source, Duration resync) {
    SharedIndexInformer<Unstructured> informer =
        new SharedIndexInformer<>("pods", source, resync, CacheIndexer.namespaceIndexers(), clock);
    started.add(informer);
    return informer;
  }

  /** Records notifications as text. */
  static final class Recorder implements ResourceEventHandler<Unstructured> {
    final List<String> seen = new ArrayList<>();

    @Override
    public synchronized void onAdd(Unstructured object, boolean isInInitialList) {
      seen.add(
          "add " + object.getName() + "@" + object.getResourceVersion() + " " + isInInitialList);
    }

    @Override
    public synchronized void onUpdate(Unstructured oldObject, Unstructured newObject) {
      seen.add(
          "update "
              + newObject.getName()
              + "@"
              + oldObject.getResourceVersion()
              + "->"
              + newObject.getResourceVersion());
    }

    @Override
    public synchronized void onDelete(Unstructured object, boolean finalStateUnknown) {
      seen.add("delete " + object.getName() + " " + finalStateUnknown);
    }

    synchronized List<String> seen() {
      return List.copyOf(seen);
    }

    void awaitCount(int n) throws InterruptedException {
      Poll.until(n + " notifications", () -> seen().size() >= n);
    }
  }

  @Test
  void handlersSeeTheListThenTheWatchAndTheCacheFollows() throws Exception {
    FakeListerWatcher source =
        new FakeListerWatcher(o -> new ListResult<>(List.of(pod("ns", "a", "1")), "1"));
    SharedIndexInformer<Unstructured> informer = informer(source, Duration.ZERO);
    Recorder recorder = new Recorder();
    SharedIndexInformer.Registration registration = informer.addEventHandler(recorder);
    informer.start();
    assertTrue(informer.awaitSynced());
    FakeListerWatcher.FakeWatch watch = source.awaitWatch(0);
    // changes of one key keep their order; across keys, the order keys were queued in
    watch.send(event(EventType.ADDED, pod("ns", "b", "2")));
    recorder.awaitCount(2);
    watch.send(event(EventType.MODIFIED, pod("ns", "a", "3")));
    recorder.awaitCount(3);
    watch.send(event(EventType.DELETED, pod("ns", "b", "4")));
    recorder.awaitCount(4);
    assertEquals(
        List.of("add a@1 true", "add b@2 false", "update a@1->3", "delete b false"),
        recorder.seen());
    assertTrue(registration.hasSynced());
    assertEquals(List.of("ns/a"), informer.indexer().listKeys());
    assertEquals(
        "3", informer.lister().namespace("ns").get("a").orElseThrow().getResourceVersion());
    assertEquals("4", informer.lastSyncResourceVersion());
  }

  @Test
  void aHandlerAddedLateGetsSyntheticAddsThenTheLiveStream() throws Exception {
    FakeListerWatcher source =
        new FakeListerWatcher(
            o -> new ListResult<>(List.of(pod("ns", "a", "1"), pod("ns", "b", "1")), "1"));
    SharedIndexInformer<Unstructured> informer = informer(source, Duration.ZERO);
    Recorder early = new Recorder();
    informer.addEventHandler(early);
    informer.start();
    assertTrue(informer.awaitSynced());
    early.awaitCount(2);
    Recorder late = new Recorder();
    SharedIndexInformer.Registration registration = informer.addEventHandler(late);
    late.awaitCount(2);
    Poll.until("late handler synced", registration::hasSynced);
    assertEquals(List.of("add a@1 true", "add b@1 true"), late.seen().stream().sorted().toList());
    source.awaitWatch(0).send(event(EventType.ADDED, pod("ns", "c", "2")));
    late.awaitCount(3);
    early.awaitCount(3);
    assertEquals("add c@2 false", late.seen().get(2));
    assertEquals(1, source.listCount(), "one reflector serves both handlers");
  }

  @Test
  void resyncGoesOnlyToHandlersWhosePeriodCameRound() throws Exception {
    FakeListerWatcher source =
        new FakeListerWatcher(o -> new ListResult<>(List.of(pod("ns", "a", "1")), "1"));
    SharedIndexInformer<Unstructured> informer = informer(source, Duration.ZERO);
    Recorder every10 = new Recorder();
    Recorder every20 = new Recorder();
    Recorder never = new Recorder();
    informer.addEventHandler(every10, Duration.ofSeconds(10));
    informer.addEventHandler(every20, Duration.ofSeconds(20));
    informer.addEventHandler(never, Duration.ZERO);
    informer.start();
    assertTrue(informer.awaitSynced());
    source.awaitWatch(0);
    clock.awaitWaiters(1);
    clock.step(Duration.ofSeconds(10));
    every10.awaitCount(2);
    clock.awaitWaiters(1);
    clock.step(Duration.ofSeconds(10));
    every10.awaitCount(3);
    every20.awaitCount(2);
    // a marker event shows the handler without resync has seen all it will see
    source.awaitWatch(0).send(event(EventType.ADDED, pod("ns", "z", "9")));
    never.awaitCount(2);
    every10.awaitCount(4);
    every20.awaitCount(3);
    assertEquals(List.of("add a@1 true", "add z@9 false"), never.seen());
    assertEquals(
        List.of("add a@1 true", "update a@1->1", "update a@1->1", "add z@9 false"), every10.seen());
    assertEquals(List.of("add a@1 true", "update a@1->1", "add z@9 false"), every20.seen());
  }

  @Test
  void aRelistThatMissesAnObjectDeliversADeletionWithUnknownFinalState() throws Exception {
    AtomicInteger lists = new AtomicInteger();
    FakeListerWatcher source =
        new FakeListerWatcher(
            o ->
                lists.getAndIncrement() == 0
                    ? new ListResult<>(List.of(pod("ns", "a", "1"), pod("ns", "b", "1")), "1")
                    : new ListResult<>(List.of(pod("ns", "a", "1")), "5"));
    SharedIndexInformer<Unstructured> informer = informer(source, Duration.ZERO);
    Recorder recorder = new Recorder();
    informer.addEventHandler(recorder);
    informer.start();
    assertTrue(informer.awaitSynced());
    source.awaitWatch(0).send(expired());
    clock.awaitWaiters(1);
    clock.step(Duration.ofSeconds(2));
    recorder.awaitCount(3);
    assertEquals("delete b true", recorder.seen().get(2));
    assertEquals(List.of("ns/a"), informer.indexer().listKeys());
    assertEquals(3, recorder.seen().size(), "an unchanged object brings no notification");
  }

  @Test
  void removedHandlersHearNothingMoreAndStoppedInformersTakeNoHandlers() throws Exception {
    FakeListerWatcher source = new FakeListerWatcher(o -> new ListResult<>(List.of(), "1"));
    SharedIndexInformer<Unstructured> informer = informer(source, Duration.ZERO);
    Recorder kept = new Recorder();
    Recorder removed = new Recorder();
    informer.addEventHandler(kept);
    informer.removeEventHandler(informer.addEventHandler(removed));
    informer.start();
    assertTrue(informer.awaitSynced());
    source.awaitWatch(0).send(event(EventType.ADDED, pod("ns", "a", "2")));
    kept.awaitCount(1);
    assertEquals(List.of(), removed.seen());
    informer.stop();
    assertTrue(informer.isStopped());
    assertThrows(IllegalStateException.class, () -> informer.addEventHandler(new Recorder()));
  }

  @Test
  void theFactoryKeepsOneInformerPerResource() throws Exception {
    SharedInformerFactory factory = new SharedInformerFactory(Duration.ZERO, clock);
    GroupVersionResource pods = new GroupVersionResource("", "v1", "pods");
    AtomicInteger created = new AtomicInteger();
    SharedIndexInformer<Unstructured> first =
        factory.informerFor(
            pods,
            Unstructured.class,
            () -> {
              created.incrementAndGet();
              return new FakeListerWatcher(
                  o -> new ListResult<>(List.of(pod("ns", "a", "1")), "1"));
            });
    SharedIndexInformer<Unstructured> second =
        factory.informerFor(pods, Unstructured.class, () -> null);
    assertSame(first, second);
    assertEquals(1, created.get());
    IllegalArgumentException wrongType =
        assertThrows(
            IllegalArgumentException.class,
            () -> factory.informerFor(pods, String.class, () -> null));
    assertTrue(wrongType.getMessage().contains("java.lang.String"));
    factory.start();
    assertEquals(true, factory.waitForCacheSync().get(pods));
    assertEquals(
        1, first.lister().list(dev.machinery.unversioned.labels.Selector.everything()).size());
    factory.shutdown();
    assertTrue(first.isStopped());
  }
}
