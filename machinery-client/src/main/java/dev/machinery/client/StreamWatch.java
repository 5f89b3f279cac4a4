package dev.machinery.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.client.transport.TransportResponse;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.JsonValueStream;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;

/**
 * A watch read from an {@code application/json;stream=watch} response, one frame at a time in the
 * memory of one event (the library's {@link JsonValueStream}); objects decoded by the resource
 * client's {@link ObjectKind}, so typed and {@code Unstructured} watches read alike. One thread
 * reads; {@link #close()} from any thread ends a waiting read.
 *
 * @param <T> the objects' class
 */
final class StreamWatch<T> implements Watch<T> {
  private final TransportResponse response;
  private final java.util.function.Function<JsonNode, T> decoder;
  private final Codecs codecs;
  private JsonValueStream frames;
  private volatile boolean closed;
  private boolean ended;
  private Event pending;
  private String resourceVersion;

  StreamWatch(
      TransportResponse response,
      ObjectKind<T> objects,
      GroupVersionKind kind,
      Codecs codecs,
      String resourceVersion) {
    this.response = response;
    this.decoder = objects.itemDecoder(kind);
    this.codecs = codecs;
    this.resourceVersion = resourceVersion;
  }

  @Override
  public boolean hasNext() {
    if (pending != null) {
      return true;
    }
    if (ended) {
      return false;
    }
    JsonNode frame;
    try {
      if (frames == null && !closed) {
        // opened on the first read: the parser reads the stream's first bytes when created
        frames = JsonValueStream.of(response.body(), codecs.limits);
      }
      frame = closed ? null : frames.next();
    } catch (UncheckedIOException broken) {
      if (stop()) {
        return false; // closed by the caller: the read was cut short on purpose
      }
      throw new TransportException("the watch's stream broke: " + broken.getMessage(), broken);
    } catch (RuntimeException garbled) {
      if (stop()) {
        return false;
      }
      throw garbled;
    }
    if (frame == null) {
      ended = true;
      close();
      return false;
    }
    String where = "event " + frames.count() + " of the watch";
    JsonNode type = frame.get("type");
    JsonNode object = frame.get("object");
    if (!frame.isObject()
        || type == null
        || !type.isTextual()
        || object == null
        || !object.isObject()) {
      ended = true;
      close();
      throw new DecodeException(
          where + ": a watch event is an object with a \"type\" string and an \"object\"", "");
    }
    EventType eventType =
        EventType.fromWireName(type.textValue())
            .orElseThrow(
                () ->
                    new DecodeException(
                        where
                            + ": unknown event type \""
                            + type.textValue()
                            + "\" (expected ADDED, MODIFIED, DELETED, BOOKMARK or ERROR)",
                        "type"));
    if (eventType == EventType.ERROR) {
      ended = true;
      close();
      Status status = codecs.metaJson.decode(ObjectKind.bytes(object), Status.class).object();
      if (status.getCode() == 0) {
        status.setCode(500);
      }
      throw ResponseErrors.of(status);
    }
    T decoded = decoder.apply(object);
    String version = Accessor.of(decoded).getResourceVersion();
    if (version != null && !version.isEmpty()) {
      resourceVersion = version;
    }
    pending = new Event(eventType, decoded);
    return true;
  }

  /** Ends the watch after a failed read; true when the caller had closed it. */
  private boolean stop() {
    boolean stopped = closed;
    ended = true;
    close();
    return stopped;
  }

  @Override
  public Event next() {
    if (!hasNext()) {
      throw new NoSuchElementException("the watch has ended");
    }
    Event event = pending;
    pending = null;
    return event;
  }

  @Override
  public String resourceVersion() {
    return resourceVersion;
  }

  @Override
  public void close() {
    closed = true;
    response.close();
  }
}
