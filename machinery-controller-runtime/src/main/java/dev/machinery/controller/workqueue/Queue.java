package dev.machinery.controller.workqueue;

import java.util.Optional;

/**
 * A work queue ({@code workqueue.Interface}): items are held once however often they are added
 * while waiting, handed out in order, and never to two workers at once.
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the item type; items are compared with {@code equals}
 */
public interface Queue<T> {
  /**
   * Adds an item. An item already waiting is not added twice; an item being processed is queued
   * again once its worker calls {@link #done}. Items added after shutdown are dropped.
   *
   * @param item the item
   */
  void add(T item);

  /**
   * Returns how many items wait (not counting those being processed).
   *
   * @return the count
   */
  int len();

  /**
   * Blocks until an item is available and hands it to the caller, who must call {@link #done} with
   * it afterwards.
   *
   * @return the item, or empty once the queue is shut down and holds nothing more
   * @throws InterruptedException when interrupted while waiting
   */
  Optional<T> get() throws InterruptedException;

  /**
   * Marks an item as processed; when it was added again meanwhile, it is queued again.
   *
   * @param item the item {@link #get} returned
   */
  void done(T item);

  /** Shuts the queue down: new items are dropped and {@link #get} returns empty once drained. */
  void shutDown();

  /**
   * Shuts the queue down and blocks until every item handed out has been marked {@link #done}.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  void shutDownWithDrain() throws InterruptedException;

  /**
   * Tells whether the queue is shutting down.
   *
   * @return true after {@link #shutDown} or {@link #shutDownWithDrain}
   */
  boolean isShuttingDown();
}
