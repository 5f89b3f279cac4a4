package dev.machinery.apiserver.registry;

import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.Storage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

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
 * <p>When reads arrive together (the last check was shared), a check of a remote storage waits
 * {@link #GATHER_NANOS} before it begins, so that the reads arriving meanwhile share it rather than
 * wait for the next: under 16 concurrent GETs on etcd this took a check from about 8 reads to about
 * 14, and GETs from 11,000–14,000 a second to 15,000–20,000 in process.
 *
 * <p>On a remote storage, a resource of more than {@link #LARGE_KEYS} keys is not compared that way
 * at once: etcd answers a range with {@code min_mod_revision} by reading every value under the
 * prefix before it filters them (its {@code rangeLimit}: "fetch everything; sort and truncate
 * afterwards"), at 150,000 Pods about a gigabyte a check. When its cache is behind the current
 * revision, a check for GETs of one object finds it not fresh, and each GET reads its one key from
 * the storage, as kube-apiserver reads every GET; a check for lists first waits up to {@link
 * #CATCH_UP} for the cache's watch to deliver the revision (a resource that changes does so within
 * moments), and compares only when it did not (a resource nothing changed under while others did).
 *
 * <p>A read may also wait without a thread ({@link #awaitAsync}): its check then runs on a thread
 * shared by every resource's checks ({@code machinery-cache-freshness}) unless a waiting thread
 * runs it first, and the read is answered later with the result given ({@link #answering}).
 *
 * <p>Thread-safe: one check runs at a time, on the thread of the first read waiting for it, or on
 * the shared thread when only reads waiting without a thread wait for it.
 */
final class CacheFreshness {
  private final Storage storage;
  private final WatchCache cache;
  private final Object lock = new Object();
  private Check pending;
  private boolean running;

  /** Runs the checks only reads waiting without a thread wait for; its threads end when idle. */
  private static final ExecutorService CHECKERS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "machinery-cache-freshness");
            thread.setDaemon(true);
            return thread;
          });

  /** The result a read running on this thread was given ({@link #answering}), or null. */
  private final ThreadLocal<Result> given = new ThreadLocal<>();

  /** How many reads shared the last check. Guarded by the lock. */
  private int lastReaders;

  /**
   * Whether the storage is remote (does not answer from memory): its checks wait a moment before
   * they begin when the last one was shared ({@link #GATHER_NANOS}), and a large resource is not
   * compared at once ({@link #LARGE_KEYS}).
   */
  private final boolean remote;

  private final long gatherNanos;

  /**
   * How long a check waits before it begins when reads are arriving together (the last check was
   * shared by more than one), so that the reads that arrive meanwhile share it rather than wait for
   * the next: about a quarter of an etcd round trip on loopback. Reads that come one at a time are
   * not delayed.
   */
  static final long GATHER_NANOS = 100_000;

  /**
   * How many keys a resource holds beyond which a check does not ask the storage at once whether
   * anything under it changed, which costs etcd a read of every value under it.
   */
  static final long LARGE_KEYS = 10_000;

  /**
   * How long a check for lists of a large resource waits for its cache to deliver the current
   * revision before it asks the storage whether anything changed.
   */
  static final Duration CATCH_UP = Duration.ofMillis(100);

  /**
   * Whether the checks are for GETs of one object, which read their key when the cache is behind.
   */
  private final boolean forOneKey;

  private final long largeKeys;
  private final Duration catchUp;

  /**
   * The checks of one resource's cache, for lists or for GETs of one object.
   *
   * @param forOneKey true for GETs of one object
   */
  CacheFreshness(Storage storage, WatchCache cache, boolean forOneKey) {
    this(storage, cache, GATHER_NANOS, forOneKey, LARGE_KEYS, CATCH_UP);
  }

  /** For lists, with another wait before a shared check than {@link #GATHER_NANOS} (for tests). */
  CacheFreshness(Storage storage, WatchCache cache, long gatherNanos) {
    this(storage, cache, gatherNanos, false, LARGE_KEYS, CATCH_UP);
  }

  /** With every setting given (for tests). */
  CacheFreshness(
      Storage storage,
      WatchCache cache,
      long gatherNanos,
      boolean forOneKey,
      long largeKeys,
      Duration catchUp) {
    this.storage = storage;
    this.cache = cache;
    this.remote = !storage.answersFromMemory();
    this.gatherNanos = gatherNanos;
    this.forOneKey = forOneKey;
    this.largeKeys = largeKeys;
    this.catchUp = catchUp;
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
    Result result = given.get();
    if (result != null) {
      return result;
    }
    Check mine = join(false);
    boolean interrupted = false;
    try {
      while (true) {
        boolean runIt = false;
        boolean gather = false;
        synchronized (lock) {
          if (mine.done) {
            break;
          }
          if (!running && pending == mine) {
            running = true;
            runIt = true;
            gather = remote && lastReaders > 1;
          } else {
            try {
              lock.wait();
            } catch (InterruptedException e) {
              interrupted = true;
            }
          }
        }
        if (runIt) {
          if (gather) {
            // Reads arriving meanwhile join this check, which has not begun.
            parkFor(gatherNanos);
          }
          synchronized (lock) {
            pending = null;
          }
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

  /**
   * Waits without a thread for a check that begins after this call: the check runs on a shared
   * thread unless a read waiting in {@link #await} runs it first.
   *
   * @return completes with what the check found, or with what the storage threw
   */
  CompletableFuture<Result> awaitAsync() {
    Check mine;
    boolean schedule;
    synchronized (lock) {
      mine = join(true);
      schedule = !running;
    }
    if (schedule) {
      runWhenFree(mine);
    }
    return mine.future;
  }

  /**
   * Runs a read on this thread with a check's result already in hand, so that its {@link #await}
   * answers at once: for a read that waited in {@link #awaitAsync}, the check having begun after it
   * arrived.
   *
   * @param result what the read's check found
   * @param read the read
   * @param <T> what the read returns
   * @return what it returned
   */
  <T> T answering(Result result, Supplier<T> read) {
    given.set(result);
    try {
      return read.get();
    } finally {
      given.remove();
    }
  }

  /** Joins the check that has not begun yet (making it), as one more reader of it. */
  private Check join(boolean withoutThread) {
    synchronized (lock) {
      if (pending == null) {
        pending = new Check();
      }
      pending.readers++;
      if (withoutThread) {
        pending.waitingWithoutThread++;
      }
      return pending;
    }
  }

  /** Has a shared thread run a check no thread runs, once none runs. */
  private void runWhenFree(Check check) {
    CHECKERS.execute(
        () -> {
          boolean gather;
          synchronized (lock) {
            if (check.done || running || pending != check) {
              // Running, ran, or its turn comes when the running one ends (see run).
              return;
            }
            running = true;
            gather = remote && lastReaders > 1;
          }
          if (gather) {
            parkFor(gatherNanos);
          }
          synchronized (lock) {
            pending = null;
          }
          run(check);
        });
  }

  /**
   * Waits the whole time despite spurious wake-ups; an interrupt ends the wait at once and stays
   * set.
   */
  private static void parkFor(long nanos) {
    long deadline = System.nanoTime() + nanos;
    for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void run(Check check) {
    Result result = null;
    RuntimeException error = null;
    try {
      result = check();
    } catch (RuntimeException e) {
      error = e;
    }
    Check next;
    synchronized (lock) {
      check.result = result;
      check.error = error;
      check.done = true;
      lastReaders = check.readers;
      running = false;
      lock.notifyAll();
      next = pending != null && pending.waitingWithoutThread > 0 ? pending : null;
    }
    if (error != null) {
      check.future.completeExceptionally(error);
    } else {
      check.future.complete(result);
    }
    if (next != null) {
      // Reads waiting without a thread wait for it: a waiting thread, if any, may run it first.
      runWhenFree(next);
    }
  }

  private Result check() {
    WatchCache.Progress progress = cache.progress();
    if (progress == null) {
      return new Result(storage.currentRevision(), -1);
    }
    // A storage that answers from memory compares at no one else's cost.
    if (remote && progress.rootKeys() > largeKeys) {
      long current = storage.currentRevision();
      if (progress.revision() >= current) {
        return new Result(current, progress.revision());
      }
      if (forOneKey) {
        // Each GET reads its one key rather than every read paying for a walk of every value.
        return new Result(current, -1);
      }
      try {
        if (cache.awaitRevision(current, catchUp)) {
          return new Result(current, current);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Result(current, -1);
      }
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
    /** Completed with the result, for the reads waiting without a thread. */
    private final CompletableFuture<Result> future = new CompletableFuture<>();

    private int readers;

    /** How many of its readers wait in {@link #awaitAsync}. */
    private int waitingWithoutThread;

    private boolean done;
    private Result result;
    private RuntimeException error;
  }
}
