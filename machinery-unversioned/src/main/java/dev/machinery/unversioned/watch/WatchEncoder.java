package dev.machinery.unversioned.watch;

import dev.machinery.core.codec.Codec;
import dev.machinery.unversioned.protobuf.ProtoWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Writes watch events as kube-apiserver frames them. For {@code application/json;stream=watch}: one
 * JSON object a line, {@code {"type":"ADDED","object":{...}}}, the object written by the codec the
 * watcher negotiated (so in the version it asked for, with {@code encodingTo}). For {@code
 * application/vnd.kubernetes.protobuf;stream=watch}: each event a 4-byte big-endian length, then a
 * {@code WatchEvent} message (type 1, object 2 as a {@code RawExtension} whose raw bytes 1 are the
 * object in Kubernetes' protobuf envelope). Each event is flushed, so a watcher sees it at once.
 *
 * <p>The static frame writers take the object already encoded, for a server that renders it in a
 * negotiated representation (a Table, say). Stateless apart from the codec; safe to share, but the
 * events of one stream must be written by one thread at a time.
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
   * Writes one event as a JSON frame and flushes.
   *
   * @param event the event
   * @param out the stream; left open
   * @throws IOException when the stream fails
   */
  public void write(Event event, OutputStream out) throws IOException {
    writeJsonFrame(out, event.type(), codec.encode(event.object()));
  }

  /**
   * Writes one JSON frame, {@code {"type":...,"object":...}} and a newline, and flushes.
   *
   * @param out the stream; left open
   * @param type the event's type
   * @param object the event's object, already encoded as one JSON value
   * @throws IOException when the stream fails
   */
  public static void writeJsonFrame(OutputStream out, EventType type, byte[] object)
      throws IOException {
    out.write(("{\"type\":\"" + type.name() + "\"").getBytes(StandardCharsets.US_ASCII));
    out.write(OBJECT);
    out.write(object);
    out.write(END);
    out.flush();
  }

  /**
   * Writes one length-prefixed protobuf {@code WatchEvent} and flushes.
   *
   * @param out the stream; left open
   * @param type the event's type
   * @param object the event's object, already encoded in Kubernetes' protobuf envelope
   * @throws IOException when the stream fails
   */
  public static void writeProtobufFrame(OutputStream out, EventType type, byte[] object)
      throws IOException {
    ProtoWriter raw = new ProtoWriter();
    raw.bytesField(1, object);
    ProtoWriter event = new ProtoWriter();
    event.stringField(1, type.name());
    event.bytesField(2, raw.toByteArray());
    byte[] bytes = event.toByteArray();
    out.write(
        new byte[] {
          (byte) (bytes.length >>> 24),
          (byte) (bytes.length >>> 16),
          (byte) (bytes.length >>> 8),
          (byte) bytes.length
        });
    out.write(bytes);
    out.flush();
  }
}
