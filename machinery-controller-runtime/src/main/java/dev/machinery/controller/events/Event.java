package dev.machinery.controller.events;

import dev.machinery.unversioned.meta.v1.MicroTime;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An {@code events.k8s.io/v1} Event, with the occurrence count and first and last times client-go's
 * correlator keeps ({@code count}, {@code firstTimestamp}, {@code lastTimestamp}). On the wire a
 * repeated event carries {@code series} ({@code count}, {@code lastObservedTime}); the {@code
 * deprecated*} fields stay unset, as the API server requires of {@code events.k8s.io/v1} writes.
 *
 * <p>Immutable; thread-safe.
 *
 * @param namespace the event's namespace (the regarding object's, or {@code default})
 * @param name the event's name
 * @param resourceVersion the event's resource version once written, or empty
 * @param eventTime when it first happened
 * @param reportingController the controller that reports it, such as {@code example.com/widgets}
 * @param reportingInstance the reporting replica
 * @param action what the controller did or failed to do
 * @param reason why, in CamelCase
 * @param note a human-readable description, at most 1KB
 * @param type {@code Normal} or {@code Warning}
 * @param regarding the object it is about
 * @param related a second object involved, or null
 * @param count how many times it happened
 * @param firstTimestamp when it first happened
 * @param lastTimestamp when it last happened
 */
public record Event(
    String namespace,
    String name,
    String resourceVersion,
    Instant eventTime,
    String reportingController,
    String reportingInstance,
    String action,
    String reason,
    String note,
    String type,
    ObjectReference regarding,
    ObjectReference related,
    int count,
    Instant firstTimestamp,
    Instant lastTimestamp) {
  /** The type of an event about normal operation. */
  public static final String TYPE_NORMAL = "Normal";

  /** The type of an event about a problem. */
  public static final String TYPE_WARNING = "Warning";

  /**
   * Checks the parts.
   *
   * @param namespace the namespace
   * @param name the name
   * @param resourceVersion the resource version
   * @param eventTime the event time
   * @param reportingController the reporting controller
   * @param reportingInstance the reporting instance
   * @param action the action
   * @param reason the reason
   * @param note the note
   * @param type the type
   * @param regarding the object it is about
   * @param related the related object
   * @param count the count
   * @param firstTimestamp the first time
   * @param lastTimestamp the last time
   */
  public Event {
    Objects.requireNonNull(regarding, "regarding");
    namespace = namespace == null ? "" : namespace;
    name = name == null ? "" : name;
    resourceVersion = resourceVersion == null ? "" : resourceVersion;
    reportingController = reportingController == null ? "" : reportingController;
    reportingInstance = reportingInstance == null ? "" : reportingInstance;
    action = action == null ? "" : action;
    reason = reason == null ? "" : reason;
    note = note == null ? "" : note;
    type = type == null ? "" : type;
  }

  /**
   * Returns a copy with a name and resource version, as the server returned it.
   *
   * @param newName the name
   * @param newResourceVersion the resource version
   * @return the copy
   */
  public Event withIdentity(String newName, String newResourceVersion) {
    return new Event(
        namespace,
        newName,
        newResourceVersion,
        eventTime,
        reportingController,
        reportingInstance,
        action,
        reason,
        note,
        type,
        regarding,
        related,
        count,
        firstTimestamp,
        lastTimestamp);
  }

  /**
   * Returns a copy with another count and first time.
   *
   * @param newCount the count
   * @param newFirst the first time
   * @return the copy
   */
  public Event withCount(int newCount, Instant newFirst) {
    return new Event(
        namespace,
        name,
        resourceVersion,
        eventTime,
        reportingController,
        reportingInstance,
        action,
        reason,
        note,
        type,
        regarding,
        related,
        newCount,
        newFirst,
        lastTimestamp);
  }

  /**
   * Returns a copy with another note.
   *
   * @param newNote the note
   * @return the copy
   */
  public Event withNote(String newNote) {
    return new Event(
        namespace,
        name,
        resourceVersion,
        eventTime,
        reportingController,
        reportingInstance,
        action,
        reason,
        newNote,
        type,
        regarding,
        related,
        count,
        firstTimestamp,
        lastTimestamp);
  }

  /**
   * Returns the event as an {@code events.k8s.io/v1} object.
   *
   * @return the object
   */
  public Unstructured toUnstructured() {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("apiVersion", "events.k8s.io/v1");
    content.put("kind", "Event");
    Map<String, Object> metadata = new LinkedHashMap<>();
    ObjectReference.put(metadata, "name", name);
    ObjectReference.put(metadata, "namespace", namespace);
    ObjectReference.put(metadata, "resourceVersion", resourceVersion);
    content.put("metadata", metadata);
    if (eventTime != null) {
      content.put("eventTime", new MicroTime(eventTime).toString());
    }
    ObjectReference.put(content, "reportingController", reportingController);
    ObjectReference.put(content, "reportingInstance", reportingInstance);
    ObjectReference.put(content, "action", action);
    ObjectReference.put(content, "reason", reason);
    ObjectReference.put(content, "note", note);
    ObjectReference.put(content, "type", type);
    content.put("regarding", regarding.toMap());
    if (related != null) {
      content.put("related", related.toMap());
    }
    if (count > 1) {
      content.put("series", series());
    }
    return new Unstructured(content);
  }

  /**
   * Returns what a repeated occurrence changes, as a JSON merge patch: the {@code series} (count
   * and last observed time). The note, like the other fields of an {@code events.k8s.io/v1} Event,
   * is immutable, so a combined event keeps the note it was created with.
   *
   * @return the patch
   */
  public Map<String, Object> countPatch() {
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("series", series());
    return patch;
  }

  private Map<String, Object> series() {
    Map<String, Object> series = new LinkedHashMap<>();
    series.put("count", count);
    series.put(
        "lastObservedTime",
        new MicroTime(lastTimestamp == null ? eventTime : lastTimestamp).toString());
    return series;
  }
}
