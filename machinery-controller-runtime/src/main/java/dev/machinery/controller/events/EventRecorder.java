package dev.machinery.controller.events;

import dev.machinery.controller.clock.Clock;
import dev.machinery.core.runtime.ApiObject;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * Records events about objects for one controller replica ({@code events.EventRecorder}). The event
 * is built at once and written later by the {@link EventBroadcaster}.
 *
 * <p>Thread-safe.
 */
public final class EventRecorder {
  private final EventBroadcaster broadcaster;
  private final Clock clock;
  private final String reportingController;
  private final String reportingInstance;

  EventRecorder(
      EventBroadcaster broadcaster,
      Clock clock,
      String reportingController,
      String reportingInstance) {
    this.broadcaster = broadcaster;
    this.clock = clock;
    this.reportingController = Objects.requireNonNull(reportingController, "reportingController");
    this.reportingInstance = Objects.requireNonNull(reportingInstance, "reportingInstance");
  }

  /**
   * Records an event ({@code Eventf}).
   *
   * @param regarding the object it is about
   * @param related a second object involved, or null
   * @param type {@link Event#TYPE_NORMAL} or {@link Event#TYPE_WARNING}
   * @param reason why, in CamelCase, such as {@code FailedScheduling}
   * @param action what was done or tried, such as {@code Scheduling}
   * @param noteFormat the note, a {@link String#format} pattern
   * @param args the pattern's arguments
   * @return the event as built, before correlation
   * @throws IllegalArgumentException when the type is neither {@code Normal} nor {@code Warning},
   *     or the reason or action is empty or longer than 128 characters (the API server's limits)
   */
  public Event eventf(
      ApiObject regarding,
      ApiObject related,
      String type,
      String reason,
      String action,
      String noteFormat,
      Object... args) {
    Objects.requireNonNull(regarding, "regarding");
    if (!Event.TYPE_NORMAL.equals(type) && !Event.TYPE_WARNING.equals(type)) {
      throw new IllegalArgumentException(
          "unsupported event type: '" + type + "' (Normal or Warning)");
    }
    requireShort("reason", reason);
    requireShort("action", action);
    Instant now = clock.now();
    ObjectReference regardingRef = ObjectReference.of(regarding);
    String namespace = regardingRef.namespace().isEmpty() ? "default" : regardingRef.namespace();
    String note = args.length == 0 ? noteFormat : String.format(Locale.ROOT, noteFormat, args);
    Event event =
        new Event(
            namespace,
            regardingRef.name() + "." + Long.toHexString(EventCorrelator.unixNanos(now)),
            "",
            now,
            reportingController,
            reportingInstance,
            action,
            reason,
            note,
            type,
            regardingRef,
            related == null ? null : ObjectReference.of(related),
            1,
            now,
            now);
    broadcaster.submit(event);
    return event;
  }

  private static void requireShort(String field, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("event " + field + " is required");
    }
    if (value.length() > 128) {
      throw new IllegalArgumentException(
          "event " + field + " must be at most 128 characters: \"" + value + "\"");
    }
  }
}
