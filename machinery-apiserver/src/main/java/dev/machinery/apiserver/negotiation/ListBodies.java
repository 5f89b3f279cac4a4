package dev.machinery.apiserver.negotiation;

import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bodies of lists recently answered from their items' kept encodings, so that a list asked for
 * again while nothing in it changed is answered with the bytes already written, not copied again: a
 * list's body is kept with the identity of each item's encoding, and reused only when the same list
 * head (its metadata: resourceVersion, continue, remaining count) is followed by the very same
 * encodings, which change whenever an item does. Bounded: bodies larger than {@link #MAX_BODY} are
 * not kept, and the least recently used are dropped beyond {@link #MAX_TOTAL} bytes.
 *
 * <p>Thread-safe.
 */
final class ListBodies {
  /** The largest body kept. */
  static final int MAX_BODY = 4 << 20;

  /** The most bytes kept for all bodies together. */
  static final long MAX_TOTAL = 32L << 20;

  /** What a body was made of: the list's head, and each item's encoding by identity. */
  private record Key(String contentType, byte[] head, int items, int first, int last) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Key k
          && k.items == items
          && k.first == first
          && k.last == last
          && k.contentType.equals(contentType)
          && Arrays.equals(k.head, head);
    }

    @Override
    public int hashCode() {
      return ((contentType.hashCode() * 31 + Arrays.hashCode(head)) * 31 + items) * 31 + first;
    }
  }

  private record Kept(List<byte[]> items, byte[] body) {}

  private final Map<Key, Kept> kept = new LinkedHashMap<>(16, 0.75f, true);
  private long total;

  private static Key key(String contentType, byte[] head, List<byte[]> items) {
    return new Key(
        contentType,
        head,
        items.size(),
        items.isEmpty() ? 0 : System.identityHashCode(items.get(0)),
        items.isEmpty() ? 0 : System.identityHashCode(items.get(items.size() - 1)));
  }

  /**
   * The body kept for this head and these encodings, or {@code null}.
   *
   * @param contentType the body's media type
   * @param head the list's bytes before its items
   * @param items each item's encoding
   */
  synchronized byte[] find(String contentType, byte[] head, List<byte[]> items) {
    Kept found = kept.get(key(contentType, head, items));
    if (found == null || found.items().size() != items.size()) {
      return null;
    }
    for (int i = 0; i < items.size(); i++) {
      if (found.items().get(i) != items.get(i)) {
        return null;
      }
    }
    return found.body();
  }

  /**
   * Keeps a body made of this head and these encodings, when it is not too large.
   *
   * @param contentType the body's media type
   * @param head the list's bytes before its items
   * @param items each item's encoding
   * @param body the body; never changed afterwards
   */
  synchronized void keep(String contentType, byte[] head, List<byte[]> items, byte[] body) {
    if (body.length > MAX_BODY) {
      return;
    }
    Kept before = kept.put(key(contentType, head, items), new Kept(List.copyOf(items), body));
    total += body.length - (before == null ? 0 : before.body().length);
    Iterator<Kept> eldest = kept.values().iterator();
    while (total > MAX_TOTAL && eldest.hasNext()) {
      total -= eldest.next().body().length;
      eldest.remove();
    }
  }
}
