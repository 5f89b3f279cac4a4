package dev.machinery.controller.cache;

import java.util.List;
import java.util.Objects;

/**
 * One page of a list: the items, the list's resource version and, when more pages follow, the token
 * to ask for the next.
 *
 * <p>Immutable (the list is copied); thread-safe.
 *
 * @param items the items
 * @param resourceVersion the list's resource version
 * @param continueToken the next page's token, or null or empty on the last page
 * @param <T> the object type
 */
public record ListResult<T>(List<T> items, String resourceVersion, String continueToken) {
  /**
   * Checks and copies the parts.
   *
   * @param items the items
   * @param resourceVersion the resource version
   * @param continueToken the token
   */
  public ListResult {
    items = List.copyOf(Objects.requireNonNull(items, "items"));
    Objects.requireNonNull(resourceVersion, "resourceVersion");
  }

  /**
   * Creates a last page.
   *
   * @param items the items
   * @param resourceVersion the resource version
   */
  public ListResult(List<T> items, String resourceVersion) {
    this(items, resourceVersion, null);
  }
}
