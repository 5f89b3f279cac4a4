package dev.machinery.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.client.Client;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventSink;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes the runtime's events as core {@code v1} Events, as kube-controller-manager's controllers
 * do through client-go's {@code tools/record}: what {@code kubectl get events} and {@code kubectl
 * describe} list. The event's note is the message, the regarding object the involved object, the
 * reporting controller the source component; a repeat patches {@code count}, {@code lastTimestamp}
 * and {@code message}.
 *
 * <p>Thread-safe.
 */
final class CoreEventSink implements EventSink {
  private static final GroupVersionResource EVENTS = new GroupVersionResource("", "v1", "events");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ResourceClient<Unstructured> events;

  CoreEventSink(Client client) {
    this.events = client.resources(EVENTS);
  }

  @Override
  public Event create(Event event) {
    Unstructured written = events.inNamespace(event.namespace()).create(toCore(event));
    return event.withIdentity(written.getName(), written.getResourceVersion());
  }

  @Override
  public Event update(Event event) {
    Unstructured written = events.inNamespace(event.namespace()).update(toCore(event));
    return event.withIdentity(written.getName(), written.getResourceVersion());
  }

  @Override
  public Event patch(Event event, Map<String, Object> mergePatch) {
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("count", event.count());
    patch.put("lastTimestamp", time(event.lastTimestamp(), event.eventTime()));
    patch.put("message", event.note());
    String body;
    try {
      body = JSON.writeValueAsString(patch);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the patch of event " + event.name() + " is not JSON", e);
    }
    Unstructured written =
        events
            .inNamespace(event.namespace())
            .patch(event.name(), PatchType.MERGE, body, new PatchOptions());
    return event.withIdentity(written.getName(), written.getResourceVersion());
  }

  /** The event as a core v1 Event, with the fields tools/record fills. */
  static Unstructured toCore(Event event) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("apiVersion", "v1");
    content.put("kind", "Event");
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", event.name());
    metadata.put("namespace", event.namespace());
    if (!event.resourceVersion().isEmpty()) {
      metadata.put("resourceVersion", event.resourceVersion());
    }
    content.put("metadata", metadata);
    content.put("involvedObject", event.regarding().toMap());
    if (event.related() != null) {
      content.put("related", event.related().toMap());
    }
    content.put("reason", event.reason());
    content.put("message", event.note());
    content.put("type", event.type());
    content.put("source", Map.of("component", event.reportingController()));
    content.put("firstTimestamp", time(event.firstTimestamp(), event.eventTime()));
    content.put("lastTimestamp", time(event.lastTimestamp(), event.eventTime()));
    content.put("count", Math.max(1, event.count()));
    content.put("reportingComponent", event.reportingController());
    content.put("reportingInstance", event.reportingInstance());
    if (!event.action().isEmpty()) {
      content.put("action", event.action());
    }
    return new Unstructured(content);
  }

  private static String time(Instant preferred, Instant fallback) {
    Instant when = preferred != null ? preferred : fallback != null ? fallback : Instant.now();
    return new Time(when).toString();
  }
}
