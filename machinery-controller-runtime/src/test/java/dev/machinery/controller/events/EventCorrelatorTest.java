package dev.machinery.controller.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** client-go's events_cache_test, carried over to events.k8s.io/v1 events. */
class EventCorrelatorTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  static ObjectReference ref(String kind, String name, String namespace) {
    return new ObjectReference(
        "version", kind, namespace, name, "C934D34AFB20242", "", "spec.containers{mycontainer}");
  }

  static Event event(String reason, String note, ObjectReference regarding) {
    return new Event(
        regarding.namespace(),
        "",
        "",
        START,
        "kubelet",
        "kublet.node1",
        "",
        reason,
        note,
        Event.TYPE_NORMAL,
        regarding,
        null,
        1,
        START,
        START);
  }

  static Event withRegarding(Event e, ObjectReference regarding) {
    return new Event(
        e.namespace(),
        e.name(),
        e.resourceVersion(),
        e.eventTime(),
        e.reportingController(),
        e.reportingInstance(),
        e.action(),
        e.reason(),
        e.note(),
        e.type(),
        regarding,
        e.related(),
        e.count(),
        e.firstTimestamp(),
        e.lastTimestamp());
  }

  static List<Event> repeat(int n, Event template) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      events.add(template);
    }
    return events;
  }

  static List<Event> unique(int n) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      events.add(event("reason-" + i, "message-" + i, ref("Pod", "pod-" + i, "ns-" + i)));
    }
    return events;
  }

  static List<Event> similar(int n, Event template, String prefix) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      events.add(template.withNote(prefix + "-" + i + "-" + template.note()));
    }
    return events;
  }

  record Scenario(
      String name,
      List<Event> previous,
      Event newEvent,
      Event expected,
      int expectedCount,
      int intervalSeconds,
      boolean expectedSkip) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Scenario> scenarios() {
    ObjectReference pod = ref("Pod", "my-pod", "my-ns");
    Event first = event("first", "i am first", pod);
    Event duplicate = event("duplicate", "me again", pod);
    Event uniqueEvent = event("unique", "snowflake", pod);
    Event similarEvent =
        event("similar", "similar message", pod.withFieldPath("spec.containers{container1}"));
    Event aggregate =
        event(
            similarEvent.reason(),
            EventCorrelator.combinedNote(similarEvent),
            similarEvent.regarding());
    Event otherContainer =
        withRegarding(similarEvent, pod.withFieldPath("spec.containers{container2}"));
    int max = EventCorrelator.DEFAULT_AGGREGATE_MAX_EVENTS;
    return List.of(
        new Scenario("create-a-single-event", List.of(), first, first, 1, 5, false),
        new Scenario(
            "the-same-event-should-just-count",
            repeat(1, duplicate),
            duplicate,
            duplicate,
            2,
            5,
            false),
        new Scenario(
            "the-same-event-should-just-count-even-if-more-than-aggregate",
            repeat(max, duplicate),
            duplicate,
            duplicate,
            max + 1,
            30,
            false),
        new Scenario(
            "the-same-event-is-spam-if-happens-too-frequently",
            repeat(EventCorrelator.DEFAULT_SPAM_BURST + 1, duplicate),
            duplicate,
            null,
            0,
            1,
            true),
        new Scenario(
            "create-many-unique-events", unique(30), uniqueEvent, uniqueEvent, 1, 5, false),
        new Scenario(
            "similar-events-should-aggregate-event",
            similar(max - 1, similarEvent, similarEvent.note()),
            similarEvent,
            aggregate,
            1,
            5,
            false),
        new Scenario(
            "similar-events-many-times-should-count-the-aggregate",
            similar(max, similarEvent, similarEvent.note()),
            similarEvent,
            aggregate,
            2,
            5,
            false),
        new Scenario(
            "events-from-different-containers-do-not-aggregate",
            repeat(1, otherContainer),
            similarEvent,
            similarEvent,
            1,
            5,
            false),
        new Scenario(
            "similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate",
            similar(max - 1, similarEvent, similarEvent.note()),
            similarEvent,
            similarEvent,
            1,
            (int) EventCorrelator.DEFAULT_AGGREGATE_INTERVAL.toSeconds(),
            false));
  }

  private static Event stamped(Event e, Instant now) {
    return new Event(
        e.namespace(),
        e.name(),
        e.resourceVersion(),
        now,
        e.reportingController(),
        e.reportingInstance(),
        e.action(),
        e.reason(),
        e.note(),
        e.type(),
        e.regarding(),
        e.related(),
        e.count(),
        now,
        now);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void eventCorrelator(Scenario scenario) {
    IntervalClock clock = new IntervalClock(START, Duration.ofSeconds(scenario.intervalSeconds()));
    EventCorrelator correlator = new EventCorrelator(clock);
    int written = 0;
    for (Event previous : scenario.previous()) {
      EventCorrelator.Result result = correlator.correlate(stamped(previous, clock.now()));
      if (!result.skip()) {
        // the server names what it stores
        Event stored =
            result.event().name().isEmpty()
                ? result.event().withIdentity("event-" + written++, "1")
                : result.event();
        correlator.updateState(stored);
      }
    }
    EventCorrelator.Result result = correlator.correlate(stamped(scenario.newEvent(), clock.now()));
    assertEquals(scenario.expectedSkip(), result.skip());
    if (scenario.expectedSkip()) {
      assertNull(result.event());
      return;
    }
    Event actual = result.event();
    Event expected = scenario.expected();
    assertEquals(scenario.expectedCount(), actual.count());
    assertEquals(expected.note(), actual.note());
    assertEquals(expected.reason(), actual.reason());
    assertEquals(expected.type(), actual.type());
    assertEquals(expected.regarding(), actual.regarding());
    assertNotNull(actual.firstTimestamp());
    assertNotNull(actual.lastTimestamp());
    if (scenario.expectedCount() > 1) {
      assertNotEquals(
          actual.firstTimestamp(), actual.lastTimestamp(), "a count keeps the first time");
      assertNotNull(result.patch());
      // events.k8s.io/v1 keeps the note immutable and the deprecated fields unset: only the
      // series changes
      assertEquals(Set.of("series"), result.patch().keySet());
      assertEquals(
          scenario.expectedCount(), ((Map<?, ?>) result.patch().get("series")).get("count"));
    } else {
      assertEquals(actual.firstTimestamp(), actual.lastTimestamp());
      assertNull(result.patch());
    }
  }

  @Test
  void aggregatorKeysSplitByReasonButNotByNote() {
    ObjectReference pod = ref("Pod", "pod1", "other");
    Event one = event("end-of-world", "it was fun", pod);
    Event two = event("end-of-world", "it was awful", pod);
    Event three = event("nevermind", "it was a bug", pod);
    assertEquals(EventCorrelator.aggregateKey(one), EventCorrelator.aggregateKey(two));
    assertNotEquals(one.note(), two.note());
    assertNotEquals(EventCorrelator.aggregateKey(one), EventCorrelator.aggregateKey(three));
    assertTrue(EventCorrelator.combinedNote(one).startsWith("(combined from similar events): "));
  }

  static List<Object[]> spamCases() {
    Function<Event, String> byObjectAndReason =
        e -> {
          ObjectReference r = e.regarding();
          return String.join(
              "",
              e.reportingController(),
              e.reportingInstance(),
              r.kind(),
              r.namespace(),
              r.name(),
              r.uid(),
              r.apiVersion(),
              e.reason());
        };
    ObjectReference pod = ref("Pod", "my-pod", "my-ns");
    Event differentReason = event("duplicate", "me again", pod);
    Event spam = event("original", "me again", pod);
    return List.of(
        new Object[] {"same object is spam for the default filter", differentReason, true, null},
        new Object[] {
          "a different reason is no spam for a filter keyed by reason",
          differentReason,
          false,
          byObjectAndReason
        },
        new Object[] {
          "the same reason with another note is spam for a filter keyed by reason",
          spam,
          true,
          byObjectAndReason
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("spamCases")
  void eventSpamFilter(
      String name, Event newEvent, boolean expectedSkip, Function<Event, String> key) {
    IntervalClock clock = new IntervalClock(START, Duration.ofSeconds(1));
    EventCorrelator correlator =
        new EventCorrelator(
            clock,
            1,
            EventCorrelator.DEFAULT_SPAM_QPS,
            key == null ? EventCorrelator::spamKey : key);
    Event original = event("original", "i am first", ref("Pod", "my-pod", "my-ns"));
    EventCorrelator.Result first = correlator.correlate(original);
    assertFalse(first.skip());
    correlator.updateState(first.event().withIdentity("e1", "1"));
    EventCorrelator.Result result = correlator.correlate(newEvent);
    assertEquals(expectedSkip, result.skip());
    if (!expectedSkip) {
      assertEquals(newEvent.note(), result.event().note());
      assertEquals(1, result.event().count());
    }
  }
}
