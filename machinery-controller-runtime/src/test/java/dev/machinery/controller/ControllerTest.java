package dev.machinery.controller;

import static dev.machinery.controller.InMemorySource.object;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.cache.CacheIndexer;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.clock.FakeClock;
import dev.machinery.controller.workqueue.RateLimiters;
import dev.machinery.controller.workqueue.RateLimitingWorkQueue;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The controller: handlers, predicates, requeues, failures and the one-worker-per-request rule. */
class ControllerTest {
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private final List<Controller> controllers = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Controller controller : controllers) {
      controller.stop();
    }
    for (SharedIndexInformer<?> informer : informers) {
      informer.stop();
    }
  }

  private SharedIndexInformer<Unstructured> informer(InMemorySource source) {
    SharedIndexInformer<Unstructured> informer =
        new SharedIndexInformer<>(
            "widgets", source, Duration.ZERO, CacheIndexer.namespaceIndexers(), Clock.system());
    informers.add(informer);
    informer.start();
    return informer;
  }

  private Controller start(Controller.Builder builder) throws InterruptedException {
    Controller controller = builder.build();
    controllers.add(controller);
    controller.start();
    return controller;
  }

  private static long count(List<Request> requests, Request request) {
    return requests.stream().filter(request::equals).count();
  }

  @Test
  void everyObjectIsReconciledAfterTheCacheSyncsAndAgainWhenItChanges() throws Exception {
    InMemorySource source = new InMemorySource();
    source.put(object("Widget", "ns", "a"));
    source.put(object("Widget", "ns", "b"));
    SharedIndexInformer<Unstructured> widgets = informer(source);
    List<Request> seen = new CopyOnWriteArrayList<>();
    start(
        Controller.builder(
                "widgets",
                r -> {
                  seen.add(r);
                  return Result.done();
                })
            .watches(widgets, EventHandlers.enqueueRequestForObject()));
    Poll.until("two reconciles", () -> seen.size() >= 2);
    assertEquals(Set.of(new Request("ns", "a"), new Request("ns", "b")), Set.copyOf(seen));
    Unstructured changed = object("Widget", "ns", "a");
    changed.setLabels(Map.of("x", "y"));
    source.put(changed);
    Poll.until("a again", () -> count(seen, new Request("ns", "a")) == 2);
    source.delete("ns", "b");
    Poll.until("b deleted", () -> count(seen, new Request("ns", "b")) == 2);
  }

  @Test
  void generationChangedPredicateDropsStatusOnlyWrites() throws Exception {
    InMemorySource source = new InMemorySource();
    source.put(object("Widget", "ns", "a"));
    SharedIndexInformer<Unstructured> widgets = informer(source);
    List<Request> seen = new CopyOnWriteArrayList<>();
    start(
        Controller.builder(
                "widgets",
                r -> {
                  seen.add(r);
                  return Result.done();
                })
            .watches(
                widgets,
                EventHandlers.enqueueRequestForObject(),
                List.of(Predicates.generationChanged())));
    Poll.until("first reconcile", () -> seen.size() == 1);
    Unstructured statusOnly = object("Widget", "ns", "a");
    statusOnly.setField("status", Map.of("ready", true));
    source.put(statusOnly);
    Unstructured specChange = object("Widget", "ns", "a");
    specChange.setGeneration(2);
    source.put(specChange);
    Poll.until("spec change reconciled", () -> seen.size() == 2);
    Poll.until(
        "cache has generation 2",
        () -> widgets.indexer().getByKey("ns/a").orElseThrow().getGeneration() == 2);
    assertEquals(2, seen.size(), "the status-only write brought no reconcile");
  }

  @Test
  void ownedObjectsEnqueueTheirControllingOwner() throws Exception {
    InMemorySource parents = new InMemorySource();
    InMemorySource children = new InMemorySource();
    parents.put(object("Widget", "ns", "parent"));
    SharedIndexInformer<Unstructured> parentInformer = informer(parents);
    SharedIndexInformer<Unstructured> childInformer = informer(children);
    List<Request> seen = new CopyOnWriteArrayList<>();
    start(
        Controller.builder(
                "widgets",
                r -> {
                  seen.add(r);
                  return Result.done();
                })
            .watches(parentInformer, EventHandlers.enqueueRequestForObject())
            .watches(
                childInformer,
                EventHandlers.enqueueRequestForOwner("example.com", "Widget", true, true)));
    Poll.until("parent reconciled", () -> seen.size() == 1);

    Unstructured child = object("Part", "ns", "child");
    OwnerReference controllerRef = owner("example.com/v2", "Widget", "parent", true);
    OwnerReference notController = owner("example.com/v1", "Widget", "other", false);
    OwnerReference otherGroup = owner("other.io/v1", "Widget", "foreign", true);
    child.setOwnerReferences(List.of(controllerRef, notController, otherGroup));
    children.put(child);
    Poll.until("parent reconciled for its child", () -> seen.size() == 2);
    assertEquals(new Request("ns", "parent"), seen.get(1));
  }

  @Test
  void theOwnerHandlerPicksOwnersByGroupKindAndControllerFlag() {
    RateLimitingWorkQueue<Request> queue =
        new RateLimitingWorkQueue<>(
            RateLimiters.defaultItemBasedRateLimiter(), Clock.system(), "t");
    try {
      Unstructured child = object("Part", "ns", "child");
      child.setOwnerReferences(
          List.of(
              owner("example.com/v2", "Widget", "parent", true),
              owner("example.com/v1", "Widget", "other", false),
              owner("other.io/v1", "Widget", "foreign", true),
              owner("example.com/v1", "Gadget", "gadget", true)));
      EventHandlers.<Unstructured>enqueueRequestForOwner("example.com", "Widget", true, true)
          .create(child, queue);
      assertEquals(1, queue.len());
      EventHandlers.<Unstructured>enqueueRequestForOwner("example.com", "Widget", false, false)
          .delete(child, true, queue);
      assertEquals(3, queue.len(), "ns/parent, parent and other");
      EventHandlers.<Unstructured>enqueueRequestForOwner("example.com", "Widget", true, true)
          .create(object("Part", "ns", "orphan"), queue);
      assertEquals(3, queue.len(), "an object without owners enqueues nothing");
      Unstructured renamed = object("Widget", "ns", "new-name");
      EventHandlers.<Unstructured>enqueueRequestForObject()
          .update(object("Widget", "ns", "old-name"), renamed, queue);
      assertEquals(5, queue.len());
    } finally {
      queue.shutDown();
    }
  }

  private static OwnerReference owner(
      String apiVersion, String kind, String name, boolean controller) {
    OwnerReference reference = new OwnerReference();
    reference.setApiVersion(apiVersion);
    reference.setKind(kind);
    reference.setName(name);
    reference.setUid("uid-" + name);
    reference.setController(controller);
    return reference;
  }

  @Test
  void failuresAreRetriedThroughTheRateLimiterAndTerminalOnesAreNot() throws Exception {
    InMemorySource source = new InMemorySource();
    source.put(object("Widget", "ns", "flaky"));
    source.put(object("Widget", "ns", "broken"));
    SharedIndexInformer<Unstructured> widgets = informer(source);
    AtomicInteger flakyCalls = new AtomicInteger();
    AtomicInteger brokenCalls = new AtomicInteger();
    Controller controller =
        start(
            Controller.builder(
                    "widgets",
                    r -> {
                      if (r.name().equals("broken")) {
                        brokenCalls.incrementAndGet();
                        throw new TerminalException("cannot ever work");
                      }
                      if (flakyCalls.incrementAndGet() < 3) {
                        throw new IllegalStateException("not yet");
                      }
                      return Result.done();
                    })
                .rateLimiter(
                    RateLimiters.itemExponentialFailure(Duration.ofMillis(1), Duration.ofMillis(4)))
                .watches(widgets, EventHandlers.enqueueRequestForObject()));
    Poll.until("third attempt", () -> flakyCalls.get() == 3);
    Poll.until("forgotten", () -> controller.queue().numRequeues(new Request("ns", "flaky")) == 0);
    assertEquals(1, brokenCalls.get());
    assertEquals(0, controller.queue().numRequeues(new Request("ns", "broken")));
  }

  @Test
  void requeueAfterComesBackWhenTheClockSaysSo() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    InMemorySource source = new InMemorySource();
    source.put(object("Widget", "ns", "a"));
    SharedIndexInformer<Unstructured> widgets = informer(source);
    AtomicInteger calls = new AtomicInteger();
    Controller controller =
        start(
            Controller.builder(
                    "widgets",
                    r -> {
                      calls.incrementAndGet();
                      return Result.requeueAfter(Duration.ofMinutes(1));
                    })
                .clock(clock)
                .watches(widgets, EventHandlers.enqueueRequestForObject()));
    Poll.until("first", () -> calls.get() == 1);
    clock.awaitWaiters(1);
    assertEquals(1, calls.get());
    clock.step(Duration.ofMinutes(1));
    Poll.until("second", () -> calls.get() == 2);
    assertEquals(0, controller.queue().numRequeues(new Request("ns", "a")));
  }

  @Test
  void equalRequestsNeverMeetTwoWorkers() throws Exception {
    InMemorySource source = new InMemorySource();
    for (int i = 0; i < 4; i++) {
      source.put(object("Widget", "ns", "w" + i));
    }
    SharedIndexInformer<Unstructured> widgets = informer(source);
    Set<Request> inFlight = ConcurrentHashMap.newKeySet();
    AtomicBoolean overlap = new AtomicBoolean();
    Map<Request, String> lastSeen = new ConcurrentHashMap<>();
    start(
        Controller.builder(
                "widgets",
                r -> {
                  if (!inFlight.add(r)) {
                    overlap.set(true);
                  }
                  Thread.sleep(0, 100_000);
                  Map<String, String> labels =
                      widgets.indexer().getByKey(r.toString()).orElseThrow().getLabels();
                  lastSeen.put(r, labels == null ? "" : labels.getOrDefault("round", ""));
                  inFlight.remove(r);
                  return Result.done();
                })
            .workers(8)
            .watches(widgets, EventHandlers.enqueueRequestForObject()));
    for (int round = 0; round < 200; round++) {
      Unstructured changed = object("Widget", "ns", "w" + (round % 4));
      changed.setLabels(Map.of("round", String.valueOf(round)));
      source.put(changed);
    }
    // every widget's last change is reconciled after it reached the cache, however the queue
    // folded the changes before it
    for (int i = 0; i < 4; i++) {
      Request request = new Request("ns", "w" + i);
      String last = String.valueOf(196 + i);
      Poll.until(
          request + " reconciled at round " + last, () -> last.equals(lastSeen.get(request)));
    }
    assertFalse(overlap.get(), "a request was reconciled by two workers at once");
  }

  @Test
  void aControllerWatchingNothingIsRefused() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> Controller.builder("empty", r -> Result.done()).build());
    assertTrue(e.getMessage().contains("empty"));
    assertThrows(
        IllegalArgumentException.class,
        () -> Controller.builder("x", r -> Result.done()).workers(0));
  }
}
