package dev.machinery.unversioned.protobuf;

import dev.machinery.core.codec.DecodeException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads protobuf wire format from a byte range, every length checked against what is left, so a
 * truncated or lying message is a {@link DecodeException} and never an oversized allocation. Each
 * method that reads takes {@code where}, the name of what is being read, for the error's message.
 *
 * <p>Not thread-safe: one reader, one thread.
 */
public final class ProtoReader {
  private final byte[] data;
  private int position;
  private final int limit;

  /**
   * Creates a reader of {@code data[from, to)}; the array is read, never copied or changed.
   *
   * @param data the bytes
   * @param from the first byte of the message
   * @param to the end of the message, exclusive
   */
  public ProtoReader(byte[] data, int from, int to) {
    if (from < 0 || to > data.length || from > to) {
      throw new IndexOutOfBoundsException(
          "[" + from + ", " + to + ") is not within " + data.length + " bytes");
    }
    this.data = data;
    this.position = from;
    this.limit = to;
  }

  /**
   * Tells whether bytes are left to read.
   *
   * @return true while the message has bytes left
   */
  public boolean hasMore() {
    return position < limit;
  }

  int position() {
    return position;
  }

  /**
   * Reads a varint (a field's tag, or a varint field's value).
   *
   * @param where what is read, for the error's message
   * @return the value
   * @throws DecodeException when the message ends inside it or it is longer than ten bytes
   */
  public long varint(String where) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position >= limit) {
        throw new DecodeException(where + ": the message ends inside a varint", "");
      }
      byte b = data[position++];
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new DecodeException(where + ": a varint is longer than 10 bytes", "");
  }

  /** The range of a length-delimited value: [from, to). */
  int[] lengthDelimited(String where) {
    long length = varint(where);
    if (length < 0 || length > limit - position) {
      throw new DecodeException(
          where
              + ": a length of "
              + length
              + " is more than the "
              + (limit - position)
              + " bytes left",
          "");
    }
    int from = position;
    position += (int) length;
    return new int[] {from, position};
  }

  /**
   * Reads a length-delimited value as a copy of its bytes.
   *
   * @param where what is read, for the error's message
   * @return the bytes
   * @throws DecodeException when its length is more than the bytes left
   */
  public byte[] bytes(String where) {
    int[] range = lengthDelimited(where);
    byte[] copy = new byte[range[1] - range[0]];
    System.arraycopy(data, range[0], copy, 0, copy.length);
    return copy;
  }

  /**
   * Reads a length-delimited value as UTF-8 text.
   *
   * @param where what is read, for the error's message
   * @return the text
   * @throws DecodeException when its length is more than the bytes left or it is not UTF-8
   */
  public String string(String where) {
    int[] range = lengthDelimited(where);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(data, range[0], range[1] - range[0]))
          .toString();
    } catch (CharacterCodingException e) {
      throw new DecodeException(where + ": a string is not valid UTF-8", "");
    }
  }

  /**
   * Reads a length-delimited value as an embedded message, without copying it.
   *
   * @param where what is read, for the error's message
   * @return a reader of the embedded message
   * @throws DecodeException when its length is more than the bytes left
   */
  public ProtoReader message(String where) {
    int[] range = lengthDelimited(where);
    return new ProtoReader(data, range[0], range[1]);
  }

  /**
   * Skips a field's value of a wire type (0, 1, 2 or 5).
   *
   * @param wireType the wire type, the low three bits of the field's tag
   * @param where what is read, for the error's message
   * @throws DecodeException for another wire type, or a value that runs past the message
   */
  public void skip(int wireType, String where) {
    switch (wireType) {
      case 0 -> varint(where);
      case 1 -> advance(8, where);
      case 2 -> lengthDelimited(where);
      case 5 -> advance(4, where);
      default -> throw new DecodeException(where + ": unsupported wire type " + wireType, "");
    }
  }

  int fixed32(String where) {
    advance(4, where);
    return (data[position - 4] & 0xFF)
        | (data[position - 3] & 0xFF) << 8
        | (data[position - 2] & 0xFF) << 16
        | (data[position - 1] & 0xFF) << 24;
  }

  long fixed64(String where) {
    advance(8, where);
    long value = 0;
    for (int i = 1; i <= 8; i++) {
      value |= (data[position - 9 + i] & 0xFFL) << (8 * (i - 1));
    }
    return value;
  }

  private void advance(int bytes, String where) {
    if (limit - position < bytes) {
      throw new DecodeException(where + ": the message ends inside a fixed-size value", "");
    }
    position += bytes;
  }
}
