package dev.machinery.apiserver.storage;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The {@link StorageWatch} that a producer fills: changes queue up for the consumer, up to a limit;
 * a consumer that falls that far behind is ended with {@code UNAVAILABLE} (its writers are never
 * slowed and its memory stays bounded); a producer ends the watch with a reason ({@link #end}), the
 * consumer by closing it. Either way the end hook runs once (a store forgets the watch there, or
 * closes the stream that fed it). {@code MemoryStorage}, the server's watch cache and the etcd
 * storage all hand out this one watch.
 *
 * <p>Thread-safe: any number of producers, one consumer polling, and any thread ending or closing.
 * The queue is guarded by the watch's monitor: a poller sleeps until a change is queued, the watch
 * ends or its time is up, so an idle watcher costs no wake-ups. The end hook runs outside the
 * monitor.
 */
public final class QueuedWatch implements StorageWatch {
  private final String prefix;
  private final int limit;
  private final Consumer<QueuedWatch> onEnd;
  private final ArrayDeque<StorageEvent> queue = new ArrayDeque<>(); // guarded by this
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile StorageException error;

  /**
   * Creates an open watch.
   *
   * @param prefix the keys it watches (for messages and for the producer's filtering)
   * @param limit how many changes may wait for the consumer before the watch is ended
   * @param onEnd runs once when the watch ends or is closed
   * @throws IllegalArgumentException if {@code limit} is not positive
   */
  public QueuedWatch(String prefix, int limit, Consumer<QueuedWatch> onEnd) {
    if (limit <= 0) {
      throw new IllegalArgumentException("a watch queue limit must be positive, got " + limit);
    }
    this.prefix = Objects.requireNonNull(prefix, "prefix");
    this.limit = limit;
    this.onEnd = Objects.requireNonNull(onEnd, "onEnd");
  }

  /**
   * Returns the keys the watch is for.
   *
   * @return the prefix
   */
  public String prefix() {
    return prefix;
  }

  /**
   * Queues a change for the consumer; when the queue is full the watch ends instead, with {@code
   * UNAVAILABLE} ({@code watcher of P fell N changes behind at revision R and was ended}).
   *
   * @param event the change
   * @return false once the watch has ended (the change was not queued)
   */
  public boolean offer(StorageEvent event) {
    synchronized (this) {
      if (ended.get()) {
        return false;
      }
      if (queue.size() < limit) {
        queue.addLast(event);
        notifyAll();
        return true;
      }
    }
    end(
        new StorageException(
            StorageException.Kind.UNAVAILABLE,
            prefix,
            event.revision(),
            "watcher of "
                + prefix
                + " fell "
                + limit
                + " changes behind at revision "
                + event.revision()
                + " and was ended"));
    return false;
  }

  /**
   * Ends the watch for a reason: the changes already queued are still handed out, then {@link
   * #error()} says why. Does nothing once ended.
   *
   * @param reason why the producer ends it
   */
  public void end(StorageException reason) {
    synchronized (this) {
      if (ended.get()) {
        return;
      }
      error = reason;
      ended.set(true);
      notifyAll();
    }
    onEnd.accept(this);
  }

  @Override
  public StorageEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    synchronized (this) {
      while (queue.isEmpty() && !ended.get()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return queue.pollFirst();
    }
  }

  @Override
  public synchronized boolean isDone() {
    return ended.get() && queue.isEmpty();
  }

  @Override
  public StorageException error() {
    return error;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (ended.get()) {
        return;
      }
      queue.clear();
      ended.set(true);
      notifyAll();
    }
    onEnd.accept(this);
  }
}
