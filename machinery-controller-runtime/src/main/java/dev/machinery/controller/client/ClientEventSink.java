package dev.machinery.controller.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.client.Client;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventSink;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.Map;
import java.util.Objects;

/**
 * An {@link EventSink} writing {@code events.k8s.io/v1} Events through a client ({@code
 * typed/events/v1 EventSinkImpl}): creates and updates send the whole event, count patches are JSON
 * merge patches.
 *
 * <p>Thread-safe.
 */
public final class ClientEventSink implements EventSink {
  /** The Events resource. */
  public static final GroupVersionResource EVENTS =
      new GroupVersionResource("events.k8s.io", "v1", "events");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ResourceClient<Unstructured> events;

  /**
   * Creates a sink.
   *
   * @param client the client
   */
  public ClientEventSink(Client client) {
    this.events = Objects.requireNonNull(client, "client").resources(EVENTS);
  }

  @Override
  public Event create(Event event) {
    Unstructured written = events.inNamespace(event.namespace()).create(event.toUnstructured());
    return event.withIdentity(written.getName(), written.getResourceVersion());
  }

  @Override
  public Event update(Event event) {
    Unstructured written = events.inNamespace(event.namespace()).update(event.toUnstructured());
    return event.withIdentity(written.getName(), written.getResourceVersion());
  }

  @Override
  public Event patch(Event event, Map<String, Object> mergePatch) {
    String body;
    try {
      body = JSON.writeValueAsString(mergePatch);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the patch of event " + event.name() + " is not JSON", e);
    }
    Unstructured written =
        events
            .inNamespace(event.namespace())
            .patch(event.name(), PatchType.MERGE, body, new PatchOptions());
    return event.withIdentity(written.getName(), written.getResourceVersion());
  }
}
