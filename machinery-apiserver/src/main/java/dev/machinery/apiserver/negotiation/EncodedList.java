package dev.machinery.apiserver.negotiation;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;

/**
 * A list whose items are already encoded, ready to be written item by item: its head (the list
 * without items, up to its {@code "items":[}), each item's encoding and its tail, the bytes {@link
 * Negotiator#respondWithEncodedItems} would splice into one array. Written so, a list of any size
 * costs the server no memory beyond its items' kept encodings.
 *
 * <p>Immutable (the encodings it holds are never changed) and thread-safe.
 *
 * @param contentType the media type of the list's body
 * @param shell the list encoded without items, ending in {@code "items":[]}}
 * @param items each item's encoding, in order
 */
public record EncodedList(String contentType, byte[] shell, List<byte[]> items) {
  /**
   * Checks for nulls and copies the item list.
   *
   * @param contentType see the record description
   * @param shell see the record description
   * @param items see the record description
   */
  public EncodedList {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(shell, "shell");
    items = List.copyOf(items);
  }

  /**
   * Returns the size of the body, in bytes.
   *
   * @return the size
   */
  public long size() {
    long size = shell.length + Math.max(0, items.size() - 1L);
    for (byte[] item : items) {
      size += item.length;
    }
    return size;
  }

  /**
   * Writes the body: the head, the items separated by commas, the tail.
   *
   * @param out where to write
   * @throws IOException when writing fails
   */
  public void writeTo(OutputStream out) throws IOException {
    out.write(shell, 0, shell.length - 2);
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(items.get(i));
    }
    out.write(shell, shell.length - 2, 2);
  }
}
