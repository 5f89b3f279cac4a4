package dev.machinery.core.codec;

import java.io.InputStream;
import java.util.List;

/**
 * How a {@link Codec} decodes one format: the size limit of a body, one object, every object of a
 * body, and the items of a list one at a time. One implementation a format ({@link JsonDecoder},
 * {@link YamlDecoder}), chosen once by {@link Codec.Format}, so that the codec never branches on
 * the format. Immutable; thread-safe.
 */
interface FormatDecoder {
  /** The format's name in messages: {@code JSON}, {@code YAML}. */
  String name();

  /** The name of the limit on a body's size. */
  String maxBytesName();

  /** The limit on a body's size, in bytes. */
  int maxBytes();

  /** Decodes the one object of {@code data[0, length)}, of {@code expected}'s class. */
  <T> Decoded<T> decode(byte[] data, int length, Class<T> expected);

  /** Decodes every object of {@code data[0, length)}, the items of {@code v1 List}s expanded. */
  List<Decoded<Object>> decodeAll(byte[] data, int length);

  /** The items of a list read from {@code in}, as {@link Codec#decodeItems} promises. */
  <T> ItemStream<T> decodeItems(Codec codec, InputStream in, Class<T> type);

  /** Refuses a body larger than {@link #maxBytes()}. */
  default void checkSize(int length) {
    if (length > maxBytes()) {
      throw new LimitExceededException(
          maxBytesName(),
          maxBytes(),
          "the body is larger than the limit of " + maxBytes() + " bytes for " + name(),
          "",
          0,
          0);
    }
  }
}
