package dev.machinery.controller.cache;

import dev.machinery.unversioned.meta.v1.ListOptions;

/**
 * Lists and watches one resource ({@code cache.ListerWatcher}): the seam between the runtime and a
 * client. Failures are thrown as {@link dev.machinery.unversioned.errors.StatusException} (a {@code
 * 410 Gone} or {@code Expired} makes a {@link Reflector} relist) or any other runtime exception.
 *
 * <p>Implementations must be thread-safe.
 *
 * @param <T> the object type
 */
public interface ListerWatcher<T> {
  /**
   * Lists one page.
   *
   * @param options the options: resource version, limit and continue token
   * @return the page
   */
  ListResult<T> list(ListOptions options);

  /**
   * Opens a watch.
   *
   * @param options the options: resource version, bookmarks, timeout
   * @return the open watch
   */
  WatchStream watch(ListOptions options);
}
