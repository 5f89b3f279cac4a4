package dev.machinery.apiserver.storage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

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
 * <p>Thread-safe: operations are serialized on one lock; reads copy nothing but the page returned.
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
  private final NavigableMap<String, List<Version>> versions = new TreeMap<>(CODE_POINT_ORDER);
  private final ArrayDeque<StorageEvent> history = new ArrayDeque<>();
  private final List<QueuedWatch> watches = new CopyOnWriteArrayList<>();
  private long revision;
  private long compacted;
  private boolean closed;

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
    if (historyLimit < 1 || watchQueueLimit < 1) {
      throw new IllegalArgumentException(
          "historyLimit and watchQueueLimit must be at least 1, got "
              + historyLimit
              + " and "
              + watchQueueLimit);
    }
    this.historyLimit = historyLimit;
    this.watchQueueLimit = watchQueueLimit;
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
  public synchronized Optional<KeyValue> get(String key) {
    open();
    List<Version> list = versions.get(key);
    if (list == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(list.get(list.size() - 1).value);
  }

  @Override
  public ListResult list(String prefix, long atRevision, String startKey, int limit) {
    return list(prefix, atRevision, startKey, limit, false);
  }

  @Override
  public synchronized ListResult list(
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
  public synchronized KeyValue create(String key, byte[] value) {
    open();
    List<Version> list = versions.get(key);
    if (list != null && list.get(list.size() - 1).value != null) {
      throw new StorageException(
          StorageException.Kind.KEY_EXISTS, key, 0, "key " + key + " already exists");
    }
    long next = revision + 1;
    KeyValue stored = new KeyValue(key, value.clone(), next, next, 1);
    write(key, stored, new StorageEvent(StorageEvent.Type.PUT, stored, null));
    return stored;
  }

  @Override
  public synchronized KeyValue update(String key, long expectedModRevision, byte[] value) {
    open();
    KeyValue current = current(key, expectedModRevision);
    long next = revision + 1;
    KeyValue stored =
        new KeyValue(key, value.clone(), current.createRevision(), next, current.version() + 1);
    write(key, stored, new StorageEvent(StorageEvent.Type.PUT, stored, current));
    return stored;
  }

  @Override
  public synchronized KeyValue delete(String key, long expectedModRevision) {
    open();
    KeyValue current = current(key, expectedModRevision);
    long next = revision + 1;
    KeyValue deleted =
        new KeyValue(key, current.value(), current.createRevision(), next, current.version());
    write(key, null, new StorageEvent(StorageEvent.Type.DELETE, deleted, current));
    return deleted;
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
        watch.offer(event);
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

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
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

  private void write(String key, KeyValue value, StorageEvent event) {
    revision = event.revision();
    versions.computeIfAbsent(key, k -> new ArrayList<>(2)).add(new Version(revision, value));
    history.addLast(event);
    if (history.size() > historyLimit) {
      StorageEvent oldest = history.pollFirst();
      prune(oldest);
      compacted = Math.max(compacted, oldest.revision());
    }
    for (QueuedWatch watch : watches) {
      if (key.startsWith(watch.prefix())) {
        watch.offer(event);
      }
    }
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
