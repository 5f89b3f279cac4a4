package dev.machinery.unversioned.protobuf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Writes protobuf wire format into a growing buffer. One thread at a time. */
final class ProtoWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  void tag(int field, int wireType) {
    varint(((long) field << 3) | wireType);
  }

  void varint(long value) {
    while ((value & ~0x7FL) != 0) {
      out.write((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
  }

  void bytesField(int field, byte[] bytes) {
    tag(field, 2);
    varint(bytes.length);
    out.writeBytes(bytes);
  }

  void stringField(int field, String text) {
    bytesField(field, text.getBytes(StandardCharsets.UTF_8));
  }

  void varintField(int field, long value) {
    tag(field, 0);
    varint(value);
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }
}
