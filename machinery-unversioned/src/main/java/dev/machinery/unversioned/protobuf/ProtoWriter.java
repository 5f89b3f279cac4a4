package dev.machinery.unversioned.protobuf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes protobuf wire format into a growing buffer: tags, varints, length-delimited bytes and
 * strings. A nested message is written in place, between {@link #beginMessage} and {@link
 * #endMessage}: its length, unknown until it ends, is left out of the buffer and put before the
 * message's bytes by {@link #toByteArray}, so that however deep messages nest, each byte is written
 * once and copied once at the end (a message written into a writer of its own and added with {@link
 * #bytesField} is copied once for every message it is nested in).
 *
 * <p>Not thread-safe: one writer, one thread.
 */
public final class ProtoWriter {
  private byte[] buffer = new byte[256];
  private int size;
  // Each nested message: where its length goes, and its length once it ended (-1 while open).
  private int[] lengthAt = new int[16];
  private int[] lengths = new int[16];
  // For each nested message, the bytes of the lengths of the messages nested in it.
  private int[] nestedLengthBytes = new int[16];
  private int messages;
  // The messages begun and not ended, innermost last.
  private int[] open = new int[8];
  private int depth;

  /** Creates an empty writer. */
  public ProtoWriter() {}

  /**
   * Begins a length-delimited field holding a nested message, written by the calls that follow up
   * to {@link #endMessage} with the number returned here.
   *
   * @param field the field number
   * @return the message's number, for {@link #endMessage}
   */
  public int beginMessage(int field) {
    tag(field, 2);
    if (messages == lengthAt.length) {
      lengthAt = Arrays.copyOf(lengthAt, messages * 2);
      lengths = Arrays.copyOf(lengths, messages * 2);
      nestedLengthBytes = Arrays.copyOf(nestedLengthBytes, messages * 2);
    }
    lengthAt[messages] = size;
    lengths[messages] = -1;
    nestedLengthBytes[messages] = 0;
    if (depth == open.length) {
      open = Arrays.copyOf(open, depth * 2);
    }
    open[depth++] = messages;
    return messages++;
  }

  /**
   * Ends the innermost nested message begun with {@link #beginMessage}.
   *
   * @param message the number {@link #beginMessage} returned for it
   * @throws IllegalStateException when it is not the innermost message open
   */
  public void endMessage(int message) {
    if (depth == 0 || open[depth - 1] != message) {
      throw new IllegalStateException(
          "message " + message + " is not the innermost message open in this writer");
    }
    depth--;
    long length = (long) size - lengthAt[message] + nestedLengthBytes[message];
    if (length > Integer.MAX_VALUE) {
      throw new IllegalStateException("a nested message of " + length + " bytes");
    }
    lengths[message] = (int) length;
    if (depth > 0) {
      nestedLengthBytes[open[depth - 1]] +=
          nestedLengthBytes[message] + varintSize(lengths[message]);
    }
  }

  /** The bytes a varint of a value takes. */
  static int varintSize(long value) {
    int bytes = 1;
    for (long v = value >>> 7; v != 0; v >>>= 7) {
      bytes++;
    }
    return bytes;
  }

  /**
   * Writes a varint into an array at an offset, which has room for it ({@link #varintSize}).
   *
   * @return the bytes written
   */
  static int putVarint(long value, byte[] into, int at) {
    int i = at;
    long v = value;
    while ((v & ~0x7FL) != 0) {
      into[i++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    into[i++] = (byte) v;
    return i - at;
  }

  private void ensure(int more) {
    if (buffer.length - size < more) {
      long wanted = Math.max((long) buffer.length * 2, (long) size + more);
      if (wanted > Integer.MAX_VALUE - 16) {
        wanted = Integer.MAX_VALUE - 16;
        if (wanted - size < more) {
          throw new IllegalStateException("a message larger than an array holds");
        }
      }
      buffer = Arrays.copyOf(buffer, (int) wanted);
    }
  }

  private void write(int b) {
    ensure(1);
    buffer[size++] = (byte) b;
  }

  private void write(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buffer, size, bytes.length);
    size += bytes.length;
  }

  /**
   * Writes a field's tag.
   *
   * @param field the field number
   * @param wireType the wire type (0 varint, 2 length-delimited)
   */
  public void tag(int field, int wireType) {
    varint(((long) field << 3) | wireType);
  }

  /**
   * Writes a varint.
   *
   * @param value the value (negative values take ten bytes, as protobuf's int64 does)
   */
  public void varint(long value) {
    ensure(10);
    size += putVarint(value, buffer, size);
  }

  /**
   * Writes a length-delimited field: bytes, or a nested message's bytes.
   *
   * @param field the field number
   * @param bytes the bytes
   */
  public void bytesField(int field, byte[] bytes) {
    tag(field, 2);
    varint(bytes.length);
    write(bytes);
  }

  /**
   * Writes a string field as UTF-8.
   *
   * @param field the field number
   * @param text the string
   */
  public void stringField(int field, String text) {
    bytesField(field, text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Writes a varint field.
   *
   * @param field the field number
   * @param value the value
   */
  public void varintField(int field, long value) {
    tag(field, 0);
    varint(value);
  }

  /**
   * Writes bytes as they are, with no tag or length.
   *
   * @param bytes the bytes
   */
  public void raw(byte[] bytes) {
    write(bytes);
  }

  /**
   * Writes four bytes, little-endian ({@code fixed32}, {@code sfixed32}, {@code float}).
   *
   * @param value the value
   */
  public void fixed32(int value) {
    for (int i = 0; i < 4; i++) {
      write((value >>> (8 * i)) & 0xFF);
    }
  }

  /**
   * Writes eight bytes, little-endian ({@code fixed64}, {@code sfixed64}, {@code double}).
   *
   * @param value the value
   */
  public void fixed64(long value) {
    for (int i = 0; i < 8; i++) {
      write((int) (value >>> (8 * i)) & 0xFF);
    }
  }

  /**
   * Returns what was written, each nested message's length before its bytes.
   *
   * @return the bytes
   * @throws IllegalStateException when a message begun was not ended
   */
  public byte[] toByteArray() {
    if (depth > 0) {
      throw new IllegalStateException(depth + " nested messages begun and not ended");
    }
    if (messages == 0) {
      return Arrays.copyOf(buffer, size);
    }
    long total = size;
    for (int i = 0; i < messages; i++) {
      total += varintSize(lengths[i]);
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("a message of " + total + " bytes");
    }
    byte[] out = new byte[(int) total];
    int from = 0;
    int at = 0;
    for (int i = 0; i < messages; i++) {
      int chunk = lengthAt[i] - from;
      System.arraycopy(buffer, from, out, at, chunk);
      at += chunk;
      from = lengthAt[i];
      at += putVarint(lengths[i], out, at);
    }
    System.arraycopy(buffer, from, out, at, size - from);
    return out;
  }
}
