package dev.machinery.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a list: its items and the list's metadata ({@code metadata.continue}, {@code
 * resourceVersion}, {@code remainingItemCount}).
 *
 * <p>Immutable as a record (the item list is copied); the items are as mutable as their class.
 *
 * @param items the items, each with its {@code apiVersion} and {@code kind}
 * @param continueToken the token that reads the next page; empty on the last page
 * @param resourceVersion the resource version the list was read at
 * @param remainingItemCount how many items remain after this page, when the server counted them
 * @param <T> the items' class
 */
public record ListPage<T>(
    List<T> items, String continueToken, String resourceVersion, Long remainingItemCount) {
  /**
   * Checks and copies the parts.
   *
   * @param items see the record description
   * @param continueToken see the record description
   * @param resourceVersion see the record description
   * @param remainingItemCount see the record description
   */
  public ListPage {
    items = List.copyOf(items);
    continueToken = Objects.requireNonNullElse(continueToken, "");
    resourceVersion = Objects.requireNonNullElse(resourceVersion, "");
  }

  /**
   * Whether a next page exists.
   *
   * @return true when {@link #continueToken()} is set
   */
  public boolean hasNext() {
    return !continueToken.isEmpty();
  }

  /**
   * Returns the remaining item count, when the server gave one.
   *
   * @return the count, or empty
   */
  public Optional<Long> remaining() {
    return Optional.ofNullable(remainingItemCount);
  }
}
