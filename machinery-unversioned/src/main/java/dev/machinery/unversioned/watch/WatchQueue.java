package dev.machinery.unversioned.watch;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Watch} backed by a bounded queue: a producer (a server's storage, a test) {@link #send}s
 * events, one watcher takes them. When the watcher falls behind and the queue is full, {@code send}
 * waits up to its timeout and then says so, so that a server can end a slow watch as kube-apiserver
 * does instead of holding unbounded events for it.
 *
 * <p>Thread-safe: any number of producer threads, one consumer, any thread may stop it.
 */
public final class WatchQueue implements Watch {
  private final BlockingQueue<Event> events;
  private volatile boolean stopped;

  /**
   * Creates a queue.
   *
   * @param capacity the most events held for the watcher
   */
  public WatchQueue(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive, not " + capacity);
    }
    this.events = new ArrayBlockingQueue<>(capacity);
  }

  /**
   * Sends an event, waiting for room up to a timeout.
   *
   * @param event the event
   * @param timeout how long to wait for room
   * @return true when queued; false when the watch has stopped or stayed full
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  public boolean send(Event event, Duration timeout) throws InterruptedException {
    Objects.requireNonNull(event, "event");
    if (stopped) {
      return false;
    }
    return events.offer(event, timeout.toNanos(), TimeUnit.NANOSECONDS) && !stopped;
  }

  @Override
  public Optional<Event> next() throws InterruptedException {
    while (true) {
      Event event = events.poll(50, TimeUnit.MILLISECONDS);
      if (event != null) {
        return Optional.of(event);
      }
      if (stopped && events.isEmpty()) {
        return Optional.empty();
      }
    }
  }

  @Override
  public Optional<Event> poll(Duration timeout) throws InterruptedException {
    return Optional.ofNullable(events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS));
  }

  @Override
  public void stop() {
    stopped = true;
  }

  @Override
  public boolean isStopped() {
    return stopped;
  }
}
