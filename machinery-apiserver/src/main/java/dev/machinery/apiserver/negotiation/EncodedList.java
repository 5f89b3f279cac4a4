package dev.machinery.apiserver.negotiation;

import dev.machinery.unversioned.protobuf.ProtobufList;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;

/**
 * A list whose items are already encoded, ready to be written item by item: the bytes {@link
 * Negotiator#respondWithEncodedItems} would join into one array. In compact JSON its head (the list
 * without items, up to its {@code "items":[}), each item's encoding and its tail; in protobuf the
 * envelope and the list message's own fields, each item as the {@code items} field, the envelope's
 * end ({@link ProtobufList}). Written so, a list of any size costs the server no memory beyond its
 * items' kept encodings.
 *
 * <p>Made by {@link Negotiator#encodedList}. Immutable (the encodings it holds are never changed)
 * and thread-safe.
 */
public final class EncodedList {
  /** Writes a list's body. */
  private interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  private final String contentType;
  private final long size;
  private final Body body;

  private EncodedList(String contentType, long size, Body body) {
    this.contentType = Objects.requireNonNull(contentType, "contentType");
    this.size = size;
    this.body = body;
  }

  /**
   * A JSON list: the list encoded without items, ending in {@code "items":[]}}, and each item's
   * encoding, written between its brackets separated by commas.
   */
  static EncodedList json(String contentType, byte[] shell, List<byte[]> items) {
    Objects.requireNonNull(shell, "shell");
    List<byte[]> kept = List.copyOf(items);
    long size = shell.length + Math.max(0, kept.size() - 1L);
    for (byte[] item : kept) {
      size += item.length;
    }
    return new EncodedList(
        contentType,
        size,
        out -> {
          out.write(shell, 0, shell.length - 2);
          for (int i = 0; i < kept.size(); i++) {
            if (i > 0) {
              out.write(',');
            }
            out.write(kept.get(i));
          }
          out.write(shell, shell.length - 2, 2);
        });
  }

  /** A protobuf list in its envelope. */
  static EncodedList protobuf(String contentType, ProtobufList list) {
    return new EncodedList(contentType, list.size(), list::writeTo);
  }

  /**
   * Returns the media type of the list's body.
   *
   * @return the content type
   */
  public String contentType() {
    return contentType;
  }

  /**
   * Returns the size of the body, in bytes.
   *
   * @return the size
   */
  public long size() {
    return size;
  }

  /**
   * Writes the body.
   *
   * @param out where to write
   * @throws IOException when writing fails
   */
  public void writeTo(OutputStream out) throws IOException {
    body.writeTo(out);
  }
}
