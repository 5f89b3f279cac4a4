package dev.machinery.builtins;

import dev.machinery.apiserver.registry.rest.UnstructuredConversion;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts Events between the core group's {@code v1} and {@code events.k8s.io/v1}, which
 * kube-apiserver stores as one resource: both are kept as core {@code v1} Events under {@code
 * events/}, and each is read in the shape of the group asked for (Kubernetes' {@code
 * pkg/apis/events/v1} conversions). The two differ in names only: {@code involvedObject} is {@code
 * regarding}, {@code message} is {@code note}, {@code reportingComponent} is {@code
 * reportingController}, and {@code source}, {@code firstTimestamp}, {@code lastTimestamp} and
 * {@code count} carry the {@code deprecated} prefix; every other field keeps its name. Fields come
 * out in the order of the target version's Go type, as kube-apiserver writes them.
 *
 * <p>Thread-safe: stateless.
 */
final class EventConversion implements UnstructuredConversion {
  static final GroupVersion CORE_V1 = GroupVersion.of("", "v1");
  static final GroupVersion EVENTS_V1 = GroupVersion.of("events.k8s.io", "v1");
  static final GroupKind CORE_EVENT = GroupKind.of("", "Event");
  static final GroupKind EVENTS_EVENT = GroupKind.of("events.k8s.io", "Event");

  /** Core names to {@code events.k8s.io} names, for the fields whose names differ. */
  private static final Map<String, String> TO_EVENTS =
      Map.of(
          "involvedObject", "regarding",
          "message", "note",
          "reportingComponent", "reportingController",
          "source", "deprecatedSource",
          "firstTimestamp", "deprecatedFirstTimestamp",
          "lastTimestamp", "deprecatedLastTimestamp",
          "count", "deprecatedCount");

  private static final Map<String, String> TO_CORE = inverse(TO_EVENTS);

  /** The fields of core {@code v1} Event, in its Go type's order. */
  private static final List<String> CORE_ORDER =
      List.of(
          "apiVersion",
          "kind",
          "metadata",
          "involvedObject",
          "reason",
          "message",
          "source",
          "firstTimestamp",
          "lastTimestamp",
          "count",
          "type",
          "eventTime",
          "series",
          "action",
          "related",
          "reportingComponent",
          "reportingInstance");

  /** The fields of {@code events.k8s.io/v1} Event, in its Go type's order. */
  private static final List<String> EVENTS_ORDER =
      List.of(
          "apiVersion",
          "kind",
          "metadata",
          "eventTime",
          "series",
          "reportingController",
          "reportingInstance",
          "action",
          "reason",
          "regarding",
          "related",
          "note",
          "type",
          "deprecatedSource",
          "deprecatedFirstTimestamp",
          "deprecatedLastTimestamp",
          "deprecatedCount");

  private static Map<String, String> inverse(Map<String, String> names) {
    Map<String, String> out = new LinkedHashMap<>();
    names.forEach((from, to) -> out.put(to, from));
    return Map.copyOf(out);
  }

  @Override
  public void convert(Map<String, Object> object, GroupVersion to) {
    Object apiVersion = object.get("apiVersion");
    GroupVersion from = apiVersion instanceof String text ? GroupVersion.parse(text) : null;
    if (from == null || !(isEventVersion(from) && isEventVersion(to))) {
      throw new IllegalArgumentException(
          "an Event converts between v1 and events.k8s.io/v1, not from "
              + (from == null ? "an object without apiVersion" : from.toString())
              + " to "
              + to);
    }
    if (from.equals(to)) {
      return;
    }
    boolean toEvents = to.equals(EVENTS_V1);
    Map<String, Object> renamed =
        renamed(object, toEvents ? TO_EVENTS : TO_CORE, toEvents ? EVENTS_ORDER : CORE_ORDER);
    renamed.put("apiVersion", to.toString());
    object.clear();
    object.putAll(renamed);
  }

  /**
   * A copy of a core {@code v1} Event's fields in the shape of {@code events.k8s.io/v1}, or of an
   * {@code events.k8s.io/v1} Event's in the core shape, the values shared, the object unchanged.
   *
   * @param object the fields of an Event of the other shape
   * @param toEvents true for the {@code events.k8s.io} shape
   * @return the fields renamed, in the target's order
   */
  static Map<String, Object> view(Map<String, Object> object, boolean toEvents) {
    return renamed(object, toEvents ? TO_EVENTS : TO_CORE, toEvents ? EVENTS_ORDER : CORE_ORDER);
  }

  private static boolean isEventVersion(GroupVersion version) {
    return version.equals(CORE_V1) || version.equals(EVENTS_V1);
  }

  private static Map<String, Object> renamed(
      Map<String, Object> object, Map<String, String> names, List<String> order) {
    Map<String, Object> fields = new LinkedHashMap<>();
    Map<String, String> from = new LinkedHashMap<>();
    for (Map.Entry<String, Object> field : object.entrySet()) {
      String name = names.getOrDefault(field.getKey(), field.getKey());
      String earlier = from.putIfAbsent(name, field.getKey());
      if (earlier != null) {
        // Each shape's schema prunes the other's names, so both can be present only in an object
        // that bypassed it; neither value is dropped silently.
        throw new IllegalArgumentException(
            "the Event holds both " + earlier + " and " + field.getKey() + ", which are one field");
      }
      fields.put(name, field.getValue());
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (String name : order) {
      if (fields.containsKey(name)) {
        out.put(name, fields.remove(name));
      }
    }
    out.putAll(fields);
    return out;
  }
}
