package dev.machinery.apiserver.storage;

import java.util.List;
import java.util.Objects;

/**
 * One page of a range read: the values in key order, the revision they were read at, whether more
 * keys follow, and how many (as etcd's range answer counts them, so that a server can tell a client
 * how many items a list has left: {@code remainingItemCount}).
 *
 * <p>Immutable.
 *
 * @param items the values, in key order
 * @param revision the revision the page was read at; later pages of the same list are read at it
 * @param more whether keys after the last item remain
 * @param remaining how many keys under the prefix follow the last item at that revision: 0 when
 *     none do, -1 when the store cannot tell
 */
public record ListResult(List<KeyValue> items, long revision, boolean more, long remaining) {
  /**
   * Copies the list and checks the count.
   *
   * @param items see the record description
   * @param revision see the record description
   * @param more see the record description
   * @param remaining see the record description
   * @throws IllegalArgumentException when the count contradicts {@code more}
   */
  public ListResult {
    items = List.copyOf(Objects.requireNonNull(items, "items"));
    if (remaining < -1 || (more && remaining == 0) || (!more && remaining > 0)) {
      throw new IllegalArgumentException(
          "remaining must be -1 (unknown) or agree with more=" + more + ", got " + remaining);
    }
  }

  /**
   * A page from a store that does not count what follows.
   *
   * @param items see the record description
   * @param revision see the record description
   * @param more see the record description
   */
  public ListResult(List<KeyValue> items, long revision, boolean more) {
    this(items, revision, more, more ? -1 : 0);
  }
}
