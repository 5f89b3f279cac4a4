package dev.machinery.controller.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Manager;
import dev.machinery.controller.Predicates;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.ListResult;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.ListerWatcher;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.cache.WatchStream;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventBroadcaster;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.controller.events.EventSink;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The snippet of docs/controllers-runtime.md, compiled and run against an in-memory source. */
class WritingAControllerTest {
  // --- snippet: begin (docs/controllers-runtime.md, "Writing a controller") ---
  /** Reconciles widgets: reads the cache, acts, reports an event. */
  static final class WidgetReconciler implements Reconciler {
    private final Lister<Unstructured> widgets;
    private final EventRecorder events;

    WidgetReconciler(Lister<Unstructured> widgets, EventRecorder events) {
      this.widgets = widgets;
      this.events = events;
    }

    @Override
    public Result reconcile(Request request) {
      Optional<Unstructured> widget = widgets.namespace(request.namespace()).get(request.name());
      if (widget.isEmpty()) {
        return Result.done(); // deleted: owned objects go with it
      }
      // ... compare spec and status, create or update what is missing ...
      events.eventf(
          widget.get(),
          null,
          Event.TYPE_NORMAL,
          "Synced",
          "Reconcile",
          "widget %s is in sync",
          request.name());
      return Result.requeueAfter(Duration.ofMinutes(10)); // look again later
    }
  }

  static Manager run(ListerWatcher<Unstructured> source, EventSink sink) throws Exception {
    Manager manager = Manager.builder("widget-manager").build(); // .leaderElection(lock) to gate
    SharedIndexInformer<Unstructured> widgets =
        manager
            .informers()
            .informerFor(
                new GroupVersionResource("example.com", "v1", "widgets"),
                Unstructured.class,
                () -> source);
    EventBroadcaster broadcaster = new EventBroadcaster(sink, Clock.system());
    EventRecorder recorder = broadcaster.newRecorder("example.com/widget-controller", "replica-1");
    manager.add(
        Controller.builder("widgets", new WidgetReconciler(widgets.lister(), recorder))
            .watches(
                widgets,
                EventHandlers.enqueueRequestForObject(),
                List.of(Predicates.generationChanged()))
            .workers(2)
            .build());
    manager.start(); // informers, cache sync, then the controllers
    return manager; // manager.close() stops controllers, election and informers
  }

  // --- snippet: end ---

  @Test
  void theSnippetReconcilesAndRecords() throws Exception {
    Unstructured widget = new Unstructured();
    widget.setApiVersion("example.com/v1");
    widget.setKind("Widget");
    widget.setNamespace("ns");
    widget.setName("w");
    ListerWatcher<Unstructured> source =
        new ListerWatcher<>() {
          @Override
          public ListResult<Unstructured> list(ListOptions options) {
            return new ListResult<>(List.of(widget), "1");
          }

          @Override
          public WatchStream watch(ListOptions options) {
            return new WatchStream() {
              private final java.util.concurrent.CountDownLatch closed =
                  new java.util.concurrent.CountDownLatch(1);

              @Override
              public Optional<dev.machinery.unversioned.watch.Event> next()
                  throws InterruptedException {
                closed.await();
                return Optional.empty();
              }

              @Override
              public void close() {
                closed.countDown();
              }
            };
          }
        };
    List<Event> written = new CopyOnWriteArrayList<>();
    EventSink sink =
        new EventSink() {
          @Override
          public Event create(Event event) {
            written.add(event);
            return event.withIdentity(event.name(), "1");
          }

          @Override
          public Event update(Event event) {
            return event;
          }

          @Override
          public Event patch(Event event, Map<String, Object> mergePatch) {
            return event;
          }
        };
    try (Manager manager = run(source, sink)) {
      assertEquals(true, manager.isRunningControllers());
      for (int i = 0; i < 10_000 && written.isEmpty(); i++) {
        Thread.sleep(1);
      }
      if (written.isEmpty()) {
        fail("no event was written");
      }
      assertEquals("widget w is in sync", written.get(0).note());
      assertEquals("example.com/widget-controller", written.get(0).reportingController());
    }
  }
}
