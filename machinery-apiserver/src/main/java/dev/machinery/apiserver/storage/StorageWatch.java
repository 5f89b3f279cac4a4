package dev.machinery.apiserver.storage;

import java.util.concurrent.TimeUnit;

/**
 * A stream of changes under a prefix, from a revision on, in revision order. A store may end a
 * watch on its own (its consumer fell too far behind, the store closed); it then reports why
 * through {@link #error()} after the events already queued.
 *
 * <p>Safe for one consumer thread to poll while any thread closes it.
 */
public interface StorageWatch extends AutoCloseable {
  /**
   * Waits for the next change.
   *
   * @param timeout how long to wait
   * @param unit the unit of {@code timeout}
   * @return the change, or {@code null} when none came in time or the watch has ended
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  StorageEvent poll(long timeout, TimeUnit unit) throws InterruptedException;

  /**
   * Whether the watch has ended and every queued change has been taken.
   *
   * @return true once nothing more will come
   */
  boolean isDone();

  /**
   * Returns why the store ended the watch, or {@code null} while it runs or when the consumer
   * closed it.
   *
   * @return the reason, or {@code null}
   */
  StorageException error();

  /** Stops the watch; changes not yet taken are dropped. Idempotent. */
  @Override
  void close();
}
