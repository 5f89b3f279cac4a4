package dev.machinery.apiserver.storage;

import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The embedded {@link Storage}: multi-version, in memory, with one revision counter and a bounded
 * history. Every write keeps the key's earlier versions, so that a list can be read (and continued)
 * at the revision of its first page and a watch can start from a past revision; once the history
 * holds more than {@code historyLimit} changes, the oldest are compacted away, as kube-apiserver's
 * periodic compaction does to etcd.
 *
 * <p>Keys are ordered by code point, which is the order of their UTF-8 bytes, as etcd orders them.
 * Watchers each have a bounded queue: one that falls {@code watchQueueLimit} changes behind is
 * ended with {@link StorageException.Kind#UNAVAILABLE}, so that a consumer that never reads costs
 * bounded memory and never slows writers or other watchers.
 *
 * <p>A store made with {@code deflateValues} keeps each value deflated (RFC 1951, at zlib's fastest
 * level) and inflates it when it is read: a Pod's JSON takes about a third of its size, for some 15
 * µs of CPU a write and 5 µs a value read (a server's watch cache answers most reads without the
 * store). What a caller writes and reads is the same either way.
 *
 * <p>A key written with a time to live is deleted once it has passed: a thread shared by every
 * store ({@code machinery-memory-storage-expiry}) looks every half second, as etcd looks at its
 * leases, at the stores that hold such keys.
 *
 * <p>Thread-safe: operations are serialized on one lock (values are deflated before it is taken,
 * and a get's or a list's values inflated after it is let go); reads copy nothing but the page
 * returned, and the values they inflate.
 */
public final class MemoryStorage implements Storage {
  /**
   * True: every read is answered from memory, under a lock held for one operation.
   *
   * @return true
   */
  @Override
  public boolean answersFromMemory() {
    return true;
  }

  /** How many changes the history keeps by default. */
  public static final int DEFAULT_HISTORY_LIMIT = 10_000;

  /** How many changes a watcher may fall behind by default. */
  public static final int DEFAULT_WATCH_QUEUE_LIMIT = 10_000;

  private static final Comparator<String> CODE_POINT_ORDER = MemoryStorage::compareCodePoints;

  private final int historyLimit;
  private final int watchQueueLimit;
  private final boolean deflateValues;
  private final NavigableMap<String, List<Version>> versions = new TreeMap<>(CODE_POINT_ORDER);
  private final ArrayDeque<StorageEvent> history = new ArrayDeque<>();
  private final List<QueuedWatch> watches = new CopyOnWriteArrayList<>();
  private long revision;
  private long compacted;
  private boolean closed;

  /** When each key written with a time to live expires ({@link System#nanoTime}). */
  private final Map<String, Long> expiries = new HashMap<>();

  /** Looks for expired keys; made with the first key written with a time to live. */
  private ScheduledFuture<?> expiring;

  /** How often expired keys are looked for. */
  private static final long EXPIRY_PERIOD_MILLIS = 500;

  /** The thread that deletes expired keys, for every store. */
  private static final class Expiry {
    static final ScheduledExecutorService THREAD =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "machinery-memory-storage-expiry");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Creates an empty store with the default limits. */
  public MemoryStorage() {
    this(DEFAULT_HISTORY_LIMIT, DEFAULT_WATCH_QUEUE_LIMIT);
  }

  /**
   * Creates an empty store.
   *
   * @param historyLimit how many changes to keep before compacting the oldest (at least 1)
   * @param watchQueueLimit how many changes a watcher may fall behind before it is ended (at least
   *     1)
   */
  public MemoryStorage(int historyLimit, int watchQueueLimit) {
    this(historyLimit, watchQueueLimit, false);
  }

  /**
   * Creates an empty store, its values kept deflated or as written.
   *
   * @param historyLimit how many changes to keep before compacting the oldest (at least 1)
   * @param watchQueueLimit how many changes a watcher may fall behind before it is ended (at least
   *     1)
   * @param deflateValues whether each value is kept deflated, and inflated when read
   */
  public MemoryStorage(int historyLimit, int watchQueueLimit, boolean deflateValues) {
    if (historyLimit < 1 || watchQueueLimit < 1) {
      throw new IllegalArgumentException(
          "historyLimit and watchQueueLimit must be at least 1, got "
              + historyLimit
              + " and "
              + watchQueueLimit);
    }
    this.historyLimit = historyLimit;
    this.watchQueueLimit = watchQueueLimit;
    this.deflateValues = deflateValues;
  }

  @Override
  public synchronized long currentRevision() {
    return revision;
  }

  @Override
  public synchronized long compactedRevision() {
    return compacted;
  }

  @Override
  public Optional<KeyValue> get(String key) {
    KeyValue kept;
    synchronized (this) {
      open();
      List<Version> list = versions.get(key);
      if (list == null) {
        return Optional.empty();
      }
      kept = list.get(list.size() - 1).value;
    }
    return Optional.ofNullable(readable(kept));
  }

  @Override
  public ListResult list(String prefix, long atRevision, String startKey, int limit) {
    return list(prefix, atRevision, startKey, limit, false);
  }

  @Override
  public ListResult list(
      String prefix, long atRevision, String startKey, int limit, boolean countRemaining) {
    ListResult kept = listKept(prefix, atRevision, startKey, limit, countRemaining);
    if (!deflateValues) {
      return kept;
    }
    // Inflated after the lock is let go: writers do not wait for a long list's values.
    List<KeyValue> items = new ArrayList<>(kept.items().size());
    for (KeyValue item : kept.items()) {
      items.add(readable(item));
    }
    return new ListResult(items, kept.revision(), kept.more(), kept.remaining());
  }

  private synchronized ListResult listKept(
      String prefix, long atRevision, String startKey, int limit, boolean countRemaining) {
    open();
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative, got " + limit);
    }
    long at = atRevision == 0 ? revision : atRevision;
    if (at < compacted) {
      throw compactedError(prefix, atRevision);
    }
    if (at > revision) {
      throw new StorageException(
          StorageException.Kind.UNAVAILABLE,
          prefix,
          revision,
          "revision " + atRevision + " is newer than the current revision " + revision);
    }
    String from =
        startKey != null && CODE_POINT_ORDER.compare(startKey, prefix) > 0 ? startKey : prefix;
    List<KeyValue> items = new ArrayList<>();
    long remaining = 0;
    for (Map.Entry<String, List<Version>> entry : versions.tailMap(from, true).entrySet()) {
      if (!entry.getKey().startsWith(prefix)) {
        break;
      }
      KeyValue value = visibleAt(entry.getValue(), at);
      if (value == null) {
        continue;
      }
      if (limit > 0 && items.size() == limit) {
        remaining++;
        if (!countRemaining) {
          return new ListResult(items, at, true, -1);
        }
        // Counted as etcd counts a range: every key that follows, at the page's revision.
        continue;
      }
      items.add(value);
    }
    return new ListResult(items, at, remaining > 0, remaining);
  }

  @Override
  public KeyValue create(String key, byte[] value, long ttlSeconds) {
    requireTimeToLive(ttlSeconds);
    byte[] plain = value.clone();
    byte[] kept = deflateValues ? deflate(plain) : plain;
    synchronized (this) {
      open();
      List<Version> list = versions.get(key);
      if (list != null && list.get(list.size() - 1).value != null) {
        throw new StorageException(
            StorageException.Kind.KEY_EXISTS, key, 0, "key " + key + " already exists");
      }
      long next = revision + 1;
      KeyValue stored = new KeyValue(key, kept, next, next, 1);
      expireAfter(key, ttlSeconds);
      return write(key, stored, new StorageEvent(StorageEvent.Type.PUT, stored, null), plain);
    }
  }

  @Override
  public KeyValue update(String key, long expectedModRevision, byte[] value, long ttlSeconds) {
    requireTimeToLive(ttlSeconds);
    byte[] plain = value.clone();
    byte[] kept = deflateValues ? deflate(plain) : plain;
    synchronized (this) {
      open();
      KeyValue current = current(key, expectedModRevision);
      long next = revision + 1;
      KeyValue stored =
          new KeyValue(key, kept, current.createRevision(), next, current.version() + 1);
      expireAfter(key, ttlSeconds);
      return write(key, stored, new StorageEvent(StorageEvent.Type.PUT, stored, current), plain);
    }
  }

  @Override
  public synchronized KeyValue delete(String key, long expectedModRevision) {
    open();
    KeyValue current = current(key, expectedModRevision);
    return deleteCurrent(key, current);
  }

  private KeyValue deleteCurrent(String key, KeyValue current) {
    long next = revision + 1;
    KeyValue deleted =
        new KeyValue(key, current.value(), current.createRevision(), next, current.version());
    expiries.remove(key);
    return write(key, null, new StorageEvent(StorageEvent.Type.DELETE, deleted, current), null);
  }

  private static void requireTimeToLive(long ttlSeconds) {
    if (ttlSeconds < 0) {
      throw new IllegalArgumentException(
          "a time to live is 0 (none) or a number of seconds, not " + ttlSeconds);
    }
  }

  /** Notes when a key written now expires: never for 0, which also undoes an earlier time. */
  private void expireAfter(String key, long ttlSeconds) {
    if (ttlSeconds == 0) {
      expiries.remove(key);
      return;
    }
    long nanos =
        ttlSeconds > Long.MAX_VALUE / 2_000_000_000L
            ? Long.MAX_VALUE / 2
            : TimeUnit.SECONDS.toNanos(ttlSeconds);
    expiries.put(key, System.nanoTime() + nanos);
    if (expiring == null) {
      WeakReference<MemoryStorage> store = new WeakReference<>(this);
      AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
      expiring =
          Expiry.THREAD.scheduleWithFixedDelay(
              () -> {
                MemoryStorage held = store.get();
                if (held == null || !held.deleteExpired()) {
                  ScheduledFuture<?> mine = self.get();
                  if (mine != null) {
                    mine.cancel(false);
                  }
                }
              },
              EXPIRY_PERIOD_MILLIS,
              EXPIRY_PERIOD_MILLIS,
              TimeUnit.MILLISECONDS);
      self.set(expiring);
    }
  }

  /**
   * Deletes the keys whose time has passed, each with a delete of its own revision.
   *
   * @return false once the store is closed
   */
  private synchronized boolean deleteExpired() {
    if (closed) {
      return false;
    }
    long now = System.nanoTime();
    List<String> expired = new ArrayList<>();
    for (Map.Entry<String, Long> entry : expiries.entrySet()) {
      if (now - entry.getValue() >= 0) {
        expired.add(entry.getKey());
      }
    }
    for (String key : expired) {
      List<Version> list = versions.get(key);
      KeyValue current = list == null ? null : list.get(list.size() - 1).value;
      if (current == null) {
        expiries.remove(key);
      } else {
        deleteCurrent(key, current);
      }
    }
    return true;
  }

  @Override
  public synchronized StorageWatch watch(String prefix, long afterRevision) {
    open();
    long after = afterRevision == 0 ? revision : afterRevision;
    if (after < compacted) {
      throw compactedError(prefix, afterRevision);
    }
    QueuedWatch watch = new QueuedWatch(prefix, watchQueueLimit + historyLimit, watches::remove);
    for (StorageEvent event : history) {
      if (event.revision() > after && event.kv().key().startsWith(prefix)) {
        watch.offer(readable(event));
      }
    }
    watches.add(watch);
    return watch;
  }

  @Override
  public synchronized void compact(long toRevision) {
    open();
    if (toRevision > revision) {
      throw new IllegalArgumentException(
          "cannot compact to " + toRevision + ", after the current revision " + revision);
    }
    while (!history.isEmpty() && history.peekFirst().revision() <= toRevision) {
      prune(history.pollFirst());
    }
    compacted = Math.max(compacted, toRevision);
  }

  /**
   * The task that deletes this store's expired keys on the shared thread, or null before a key was
   * written with a time to live; for tests of its end.
   */
  synchronized ScheduledFuture<?> expiryTask() {
    return expiring;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (expiring != null) {
        expiring.cancel(false);
      }
    }
    for (QueuedWatch watch : List.copyOf(watches)) {
      watch.end(
          new StorageException(
              StorageException.Kind.UNAVAILABLE, watch.prefix(), 0, "storage closed"));
    }
    watches.clear();
  }

  private void open() {
    if (closed) {
      throw new StorageException(StorageException.Kind.UNAVAILABLE, "", 0, "storage is closed");
    }
  }

  private KeyValue current(String key, long expectedModRevision) {
    List<Version> list = versions.get(key);
    KeyValue current = list == null ? null : list.get(list.size() - 1).value;
    if (current == null) {
      throw new StorageException(
          StorageException.Kind.KEY_NOT_FOUND, key, 0, "key " + key + " not found");
    }
    if (expectedModRevision != 0 && current.modRevision() != expectedModRevision) {
      throw new StorageException(
          StorageException.Kind.CONFLICT,
          key,
          current.modRevision(),
          "key "
              + key
              + " is at revision "
              + current.modRevision()
              + ", not "
              + expectedModRevision);
    }
    return current;
  }

  /**
   * Records a write, its values as kept (deflated or not), and returns the written key-value as
   * callers read it.
   *
   * @param written the value as written, or {@code null} for a delete (whose value is the one it
   *     deleted)
   */
  private KeyValue write(String key, KeyValue kept, StorageEvent event, byte[] written) {
    revision = event.revision();
    versions.computeIfAbsent(key, k -> new ArrayList<>(2)).add(new Version(revision, kept));
    history.addLast(event);
    StorageEvent reported = reported(event, written);
    if (history.size() > historyLimit) {
      StorageEvent oldest = history.pollFirst();
      prune(oldest);
      compacted = Math.max(compacted, oldest.revision());
    }
    for (QueuedWatch watch : watches) {
      if (key.startsWith(watch.prefix())) {
        watch.offer(reported);
      }
    }
    return reported.kv();
  }

  /** Drops the versions of the event's key that the event superseded. */
  private void prune(StorageEvent event) {
    String key = event.kv().key();
    List<Version> list = versions.get(key);
    if (list == null) {
      return;
    }
    int keep = 0;
    while (keep < list.size() && list.get(keep).revision < event.revision()) {
      keep++;
    }
    list.subList(0, keep).clear();
    if (!list.isEmpty() && list.get(0).value == null && list.get(0).revision <= event.revision()) {
      list.remove(0);
    }
    if (list.isEmpty()) {
      versions.remove(key);
    }
  }

  /**
   * Tells from the versions kept: no key under the prefix has a version (a write or a delete) after
   * the one revision and at or before the other; false when compaction dropped what would tell.
   */
  /**
   * True: the versions kept tell.
   *
   * @return true
   */
  @Override
  public boolean tellsUnchanged() {
    return true;
  }

  @Override
  public synchronized boolean unchangedSince(
      String prefix, long afterRevision, long atRevision, long keysAtAfter) {
    open();
    if (afterRevision < compacted || atRevision > revision || afterRevision > atRevision) {
      return false;
    }
    for (Map.Entry<String, List<Version>> entry : versions.tailMap(prefix, true).entrySet()) {
      if (!entry.getKey().startsWith(prefix)) {
        break;
      }
      for (Version version : entry.getValue()) {
        if (version.revision > afterRevision && version.revision <= atRevision) {
          return false;
        }
      }
    }
    return true;
  }

  /** The key-value as kept, with its value as written (inflated when kept deflated). */
  private KeyValue readable(KeyValue kept) {
    return kept == null || !deflateValues ? kept : withValue(kept, inflate(kept));
  }

  private StorageEvent readable(StorageEvent kept) {
    return deflateValues
        ? new StorageEvent(kept.type(), readable(kept.kv()), readable(kept.previous()))
        : kept;
  }

  /**
   * The event of a write as watchers and the writer read it: the event itself, or with its values
   * as written; only the value it replaced is inflated, the one written is at hand.
   */
  private StorageEvent reported(StorageEvent kept, byte[] written) {
    if (!deflateValues) {
      return kept;
    }
    KeyValue previous = readable(kept.previous());
    byte[] value = written != null ? written : previous.value();
    return new StorageEvent(kept.type(), withValue(kept.kv(), value), previous);
  }

  private static KeyValue withValue(KeyValue kv, byte[] value) {
    return new KeyValue(kv.key(), value, kv.createRevision(), kv.modRevision(), kv.version());
  }

  /** The value deflated, after a four-byte length of the value as written. */
  private static byte[] deflate(byte[] plain) {
    Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
    try {
      deflater.setInput(plain);
      deflater.finish();
      byte[] out = new byte[4 + plain.length + plain.length / 1000 + 64];
      out[0] = (byte) (plain.length >>> 24);
      out[1] = (byte) (plain.length >>> 16);
      out[2] = (byte) (plain.length >>> 8);
      out[3] = (byte) plain.length;
      int length = 4;
      while (!deflater.finished()) {
        if (length == out.length) {
          out = Arrays.copyOf(out, out.length * 2);
        }
        length += deflater.deflate(out, length, out.length - length);
      }
      return Arrays.copyOf(out, length);
    } finally {
      deflater.end();
    }
  }

  private static byte[] inflate(KeyValue kept) {
    byte[] packed = kept.value();
    int length =
        (packed[0] & 0xff) << 24
            | (packed[1] & 0xff) << 16
            | (packed[2] & 0xff) << 8
            | (packed[3] & 0xff);
    byte[] plain = new byte[length];
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(packed, 4, packed.length - 4);
      int read = 0;
      while (read < length) {
        int n = inflater.inflate(plain, read, length - read);
        if (n == 0 && (inflater.finished() || inflater.needsInput())) {
          break;
        }
        read += n;
      }
      if (read != length) {
        throw new IllegalStateException(
            "the kept value of "
                + kept.key()
                + " inflated to "
                + read
                + " of "
                + length
                + " bytes");
      }
      return plain;
    } catch (DataFormatException e) {
      throw new IllegalStateException("the kept value of " + kept.key() + " is not deflated", e);
    } finally {
      inflater.end();
    }
  }

  /** The bytes the current values take as kept, deflated or not (for tests). */
  synchronized long keptValueBytes() {
    long bytes = 0;
    for (List<Version> list : versions.values()) {
      KeyValue current = list.get(list.size() - 1).value;
      if (current != null) {
        bytes += current.value().length;
      }
    }
    return bytes;
  }

  private static KeyValue visibleAt(List<Version> list, long at) {
    for (int i = list.size() - 1; i >= 0; i--) {
      Version version = list.get(i);
      if (version.revision <= at) {
        return version.value;
      }
    }
    return null;
  }

  private StorageException compactedError(String prefix, long asked) {
    return new StorageException(
        StorageException.Kind.COMPACTED,
        prefix,
        compacted,
        "revision " + asked + " has been compacted; the oldest kept is " + compacted);
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /** A key's value from a revision on; {@code null} value for a delete. */
  private record Version(long revision, KeyValue value) {}
}
