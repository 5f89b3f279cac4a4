package dev.machinery.controller.cache;

import dev.machinery.unversioned.watch.Event;
import java.util.Optional;

/**
 * An open watch: the events a server sends, until it or the client closes it ({@code
 * watch.Interface}).
 *
 * <p>Implementations are thread-safe: {@link #close} may be called from any thread and makes a
 * blocked {@link #next} return empty.
 */
public interface WatchStream extends AutoCloseable {
  /**
   * Blocks until the next event.
   *
   * @return the event, or empty once the watch has ended
   * @throws InterruptedException when interrupted while waiting
   */
  Optional<Event> next() throws InterruptedException;

  /** Ends the watch; never fails. */
  @Override
  void close();
}
