package dev.machinery.apiserver.registry;

import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One resource's watch cache, as kube-apiserver's: a single storage watch of the resource's key
 * prefix, its changes fanned out in process to every watcher of the resource (of one namespace or
 * all), and the latest {@code capacity} changes kept so that a watcher starting at a recent
 * revision is served from memory. A watcher that starts before the changes kept, or before the
 * storage's compacted revision, gets a storage watch of its own (which is {@code 410 Expired} when
 * the storage has compacted them); one that falls {@code watcherQueue} changes behind is ended
 * alone, the others go on. Memory is bounded by the kept changes and the watchers' queues.
 *
 * <p>Thread-safe: one dispatcher thread reads the storage watch; registration and delivery share a
 * lock, so that a new watcher sees every change after its revision exactly once.
 */
final class WatchCache {
  private final Storage storage;
  private final String root;
  private final int capacity;
  private final int watcherQueue;
  private final Object lock = new Object();
  private final ArrayDeque<StorageEvent> recent = new ArrayDeque<>();
  private final List<CachedWatch> watchers = new ArrayList<>();
  private StorageWatch source;
  private long complete;

  /**
   * @param storage the storage
   * @param root the resource's key prefix
   * @param capacity how many changes to keep
   * @param watcherQueue how many changes a watcher may fall behind
   */
  WatchCache(Storage storage, String root, int capacity, int watcherQueue) {
    this.storage = storage;
    this.root = root;
    this.capacity = capacity;
    this.watcherQueue = watcherQueue;
  }

  /**
   * Watches the keys under a prefix (the root, or a namespace below it) from the change after a
   * revision.
   */
  StorageWatch watch(String prefix, long afterRevision) {
    synchronized (lock) {
      if (source == null) {
        start();
      }
      long after = afterRevision > 0 ? afterRevision : storage.currentRevision();
      if (after < complete || after < storage.compactedRevision()) {
        // Older than what the cache holds, or than what the storage keeps: the storage serves
        // it, or says it is compacted, so that a watch is never served from changes the storage
        // has forgotten.
        return storage.watch(prefix, after);
      }
      CachedWatch watch = new CachedWatch(prefix, after);
      for (StorageEvent event : recent) {
        watch.offer(event);
      }
      watchers.add(watch);
      return watch;
    }
  }

  /** Starts the one storage watch, from now. Holds the lock. */
  private void start() {
    long now = storage.currentRevision();
    source = storage.watch(root, now);
    complete = now;
    recent.clear();
    StorageWatch reading = source;
    Thread dispatcher = new Thread(() -> dispatch(reading), "watch-cache " + root);
    dispatcher.setDaemon(true);
    dispatcher.start();
  }

  private void dispatch(StorageWatch reading) {
    try {
      while (true) {
        StorageEvent event = reading.poll(1, TimeUnit.SECONDS);
        if (event != null) {
          deliver(event);
        } else if (reading.isDone()) {
          stop(reading);
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop(reading);
    }
  }

  private void deliver(StorageEvent event) {
    synchronized (lock) {
      recent.addLast(event);
      while (recent.size() > capacity) {
        complete = recent.removeFirst().revision();
      }
      for (CachedWatch watch : List.copyOf(watchers)) {
        watch.offer(event);
      }
    }
  }

  /** The storage watch ended: so does every watcher, with its reason; the next watch restarts. */
  private void stop(StorageWatch reading) {
    StorageException reason = reading.error();
    synchronized (lock) {
      if (source != reading) {
        return;
      }
      source = null;
      for (CachedWatch watch : List.copyOf(watchers)) {
        watch.end(
            reason != null
                ? reason
                : new StorageException(
                    StorageException.Kind.UNAVAILABLE,
                    root,
                    0,
                    "the storage watch of " + root + " ended"));
      }
      watchers.clear();
      recent.clear();
    }
  }

  /** Returns how many watchers the cache serves (for tests and metrics). */
  int watchers() {
    synchronized (lock) {
      return watchers.size();
    }
  }

  /**
   * A watcher served by the cache: its changes under its prefix after its revision, queued. Its
   * poller sleeps on the watcher's monitor until a change is queued or the watcher ends (an idle
   * watcher costs no wake-ups).
   */
  private final class CachedWatch implements StorageWatch {
    private final String prefix;
    private final long after;
    private final ArrayDeque<StorageEvent> queue = new ArrayDeque<>(); // guarded by this
    private boolean ended; // guarded by this
    private StorageException error; // guarded by this

    CachedWatch(String prefix, long after) {
      this.prefix = prefix;
      this.after = after;
    }

    /** Called with the cache's lock held. */
    void offer(StorageEvent event) {
      if (event.revision() <= after || !event.kv().key().startsWith(prefix)) {
        return;
      }
      synchronized (this) {
        if (ended) {
          return;
        }
        if (queue.size() < watcherQueue) {
          queue.addLast(event);
          notifyAll();
          return;
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
                  + watcherQueue
                  + " changes behind at revision "
                  + event.revision()
                  + " and was ended"));
      watchers.remove(this);
    }

    synchronized void end(StorageException reason) {
      if (!ended) {
        error = reason;
        ended = true;
        notifyAll();
      }
    }

    @Override
    public synchronized StorageEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
      long deadline = System.nanoTime() + unit.toNanos(timeout);
      while (queue.isEmpty() && !ended) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return queue.pollFirst();
    }

    @Override
    public synchronized boolean isDone() {
      return ended && queue.isEmpty();
    }

    @Override
    public synchronized StorageException error() {
      return error;
    }

    @Override
    public void close() {
      synchronized (lock) {
        watchers.remove(this);
      }
      synchronized (this) {
        ended = true;
        notifyAll();
      }
    }
  }
}
