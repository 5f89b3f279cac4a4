package dev.machinery.controller.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The recorder and broadcaster: create, then count patches, the fallback to create, refusals. */
class EventBroadcasterTest {
  /** An in-memory sink recording calls. */
  static final class MemorySink implements EventSink {
    final List<String> calls = new ArrayList<>();
    final List<Map<String, Object>> patches = new ArrayList<>();
    boolean patchNotFound;
    int version;

    @Override
    public synchronized Event create(Event event) {
      calls.add("create " + event.name());
      return event.withIdentity(event.name(), String.valueOf(++version));
    }

    @Override
    public synchronized Event update(Event event) {
      calls.add("update " + event.name());
      return event.withIdentity(event.name(), String.valueOf(++version));
    }

    @Override
    public synchronized Event patch(Event event, Map<String, Object> mergePatch) {
      calls.add("patch " + event.name());
      if (patchNotFound) {
        throw ApiErrors.newNotFound(new GroupResource("events.k8s.io", "events"), event.name());
      }
      patches.add(mergePatch);
      return event.withIdentity(event.name(), String.valueOf(++version));
    }
  }

  private static Unstructured pod() {
    Unstructured pod = new Unstructured();
    pod.setApiVersion("v1");
    pod.setKind("Pod");
    pod.setNamespace("ns");
    pod.setName("web-1");
    pod.setUid("u-1");
    return pod;
  }

  @Test
  void aRepeatedEventBecomesACountPatchOfTheWrittenOne() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    MemorySink sink = new MemorySink();
    try (EventBroadcaster broadcaster = new EventBroadcaster(sink, clock)) {
      EventRecorder recorder = broadcaster.newRecorder("example.com/widgets", "replica-1");
      Event first =
          recorder.eventf(pod(), null, Event.TYPE_WARNING, "FailedSync", "Syncing", "error %d", 42);
      assertEquals("ns", first.namespace());
      assertTrue(first.name().startsWith("web-1."));
      assertEquals("error 42", first.note());
      assertEquals("Pod", first.regarding().kind());
      broadcaster.flush();
      clock.step(Duration.ofSeconds(5));
      recorder.eventf(pod(), null, Event.TYPE_WARNING, "FailedSync", "Syncing", "error %d", 42);
      broadcaster.flush();
      assertEquals(List.of("create " + first.name(), "patch " + first.name()), sink.calls);
      Map<String, Object> patch = sink.patches.get(0);
      assertEquals(
          Map.of("series", Map.of("count", 2, "lastObservedTime", "2026-01-01T00:00:05.000000Z")),
          patch);
    }
  }

  @Test
  void aPatchThatFindsNothingCreatesTheEvent() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    MemorySink sink = new MemorySink();
    sink.patchNotFound = true;
    try (EventBroadcaster broadcaster = new EventBroadcaster(sink, clock)) {
      EventRecorder recorder = broadcaster.newRecorder("c", "i");
      Event first = recorder.eventf(pod(), null, Event.TYPE_NORMAL, "Created", "Create", "made it");
      broadcaster.flush();
      recorder.eventf(pod(), null, Event.TYPE_NORMAL, "Created", "Create", "made it");
      broadcaster.flush();
      assertEquals(
          List.of("create " + first.name(), "patch " + first.name(), "create " + first.name()),
          sink.calls);
    }
  }

  @Test
  void anUnknownTypeIsRefusedByName() {
    FakeClock clock = new FakeClock(Instant.EPOCH);
    try (EventBroadcaster broadcaster = new EventBroadcaster(new MemorySink(), clock)) {
      EventRecorder recorder = broadcaster.newRecorder("c", "i");
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> recorder.eventf(pod(), null, "Fatal", "R", "A", "n"));
      assertTrue(e.getMessage().contains("'Fatal'"));
      IllegalArgumentException noAction =
          assertThrows(
              IllegalArgumentException.class,
              () -> recorder.eventf(pod(), null, Event.TYPE_NORMAL, "R", "", "n"));
      assertEquals("event action is required", noAction.getMessage());
      IllegalArgumentException longReason =
          assertThrows(
              IllegalArgumentException.class,
              () -> recorder.eventf(pod(), null, Event.TYPE_NORMAL, "R".repeat(129), "A", "n"));
      assertTrue(longReason.getMessage().startsWith("event reason must be at most 128"));
    }
  }

  @Test
  void theEventAsAnEventsV1Object() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    ObjectReference regarding = ObjectReference.of(pod());
    Event event =
        new Event(
            "ns",
            "web-1.abc",
            "",
            t,
            "c",
            "i",
            "Create",
            "Created",
            "made it",
            Event.TYPE_NORMAL,
            regarding,
            null,
            3,
            t,
            t.plusSeconds(60));
    Unstructured object = event.toUnstructured();
    assertEquals("events.k8s.io/v1", object.getApiVersion());
    assertEquals("Event", object.getKind());
    assertEquals("web-1.abc", object.getName());
    assertEquals("Created", object.nestedString("reason").orElseThrow());
    assertEquals("made it", object.nestedString("note").orElseThrow());
    assertEquals("web-1", object.nestedString("regarding", "name").orElseThrow());
    assertEquals(3L, object.nestedLong("series", "count").orElseThrow());
    assertEquals(
        "2026-01-01T00:01:00.000000Z",
        object.nestedString("series", "lastObservedTime").orElseThrow());
    assertEquals("2026-01-01T00:00:00.000000Z", object.nestedString("eventTime").orElseThrow());
    // events.k8s.io/v1 refuses the deprecated fields on create
    for (String deprecated :
        List.of("deprecatedCount", "deprecatedFirstTimestamp", "deprecatedLastTimestamp")) {
      assertTrue(object.nested(deprecated).isEmpty(), deprecated);
    }
    Event single =
        new Event(
            "ns", "n", "", t, "c", "i", "A", "R", "x", Event.TYPE_NORMAL, regarding, null, 1, t, t);
    assertTrue(
        single.toUnstructured().nested("series").isEmpty(), "a first occurrence has no series");
  }
}
