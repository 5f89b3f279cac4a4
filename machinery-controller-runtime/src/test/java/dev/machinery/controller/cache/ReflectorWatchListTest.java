package dev.machinery.controller.cache;

import static dev.machinery.controller.cache.Objects2.bookmark;
import static dev.machinery.controller.cache.Objects2.event;
import static dev.machinery.controller.cache.Objects2.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * client-go's reflector with watch lists ({@code TestWatchList} of reflector_watchlist_test): the
 * round starts with a watch asking for its initial events, the store is replaced at the bookmark
 * annotated {@code k8s.io/initial-events-end} and the same watch goes on; a server that refuses it,
 * sends an error or ends the watch first gets a list and a watch instead. Off by default.
 */
class ReflectorWatchListTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final CacheIndexer<Unstructured> store = new CacheIndexer<>(Map.of());
  private Reflector<Unstructured> reflector;
  private Thread thread;

  private void start(ListerWatcher<Unstructured> source, boolean watchList) {
    reflector =
        new Reflector<>("pods", source, store, clock, Duration.ZERO, null).useWatchList(watchList);
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

  private static Event endOfInitialEvents(String resourceVersion) {
    Event marker = bookmark(resourceVersion);
    ((Unstructured) marker.object()).setAnnotations(Map.of(Reflector.INITIAL_EVENTS_END, "true"));
    return marker;
  }

  @Test
  void startsFromAWatchAndGoesOnWithIt() throws Exception {
    FakeListerWatcher source = new FakeListerWatcher(o -> new ListResult<>(List.of(), "1"));
    start(source, true);
    FakeListerWatcher.FakeWatch watch = source.awaitWatch(0);
    ListOptions options = source.watchOptions(0);
    assertEquals(Boolean.TRUE, options.getSendInitialEvents());
    assertEquals("NotOlderThan", options.getResourceVersionMatch());
    assertEquals("", options.getResourceVersion(), "the most recent state at first");
    assertTrue(options.isAllowWatchBookmarks());

    watch.send(event(EventType.ADDED, pod("ns", "a", "5")));
    watch.send(event(EventType.ADDED, pod("ns", "b", "6")));
    watch.send(bookmark("6"));
    // Nothing reaches the store before the end of the initial events.
    assertEquals(List.of(), store.listKeys());
    watch.send(endOfInitialEvents("8"));
    Poll.until("rv 8", () -> "8".equals(reflector.lastSyncResourceVersion()));
    assertEquals(List.of("ns/a", "ns/b"), store.listKeys().stream().sorted().toList());

    watch.send(event(EventType.MODIFIED, pod("ns", "a", "9")));
    watch.send(event(EventType.DELETED, pod("ns", "b", "10")));
    Poll.until("rv 10", () -> "10".equals(reflector.lastSyncResourceVersion()));
    assertEquals(List.of("ns/a"), store.listKeys());
    assertEquals(0, source.listCount(), "no list at all");
    assertEquals(1, source.watchCount(), "the same watch went on");

    // The watch ends: it is reopened from the last version seen, as a plain watch.
    watch.end();
    source.awaitWatch(1);
    assertEquals("10", source.watchOptions(1).getResourceVersion());
    assertNull(source.watchOptions(1).getSendInitialEvents());
    assertEquals(0, source.listCount());
  }

  @Test
  void aServerThatRefusesTheWatchListGetsAListAndAWatch() throws Exception {
    FakeListerWatcher fake =
        new FakeListerWatcher(o -> new ListResult<>(List.of(pod("ns", "a", "5")), "10"));
    ListerWatcher<Unstructured> refusing =
        new ListerWatcher<>() {
          @Override
          public ListResult<Unstructured> list(ListOptions options) {
            return fake.list(options);
          }

          @Override
          public WatchStream watch(ListOptions options) {
            if (options.getSendInitialEvents() != null) {
              throw ApiErrors.newInvalid(
                  GroupKind.of("meta.k8s.io", "ListOptions"),
                  "",
                  List.of(
                      FieldError.forbidden(
                          FieldPath.of("sendInitialEvents"),
                          "sendInitialEvents is forbidden for watch unless the WatchList feature"
                              + " gate is enabled")));
            }
            return fake.watch(options);
          }
        };
    start(refusing, true);
    fake.awaitWatch(0);
    assertEquals(1, fake.listCount());
    assertEquals("0", fake.list(0).getResourceVersion());
    assertEquals("10", fake.watchOptions(0).getResourceVersion());
    assertNull(fake.watchOptions(0).getSendInitialEvents());
    assertEquals(List.of("ns/a"), store.listKeys());
  }

  @Test
  void aWatchListThatEndsBeforeItsBookmarkFallsBackToAList() throws Exception {
    FakeListerWatcher source =
        new FakeListerWatcher(o -> new ListResult<>(List.of(pod("ns", "z", "3")), "12"));
    start(source, true);
    FakeListerWatcher.FakeWatch first = source.awaitWatch(0);
    first.send(event(EventType.ADDED, pod("ns", "a", "5")));
    first.end();
    source.awaitWatch(1);
    assertEquals(1, source.listCount());
    assertEquals(List.of("ns/z"), store.listKeys());
    assertEquals("12", source.watchOptions(1).getResourceVersion());
    assertNull(source.watchOptions(1).getSendInitialEvents());
  }

  @Test
  void offByDefault() throws Exception {
    FakeListerWatcher source = new FakeListerWatcher(o -> new ListResult<>(List.of(), "10"));
    Reflector<Unstructured> plain =
        new Reflector<>("pods", source, store, clock, Duration.ZERO, null);
    assertFalse(plain.usesWatchList());
    start(source, false);
    source.awaitWatch(0);
    assertEquals(1, source.listCount());
    assertNull(source.watchOptions(0).getSendInitialEvents());
  }
}
