package dev.machinery.client;

import dev.machinery.unversioned.watch.Event;
import java.util.Iterator;

/**
 * A watch's events as they arrive ({@code watch.Interface}): {@code ADDED}, {@code MODIFIED},
 * {@code DELETED} with objects of the watched class, and {@code BOOKMARK} with an object that
 * carries only its resource version. An {@code ERROR} event is not handed out: its {@code Status}
 * is thrown from {@link #hasNext()} or {@link #next()} as the typed error ({@link
 * ResourceExpiredException} for 410 Gone, when the caller must list again), as is a stream that
 * breaks. The iteration ends when the server ends the watch (its timeout) or when the watch is
 * closed.
 *
 * <p>One thread reads the events; {@link #close()} may be called from any thread, and ends a read
 * that waits.
 *
 * @param <T> the watched objects' class
 */
public interface Watch<T> extends Iterator<Event>, AutoCloseable {
  /**
   * Waits for the next event, or the end of the watch.
   *
   * @return true when an event is ready
   * @throws dev.machinery.unversioned.errors.StatusException for an {@code ERROR} event
   * @throws ResourceExpiredException for an {@code ERROR} event with 410 Gone
   */
  @Override
  boolean hasNext();

  /**
   * Returns the next event, waiting for it.
   *
   * @return the event
   * @throws java.util.NoSuchElementException after the end of the watch
   */
  @Override
  Event next();

  /**
   * Returns the resource version of the last event handed out (a bookmark's included): where a new
   * watch resumes.
   *
   * @return the version; the one the watch started from before any event
   */
  String resourceVersion();

  /** Stops the watch and closes its stream. */
  @Override
  void close();
}
