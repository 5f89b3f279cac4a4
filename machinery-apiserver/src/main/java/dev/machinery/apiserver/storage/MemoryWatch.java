package dev.machinery.apiserver.storage;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@link MemoryStorage} watcher: a bounded queue the store offers changes to; overflowing it ends
 * the watch. Safe for one consumer and any number of producers.
 */
final class MemoryWatch implements StorageWatch {
  final String prefix;
  private final int limit;
  private final LinkedBlockingQueue<StorageEvent> queue = new LinkedBlockingQueue<>();
  private final Consumer<MemoryWatch> onEnd;
  private volatile boolean ended;
  private volatile StorageException error;

  MemoryWatch(String prefix, int limit, Consumer<MemoryWatch> onEnd) {
    this.prefix = prefix;
    this.limit = limit;
    this.onEnd = onEnd;
  }

  void offer(StorageEvent event) {
    if (ended) {
      return;
    }
    if (queue.size() >= limit) {
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
      return;
    }
    queue.add(event);
  }

  void end(StorageException reason) {
    if (!ended) {
      error = reason;
      ended = true;
      onEnd.accept(this);
    }
  }

  @Override
  public StorageEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
    StorageEvent event = queue.poll();
    if (event != null || ended) {
      return event;
    }
    return queue.poll(timeout, unit);
  }

  @Override
  public boolean isDone() {
    return ended && queue.isEmpty();
  }

  @Override
  public StorageException error() {
    return error;
  }

  @Override
  public void close() {
    ended = true;
    queue.clear();
    onEnd.accept(this);
  }
}
