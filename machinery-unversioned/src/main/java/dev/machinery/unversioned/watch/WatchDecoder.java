package dev.machinery.unversioned.watch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.JsonValueStream;
import java.io.InputStream;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads watch events one at a time from an {@code application/json;stream=watch} stream, in the
 * memory of one event: each frame must be an object with a known {@code type} and an {@code
 * object}, which the codec decodes as the kind it names ({@code ERROR} frames hold a {@code
 * Status}). A truncated or garbled stream fails with a {@link DecodeException} naming the event.
 *
 * <p>Not thread-safe: one thread reads. Close it to close the stream.
 */
public final class WatchDecoder implements AutoCloseable {
  private static final ObjectMapper TREES = JsonMapper.builder().build();

  private final Codec codec;
  private final JsonValueStream frames;

  /**
   * Reads events from a stream.
   *
   * @param codec the JSON codec that decodes each event's object
   * @param in the stream
   * @param limits the limits of one event
   */
  public WatchDecoder(Codec codec, InputStream in, CodecLimits limits) {
    this.codec = Objects.requireNonNull(codec, "codec");
    this.frames = JsonValueStream.of(in, limits);
  }

  /**
   * Reads the next event, waiting until it has arrived whole.
   *
   * @return the event, or empty at the end of the stream
   * @throws DecodeException for a truncated, garbled or unknown frame, or an object that does not
   *     decode
   */
  public Optional<Event> next() {
    JsonNode frame = frames.next();
    if (frame == null) {
      return Optional.empty();
    }
    String where = "event " + frames.count() + " of the watch";
    JsonNode type = frame.get("type");
    JsonNode object = frame.get("object");
    if (!frame.isObject()
        || type == null
        || !type.isTextual()
        || object == null
        || !object.isObject()) {
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
    try {
      return Optional.of(
          new Event(eventType, codec.decode(TREES.writeValueAsBytes(object)).object()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing a JSON tree failed", e);
    }
  }

  /**
   * Returns how many events were read.
   *
   * @return the count
   */
  public int count() {
    return frames.count();
  }

  /** Closes the stream. */
  @Override
  public void close() {
    frames.close();
  }
}
