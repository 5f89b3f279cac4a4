package dev.machinery.unversioned.protobuf;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * A list in Kubernetes' protobuf envelope made of its items' bytes, written in pieces: the envelope
 * and the list message without items, then each item as the list's {@code items} field, then the
 * envelope's end. The bytes are those {@link SchemaProtobufCodec#encodeList(
 * dev.machinery.core.schema.GroupVersionKind, java.util.Map)} writes for the whole list; written
 * with {@link #writeTo}, a list of any size needs no array of its own.
 *
 * <p>Made by {@link SchemaProtobufCodec#listOf}. Immutable (the item bytes it holds are never
 * changed) and thread-safe.
 */
public final class ProtobufList {
  private final byte[] head;
  private final byte[] itemTag;
  private final List<byte[]> items;
  private final long size;

  ProtobufList(
      String apiVersion, String kind, byte[] listWithoutItems, int itemsField, List<byte[]> items) {
    this.items = List.copyOf(items);
    ProtoWriter tag = new ProtoWriter();
    tag.tag(itemsField, 2);
    this.itemTag = tag.toByteArray();
    long message = listWithoutItems.length;
    for (byte[] item : this.items) {
      message += itemTag.length + ProtoWriter.varintSize(item.length) + item.length;
    }
    byte[] envelope = Envelope.head(apiVersion, kind, message);
    this.head = new byte[envelope.length + listWithoutItems.length];
    System.arraycopy(envelope, 0, head, 0, envelope.length);
    System.arraycopy(listWithoutItems, 0, head, envelope.length, listWithoutItems.length);
    this.size = envelope.length + message + Envelope.TAIL.length;
  }

  /**
   * Returns the number of bytes {@link #writeTo} writes.
   *
   * @return the size
   */
  public long size() {
    return size;
  }

  /**
   * Returns how many items the list holds.
   *
   * @return the number of items
   */
  public int itemCount() {
    return items.size();
  }

  /**
   * Writes the list: the envelope and the list's own fields, each item, the envelope's end.
   *
   * @param out where to write
   * @throws IOException when writing fails
   */
  public void writeTo(OutputStream out) throws IOException {
    out.write(head);
    byte[] length = new byte[5];
    for (byte[] item : items) {
      out.write(itemTag);
      out.write(length, 0, ProtoWriter.putVarint(item.length, length, 0));
      out.write(item);
    }
    out.write(Envelope.TAIL);
  }

  /**
   * Returns the list's bytes in one array.
   *
   * @return the bytes
   * @throws IllegalStateException when the list is larger than an array can hold; {@link #writeTo}
   *     writes it
   */
  public byte[] toByteArray() {
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException(
          "the list is "
              + size
              + " bytes, more than an array holds ("
              + (Integer.MAX_VALUE - 16)
              + "); write it to a stream instead");
    }
    byte[] out = new byte[(int) size];
    System.arraycopy(head, 0, out, 0, head.length);
    int at = head.length;
    for (byte[] item : items) {
      System.arraycopy(itemTag, 0, out, at, itemTag.length);
      at += itemTag.length;
      at += ProtoWriter.putVarint(item.length, out, at);
      System.arraycopy(item, 0, out, at, item.length);
      at += item.length;
    }
    System.arraycopy(Envelope.TAIL, 0, out, at, Envelope.TAIL.length);
    return out;
  }
}
