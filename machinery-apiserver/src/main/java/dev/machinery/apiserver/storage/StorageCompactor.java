package dev.machinery.apiserver.storage;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Compacts a storage's history at a fixed interval, as kube-apiserver's compactor compacts etcd
 * ({@code --etcd-compaction-interval}, five minutes by default): each tick compacts to the revision
 * the storage was at on the tick before, so the history kept always spans between one and two
 * intervals. Without it etcd keeps every revision ever written, until its space quota (2 GiB by
 * default) is used up and it refuses every write.
 *
 * <p>The first tick only records the revision. A tick that fails (the storage unreachable) is
 * logged and the next one tries again; a tick never throws. Several servers on one etcd each
 * compact to their own earlier tick's revision; a compaction at or before the last one is refused
 * by etcd and ignored by the store, so they need no coordination (kube-apiserver's replicas take
 * turns through a compare-and-swap on the version of {@code compact_rev_key} instead).
 *
 * <p>The ticks of every compactor in the JVM run on one daemon thread, {@code
 * machinery-storage-compactor}. Thread-safe.
 */
public final class StorageCompactor implements AutoCloseable {
  /** kube-apiserver's default interval: five minutes. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);

  private final Storage storage;
  private final ScheduledFuture<?> ticks;
  private long lastTickRevision;

  private StorageCompactor(Storage storage, Duration interval) {
    this.storage = storage;
    long nanos = interval.toNanos();
    this.ticks =
        Ticker.EXECUTOR.scheduleWithFixedDelay(this::tick, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Starts compacting a storage at an interval; the first tick is one interval from now.
   *
   * @param storage the storage
   * @param interval the interval, positive
   * @return the compactor; {@link #close()} stops it
   * @throws IllegalArgumentException when the interval is not positive
   */
  public static StorageCompactor start(Storage storage, Duration interval) {
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "the compaction interval must be positive, got " + interval);
    }
    return new StorageCompactor(storage, interval);
  }

  /**
   * One tick, as the interval runs them: compacts to the revision recorded at the tick before (when
   * the storage is not compacted that far yet), then records the current revision.
   *
   * @return the revision compacted to, or 0 when this tick compacted nothing
   * @throws StorageException when the storage fails
   */
  public synchronized long compactOnce() {
    long current = storage.currentRevision();
    long target = lastTickRevision;
    lastTickRevision = current;
    if (target <= 0 || target <= storage.compactedRevision()) {
      return 0;
    }
    storage.compact(target);
    return target;
  }

  private void tick() {
    try {
      compactOnce();
    } catch (RuntimeException e) {
      System.getLogger(StorageCompactor.class.getName())
          .log(
              System.Logger.Level.WARNING, "compacting the storage failed; the next tick tries", e);
    }
  }

  /** Stops the ticks; a tick under way finishes. Calling it again does nothing. */
  @Override
  public void close() {
    ticks.cancel(false);
  }

  /** The one thread of every compactor's ticks, made when the first compactor starts. */
  private static final class Ticker {
    static final ScheduledThreadPoolExecutor EXECUTOR = executor();

    private static ScheduledThreadPoolExecutor executor() {
      ScheduledThreadPoolExecutor executor =
          new ScheduledThreadPoolExecutor(
              1,
              task -> {
                Thread thread = new Thread(task, "machinery-storage-compactor");
                thread.setDaemon(true);
                return thread;
              });
      executor.setRemoveOnCancelPolicy(true);
      return executor;
    }
  }
}
