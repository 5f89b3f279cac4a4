package dev.machinery.controller.cache;

import static dev.machinery.controller.cache.Objects2.bookmark;
import static dev.machinery.controller.cache.Objects2.event;
import static dev.machinery.controller.cache.Objects2.expired;
import static dev.machinery.controller.cache.Objects2.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.watch.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** client-go's reflector_test: list then watch, resume, bookmarks, relist on 410, back-off. */
class ReflectorTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final CacheIndexer<Unstructured> store = new CacheIndexer<>(Map.of());
  private Reflector<Unstructured> reflector;
  private Thread thread;

  private void start(FakeListerWatcher source) {
    reflector = new Reflector<>("pods", source, store, clock, Duration.ZERO, null);
    thread = new Thread(reflector::run);
    thread.start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (reflector != null) {
      reflector.stop();
      thread.join();
    }
  }

  @Test
  void listsFromZeroThenWatchesFromTheListsVersion() throws Exception {
    FakeListerWatcher source =
        new FakeListerWatcher(o -> new ListResult<>(List.of(pod("ns", "a", "5")), "10"));
    start(source);
    FakeListerWatcher.FakeWatch watch = source.awaitWatch(0);
    assertEquals("0", source.list(0).getResourceVersion());
    assertEquals("10", source.watchOptions(0).getResourceVersion());
    assertTrue(source.watchOptions(0).isAllowWatchBookmarks());
    assertTrue(source.watchOptions(0).getTimeoutSeconds() >= 300);
    assertEquals(List.of("ns/a"), store.listKeys());

    watch.send(event(EventType.ADDED, pod("ns", "b", "11")));
    watch.send(event(EventType.MODIFIED, pod("ns", "a", "12")));
    watch.send(event(EventType.DELETED, pod("ns", "b", "13")));
    Poll.until("rv 13", () -> "13".equals(reflector.lastSyncResourceVersion()));
    assertEquals(List.of("ns/a"), store.listKeys());
    assertEquals("12", store.getByKey("ns/a").orElseThrow().getResourceVersion());
  }

  @Test
  void aWatchThatEndsIsReopenedFromTheLastSeenVersionWithoutARelist() throws Exception {
    FakeListerWatcher source = new FakeListerWatcher(o -> new ListResult<>(List.of(), "10"));
    start(source);
    FakeListerWatcher.FakeWatch first = source.awaitWatch(0);
    first.send(event(EventType.ADDED, pod("ns", "a", "15")));
    first.end();
    source.awaitWatch(1);
    assertEquals("15", source.watchOptions(1).getResourceVersion());
    assertEquals(1, source.listCount());
  }

  @Test
  void bookmarksMoveTheResourceVersion() throws Exception {
    FakeListerWatcher source = new FakeListerWatcher(o -> new ListResult<>(List.of(), "10"));
    start(source);
    FakeListerWatcher.FakeWatch first = source.awaitWatch(0);
    first.send(bookmark("42"));
    Poll.until("rv 42", () -> "42".equals(reflector.lastSyncResourceVersion()));
    first.end();
    source.awaitWatch(1);
    assertEquals("42", source.watchOptions(1).getResourceVersion());
    assertTrue(store.list().isEmpty(), "a bookmark is no object");
  }

  @Test
  void expiredWatchRelistsFromTheLastVersionThenFromLatestWhenThatIsGoneToo() throws Exception {
    AtomicInteger lists = new AtomicInteger();
    FakeListerWatcher source =
        new FakeListerWatcher(
            o -> {
              int n = lists.getAndIncrement();
              if (n == 0) {
                return new ListResult<>(List.of(pod("ns", "a", "5"), pod("ns", "b", "6")), "10");
              }
              if ("20".equals(o.getResourceVersion())) {
                // as a client may throw it: the Status as the cause of its own exception
                throw new IllegalStateException(
                    "list failed",
                    ApiErrors.newResourceExpired("too old resource version: 20 (30)"));
              }
              return new ListResult<>(List.of(pod("ns", "a", "25")), "30");
            });
    start(source);
    FakeListerWatcher.FakeWatch first = source.awaitWatch(0);
    first.send(event(EventType.MODIFIED, pod("ns", "b", "20")));
    first.send(expired());
    // the round ends; the next starts after a back-off
    clock.awaitWaiters(1);
    clock.step(Duration.ofSeconds(2));
    source.awaitWatch(1);
    assertEquals(3, source.listCount());
    assertEquals("0", source.list(0).getResourceVersion());
    assertEquals("20", source.list(1).getResourceVersion());
    assertEquals("", source.list(2).getResourceVersion());
    assertEquals("30", source.watchOptions(1).getResourceVersion());
    assertEquals(List.of("ns/a"), store.listKeys(), "the relist replaced the content");
  }

  @Test
  void failedListsBackOffOnTheClock() throws Exception {
    AtomicInteger lists = new AtomicInteger();
    FakeListerWatcher source =
        new FakeListerWatcher(
            o -> {
              if (lists.getAndIncrement() < 2) {
                throw ApiErrors.newServiceUnavailable("not yet");
              }
              return new ListResult<>(List.of(), "7");
            });
    start(source);
    clock.awaitWaiters(1);
    assertEquals(1, source.listCount(), "waits for the clock before listing again");
    clock.step(Duration.ofMillis(1600));
    Poll.until("second list", () -> source.listCount() == 2);
    clock.awaitWaiters(1);
    clock.step(Duration.ofMillis(3200));
    source.awaitWatch(0);
    assertEquals("7", source.watchOptions(0).getResourceVersion());
  }

  @Test
  void resyncsEachPeriodWhenAskedTo() throws Exception {
    AtomicInteger resyncs = new AtomicInteger();
    AtomicBoolean allow = new AtomicBoolean(true);
    DeltaFIFO<Unstructured> fifo = new DeltaFIFO<>(Keys::metaNamespaceKey, store);
    FakeListerWatcher source =
        new FakeListerWatcher(o -> new ListResult<>(List.of(pod("ns", "a", "1")), "1"));
    reflector =
        new Reflector<>(
            "pods",
            source,
            fifo,
            clock,
            Duration.ofSeconds(30),
            () -> {
              resyncs.incrementAndGet();
              return allow.get();
            });
    thread = new Thread(reflector::run);
    thread.start();
    source.awaitWatch(0);
    fifo.pop((deltas, initial) -> deltas.forEach(d -> store.add(d.object())));
    clock.awaitWaiters(1);
    clock.step(Duration.ofSeconds(30));
    assertEquals(1, resyncs.get());
    assertEquals(List.of(DeltaType.SYNC), fifo.deltas("ns/a").stream().map(Delta::type).toList());
    fifo.pop((deltas, initial) -> {});
    allow.set(false);
    clock.awaitWaiters(1);
    clock.step(Duration.ofSeconds(30));
    assertEquals(2, resyncs.get());
    assertEquals(0, fifo.size(), "no resync when shouldResync says no");
  }

  @Test
  void pagesAreFollowed() throws Exception {
    FakeListerWatcher source =
        new FakeListerWatcher(
            o ->
                o.getContinue() == null
                    ? new ListResult<>(List.of(pod("ns", "a", "1")), "9", "page2")
                    : new ListResult<>(List.of(pod("ns", "b", "2")), "9", null));
    start(source);
    source.awaitWatch(0);
    assertEquals("page2", source.list(1).getContinue());
    assertEquals(2, store.list().size());
  }
}
