package dev.machinery.apiserver.negotiation;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A value already encoded as compact JSON, written as it is where a tree of values is encoded: a
 * table row's metadata encoded once per object and copied into every table that shows it. Only a
 * JSON generator may write it (its bytes are JSON, not YAML or protobuf). Immutable; the bytes are
 * never changed.
 */
final class RawJson implements SerializableString {
  private final byte[] json;
  private String text;

  private RawJson(byte[] json) {
    this.json = json;
  }

  /**
   * A value that writes these bytes into a JSON encoding.
   *
   * @param json compact JSON of one value
   * @return the value, for a map or list Jackson encodes
   */
  static RawValue of(byte[] json) {
    return new RawValue(new RawJson(json));
  }

  @Override
  public String getValue() {
    String value = text;
    if (value == null) {
      value = new String(json, StandardCharsets.UTF_8);
      text = value;
    }
    return value;
  }

  @Override
  public int charLength() {
    return getValue().length();
  }

  @Override
  public char[] asQuotedChars() {
    return JsonStringEncoder.getInstance().quoteAsString(getValue());
  }

  @Override
  public byte[] asUnquotedUTF8() {
    return json;
  }

  @Override
  public byte[] asQuotedUTF8() {
    return JsonStringEncoder.getInstance().quoteAsUTF8(getValue());
  }

  @Override
  public int appendQuotedUTF8(byte[] buffer, int offset) {
    return append(asQuotedUTF8(), buffer, offset);
  }

  @Override
  public int appendQuoted(char[] buffer, int offset) {
    return append(asQuotedChars(), buffer, offset);
  }

  @Override
  public int appendUnquotedUTF8(byte[] buffer, int offset) {
    return append(json, buffer, offset);
  }

  @Override
  public int appendUnquoted(char[] buffer, int offset) {
    return append(getValue().toCharArray(), buffer, offset);
  }

  @Override
  public int writeQuotedUTF8(OutputStream out) throws IOException {
    byte[] quoted = asQuotedUTF8();
    out.write(quoted);
    return quoted.length;
  }

  @Override
  public int writeUnquotedUTF8(OutputStream out) throws IOException {
    out.write(json);
    return json.length;
  }

  @Override
  public int putQuotedUTF8(ByteBuffer buffer) {
    return put(asQuotedUTF8(), buffer);
  }

  @Override
  public int putUnquotedUTF8(ByteBuffer buffer) {
    return put(json, buffer);
  }

  /** Copies into a buffer: the count copied, or -1 (nothing copied) when it does not fit. */
  private static int append(byte[] from, byte[] buffer, int offset) {
    if (offset + from.length > buffer.length) {
      return -1;
    }
    System.arraycopy(from, 0, buffer, offset, from.length);
    return from.length;
  }

  private static int append(char[] from, char[] buffer, int offset) {
    if (offset + from.length > buffer.length) {
      return -1;
    }
    System.arraycopy(from, 0, buffer, offset, from.length);
    return from.length;
  }

  private static int put(byte[] from, ByteBuffer buffer) {
    if (from.length > buffer.remaining()) {
      return -1;
    }
    buffer.put(from);
    return from.length;
  }

  @Override
  public String toString() {
    return getValue();
  }
}
