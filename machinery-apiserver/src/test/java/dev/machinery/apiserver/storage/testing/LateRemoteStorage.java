package dev.machinery.apiserver.storage.testing;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that says it does not answer from memory (as etcd), delivers each watch event late, and
 * counts the requests that read it: values, ranges and revision checks. A server over it reads as
 * over etcd, and a read that does not wait for its cache to hold a write misses the write. Writes
 * are not counted. Thread-safe.
 */
public final class LateRemoteStorage extends ForwardingStorage {
  private final Duration lateness;
  private final boolean owned;
  private final AtomicInteger reads = new AtomicInteger();

  /**
   * A late view of a store; several views of one store share its keys, as servers share etcd.
   *
   * @param store the store read and written
   * @param lateness how late each watch event comes
   */
  public LateRemoteStorage(Storage store, Duration lateness) {
    this(store, lateness, false);
  }

  private LateRemoteStorage(Storage store, Duration lateness, boolean owned) {
    super(store);
    this.lateness = lateness;
    this.owned = owned;
  }

  /**
   * A late view of a fresh memory store, closed with it.
   *
   * @param lateness how late each watch event comes
   */
  public LateRemoteStorage(Duration lateness) {
    this(new MemoryStorage(), lateness, true);
  }

  /**
   * The reads of the store made through this view since the last call, and starts counting anew.
   *
   * @return how many
   */
  public int takeReads() {
    return reads.getAndSet(0);
  }

  /**
   * False, as for a store over the network.
   *
   * @return false
   */
  @Override
  public boolean answersFromMemory() {
    return false;
  }

  @Override
  public Optional<KeyValue> get(String key) {
    reads.incrementAndGet();
    return super.get(key);
  }

  @Override
  public ListResult list(String prefix, long revision, String startKey, int limit) {
    reads.incrementAndGet();
    return super.list(prefix, revision, startKey, limit);
  }

  @Override
  public ListResult list(
      String prefix, long revision, String startKey, int limit, boolean countRemaining) {
    reads.incrementAndGet();
    return super.list(prefix, revision, startKey, limit, countRemaining);
  }

  @Override
  public long currentRevision() {
    reads.incrementAndGet();
    return super.currentRevision();
  }

  @Override
  public RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
    reads.incrementAndGet();
    return super.checkUnchanged(prefix, afterRevision, keysAtAfter);
  }

  @Override
  public boolean unchangedSince(
      String prefix, long afterRevision, long atRevision, long keysAtAfter) {
    reads.incrementAndGet();
    return super.unchangedSince(prefix, afterRevision, atRevision, keysAtAfter);
  }

  @Override
  public StorageWatch watch(String prefix, long afterRevision) {
    StorageWatch events = super.watch(prefix, afterRevision);
    return new StorageWatch() {
      @Override
      public StorageEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
        StorageEvent event = events.poll(timeout, unit);
        if (event != null) {
          Thread.sleep(lateness.toMillis());
        }
        return event;
      }

      @Override
      public boolean isDone() {
        return events.isDone();
      }

      @Override
      public StorageException error() {
        return events.error();
      }

      @Override
      public void close() {
        events.close();
      }
    };
  }

  @Override
  public void close() {
    // A store given may be shared by other views; its owner closes it.
    if (owned) {
      super.close();
    }
  }
}
