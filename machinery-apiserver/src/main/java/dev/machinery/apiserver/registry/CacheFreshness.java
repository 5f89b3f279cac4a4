package dev.machinery.apiserver.registry;

import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.Storage;

/**
 * Tells consistent reads (a GET or LIST without {@code resourceVersion}) whether a resource's watch
 * cache holds the storage's current state, so that they can be answered from it. Each check reads
 * the storage's current revision and whether anything under the resource changed since the cache's
 * revision ({@link Storage#checkUnchanged}: on etcd a one-key count, and a transaction of two
 * ranges only when the revision moved); reads that arrive while a check runs wait for the next one
 * and share it, so a burst of reads costs one check, not one each.
 *
 * <p>A read is answered from a check that began after the read arrived, so it sees every write
 * answered before it arrived, as a read of the storage itself would: the same guarantee
 * kube-apiserver gives consistent lists from its cache (KEP-2340), here given to GETs too, which
 * kube-apiserver reads from etcd.
 *
 * <p>Thread-safe: one check runs at a time, on the thread of the first read waiting for it.
 */
final class CacheFreshness {
  private final Storage storage;
  private final WatchCache cache;
  private final Object lock = new Object();
  private Check pending;
  private boolean running;

  CacheFreshness(Storage storage, WatchCache cache) {
    this.storage = storage;
    this.cache = cache;
  }

  /**
   * What one check found.
   *
   * @param current the storage's revision when the check began
   * @param freshAt the revision the cache is known to hold the state of (its own, or the storage's
   *     when nothing under the resource changed since), or -1 when it is behind
   */
  record Result(long current, long freshAt) {
    /** Whether the cache held the storage's state as of the check. */
    boolean fresh() {
      return freshAt >= 0;
    }
  }

  /**
   * Waits for a check that begins after this call, running it when no other thread does.
   *
   * @return what the check found
   * @throws RuntimeException what the storage threw, to every read that shared the check
   */
  Result await() {
    Check mine;
    synchronized (lock) {
      if (pending == null) {
        pending = new Check();
      }
      mine = pending;
    }
    boolean interrupted = false;
    try {
      while (true) {
        boolean runIt = false;
        synchronized (lock) {
          if (mine.done) {
            break;
          }
          if (!running && pending == mine) {
            running = true;
            pending = null;
            runIt = true;
          } else {
            try {
              lock.wait();
            } catch (InterruptedException e) {
              interrupted = true;
            }
          }
        }
        if (runIt) {
          run(mine);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (mine.error != null) {
      throw mine.error;
    }
    return mine.result;
  }

  private void run(Check check) {
    Result result = null;
    RuntimeException error = null;
    try {
      result = check();
    } catch (RuntimeException e) {
      error = e;
    }
    synchronized (lock) {
      check.result = result;
      check.error = error;
      check.done = true;
      running = false;
      lock.notifyAll();
    }
  }

  private Result check() {
    WatchCache.Progress progress = cache.progress();
    if (progress == null) {
      return new Result(storage.currentRevision(), -1);
    }
    RevisionCheck check =
        storage.checkUnchanged(cache.root(), progress.revision(), progress.rootKeys());
    if (progress.revision() >= check.currentRevision()) {
      return new Result(check.currentRevision(), progress.revision());
    }
    return new Result(check.currentRevision(), check.unchanged() ? check.currentRevision() : -1);
  }

  /** One check and the reads that share it. Guarded by the lock. */
  private static final class Check {
    private boolean done;
    private Result result;
    private RuntimeException error;
  }
}
