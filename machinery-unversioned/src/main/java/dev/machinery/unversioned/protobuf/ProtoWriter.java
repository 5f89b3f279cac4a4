package dev.machinery.unversioned.protobuf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes protobuf wire format into a growing buffer: tags, varints, length-delimited bytes and
 * strings; a nested message is written into its own writer and added with {@link #bytesField}.
 *
 * <p>Not thread-safe: one writer, one thread.
 */
public final class ProtoWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** Creates an empty writer. */
  public ProtoWriter() {}

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
    while ((value & ~0x7FL) != 0) {
      out.write((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
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
    out.writeBytes(bytes);
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
    out.writeBytes(bytes);
  }

  /**
   * Writes four bytes, little-endian ({@code fixed32}, {@code sfixed32}, {@code float}).
   *
   * @param value the value
   */
  public void fixed32(int value) {
    for (int i = 0; i < 4; i++) {
      out.write((value >>> (8 * i)) & 0xFF);
    }
  }

  /**
   * Writes eight bytes, little-endian ({@code fixed64}, {@code sfixed64}, {@code double}).
   *
   * @param value the value
   */
  public void fixed64(long value) {
    for (int i = 0; i < 8; i++) {
      out.write((int) (value >>> (8 * i)) & 0xFF);
    }
  }

  /**
   * Returns what was written.
   *
   * @return the bytes
   */
  public byte[] toByteArray() {
    return out.toByteArray();
  }
}
