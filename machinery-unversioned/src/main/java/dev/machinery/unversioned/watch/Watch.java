package dev.machinery.unversioned.watch;

import java.time.Duration;
import java.util.Optional;

/**
 * A stream of events for one watcher ({@code watch.Interface}): the watcher takes events as they
 * come and stops the watch when it is done; the producer sees the stop and sends no more.
 *
 * <p>Implementations are safe for one consumer thread and any number of threads calling {@link
 * #stop()}.
 */
public interface Watch extends AutoCloseable {
  /**
   * Takes the next event, waiting for one.
   *
   * @return the event, or empty once the watch has stopped and every sent event was taken
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  Optional<Event> next() throws InterruptedException;

  /**
   * Takes the next event, waiting at most a while.
   *
   * @param timeout how long to wait
   * @return the event, or empty when none came in time or the watch has stopped and is drained
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  Optional<Event> poll(Duration timeout) throws InterruptedException;

  /** Stops the watch; events not yet taken are still delivered, no new ones are accepted. */
  void stop();

  /**
   * Whether the watch has stopped.
   *
   * @return true once stopped
   */
  boolean isStopped();

  /** Stops the watch. */
  @Override
  default void close() {
    stop();
  }
}
