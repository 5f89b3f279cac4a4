package dev.machinery.apiserver.storage;

import java.util.List;
import java.util.Objects;

/**
 * One page of a range read: the values in key order, the revision they were read at, and whether
 * more keys follow.
 *
 * <p>Immutable.
 *
 * @param items the values, in key order
 * @param revision the revision the page was read at; later pages of the same list are read at it
 * @param more whether keys after the last item remain
 */
public record ListResult(List<KeyValue> items, long revision, boolean more) {
  /**
   * Copies the list.
   *
   * @param items see the record description
   * @param revision see the record description
   * @param more see the record description
   */
  public ListResult {
    items = List.copyOf(Objects.requireNonNull(items, "items"));
  }
}
