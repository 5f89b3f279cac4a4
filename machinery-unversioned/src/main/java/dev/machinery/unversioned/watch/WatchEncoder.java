package dev.machinery.unversioned.watch;

import dev.machinery.core.codec.Codec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Writes watch events as kube-apiserver does for {@code application/json;stream=watch}: one JSON
 * object a line, {@code {"type":"ADDED","object":{...}}}, the object written by the codec the
 * watcher negotiated (so in the version it asked for, with {@code encodingTo}). Each event is
 * flushed, so a watcher sees it at once.
 *
 * <p>Stateless apart from the codec; safe to share, but the events of one stream must be written by
 * one thread at a time.
 */
public final class WatchEncoder {
  private static final byte[] OBJECT = ",\"object\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "}\n".getBytes(StandardCharsets.US_ASCII);

  private final Codec codec;

  /**
   * Creates an encoder.
   *
   * @param codec the JSON codec that writes each event's object
   */
  public WatchEncoder(Codec codec) {
    this.codec = Objects.requireNonNull(codec, "codec");
  }

  /**
   * Writes one event and flushes.
   *
   * @param event the event
   * @param out the stream; left open
   * @throws IOException when the stream fails
   */
  public void write(Event event, OutputStream out) throws IOException {
    out.write(("{\"type\":\"" + event.type().name() + "\"").getBytes(StandardCharsets.US_ASCII));
    out.write(OBJECT);
    codec.encode(event.object(), out);
    out.write(END);
    out.flush();
  }
}
