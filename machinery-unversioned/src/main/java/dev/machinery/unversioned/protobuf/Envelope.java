package dev.machinery.unversioned.protobuf;

import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.LimitExceededException;

/**
 * Kubernetes' protobuf envelope: the bytes {@code k8s\0}, then a {@code runtime.Unknown} message of
 * type meta (field 1: apiVersion 1, kind 2), the object's message (2), content encoding (3) and
 * content type (4), the last two written empty as Go writes them. Stateless.
 */
final class Envelope {
  static final byte[] MAGIC = {'k', '8', 's', 0};

  /** An opened envelope: the kind it names and a reader over the object's message. */
  record Opened(String apiVersion, String kind, ProtoReader raw) {}

  private Envelope() {}

  static boolean hasMagic(byte[] data) {
    return data.length >= MAGIC.length
        && data[0] == MAGIC[0]
        && data[1] == MAGIC[1]
        && data[2] == MAGIC[2]
        && data[3] == MAGIC[3];
  }

  /** What follows the object's message: content encoding and content type, both empty. */
  static final byte[] TAIL = {(3 << 3) | 2, 0, (4 << 3) | 2, 0};

  static byte[] wrap(String apiVersion, String kind, byte[] raw) {
    byte[] head = head(apiVersion, kind, raw.length);
    byte[] out = new byte[head.length + raw.length + TAIL.length];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(raw, 0, out, head.length, raw.length);
    System.arraycopy(TAIL, 0, out, head.length + raw.length, TAIL.length);
    return out;
  }

  /**
   * The envelope up to the object's message: the magic bytes, the type meta, and the message's tag
   * and length; the message's bytes and {@link #TAIL} follow.
   */
  static byte[] head(String apiVersion, String kind, long rawLength) {
    ProtoWriter typeMeta = new ProtoWriter();
    typeMeta.stringField(1, apiVersion);
    typeMeta.stringField(2, kind);
    ProtoWriter head = new ProtoWriter();
    head.raw(MAGIC);
    head.bytesField(1, typeMeta.toByteArray());
    head.tag(2, 2);
    head.varint(rawLength);
    return head.toByteArray();
  }

  static Opened open(byte[] data, CodecLimits limits) {
    checkSize(data, limits);
    if (!hasMagic(data)) {
      throw new DecodeException(
          "the body does not start with the Kubernetes protobuf prefix k8s\\0", "");
    }
    ProtoReader unknown = new ProtoReader(data, MAGIC.length, data.length);
    String apiVersion = "";
    String kind = "";
    ProtoReader raw = null;
    while (unknown.hasMore()) {
      long tag = unknown.varint("the envelope");
      switch ((int) (tag >>> 3)) {
        case 1 -> {
          expect(tag, "the type meta");
          ProtoReader typeMeta = unknown.message("the type meta");
          while (typeMeta.hasMore()) {
            long field = typeMeta.varint("the type meta");
            if ((field >>> 3) == 1) {
              expect(field, "apiVersion");
              apiVersion = typeMeta.string("apiVersion");
            } else if ((field >>> 3) == 2) {
              expect(field, "kind");
              kind = typeMeta.string("kind");
            } else {
              typeMeta.skip((int) (field & 7), "the type meta");
            }
          }
        }
        case 2 -> {
          expect(tag, "the object");
          raw = unknown.message("the object");
        }
        default -> unknown.skip((int) (tag & 7), "the envelope");
      }
    }
    return new Opened(apiVersion, kind, raw == null ? new ProtoReader(new byte[0], 0, 0) : raw);
  }

  /** Refuses a body over {@code maxJsonBytes}, as the JSON codec does. */
  static void checkSize(byte[] data, CodecLimits limits) {
    if (data.length > limits.maxJsonBytes()) {
      throw new LimitExceededException(
          "maxJsonBytes",
          limits.maxJsonBytes(),
          "the message is "
              + data.length
              + " bytes, more than the "
              + limits.maxJsonBytes()
              + " allowed",
          "",
          0,
          0);
    }
  }

  private static void expect(long tag, String where) {
    if ((tag & 7) != 2) {
      throw new DecodeException(where + ": expected wire type 2, found " + (tag & 7), "");
    }
  }
}
