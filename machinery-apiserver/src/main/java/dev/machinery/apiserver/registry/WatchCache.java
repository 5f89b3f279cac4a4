package dev.machinery.apiserver.registry;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.QueuedWatch;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One resource's watch cache, as kube-apiserver's: a single storage watch of the resource's key
 * prefix, its changes fanned out in process to every watcher of the resource (of one namespace or
 * all), and the latest {@code capacity} changes kept so that a watcher starting at a recent
 * revision is served from memory. A watcher that starts before the changes kept, or before the
 * storage's compacted revision, gets a storage watch of its own (which is {@code 410 Expired} when
 * the storage has compacted them); one that falls {@code watcherQueue} changes behind is ended
 * alone, the others go on.
 *
 * <p>The cache also holds the resource's current objects (listed once when it starts, kept up to
 * date by the same storage watch), each decoded at most once: lists at {@code resourceVersion=0}
 * are served from it, as kube-apiserver serves them, and a list read from the storage reuses the
 * decoded object of every item the cache holds at the same revision. Decoded objects are shared
 * between requests and must not be changed. Memory is bounded by the resource's objects, the kept
 * changes and the watchers' queues.
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
  private final List<Watcher> watchers = new ArrayList<>();
  private final NavigableMap<String, Entry> state = new TreeMap<>();

  /** The entry of each object the cache decoded while the entry is current, by identity. */
  private final Map<Identity, Entry> byObject = new ConcurrentHashMap<>();

  private final Function<KeyValue, Object> decoder;
  private final FieldIndexes indexes;
  private final long encodingBudget;

  /** The bytes of the encodings the entries keep, together: at most {@code encodingBudget}. */
  private final AtomicLong keptBytes = new AtomicLong();

  /**
   * The snapshots last taken, by prefix, while the state has not changed since: a list asked for
   * again reads the same entries without walking the state. Emptied at every change; the most
   * recently used {@value #KEPT_SNAPSHOTS} kept. Guarded by the lock.
   */
  private final Map<String, Snapshot> snapshots = new LinkedHashMap<>(16, 0.75f, true);

  private static final int KEPT_SNAPSHOTS = 16;

  /**
   * How many objects a page of the list that starts the cache holds: kube-apiserver's cacher lists
   * etcd in pages of 10,000 too, so that no single answer holds a whole large resource (150,000
   * Pods in one etcd range took each member gigabytes to answer).
   */
  static final int START_PAGE = 10_000;

  private StorageWatch source;
  private Thread dispatcher;
  private boolean closed;
  private long complete;
  private long stateRevision;

  /**
   * @param storage the storage
   * @param root the resource's key prefix
   * @param capacity how many changes to keep
   * @param watcherQueue how many changes a watcher may fall behind
   * @param decoder decodes a stored value into an object
   */
  WatchCache(
      Storage storage,
      String root,
      int capacity,
      int watcherQueue,
      Function<KeyValue, Object> decoder) {
    this(storage, root, capacity, watcherQueue, decoder, Map.of(), ENCODING_BUDGET);
  }

  /**
   * @param storage the storage
   * @param root the resource's key prefix
   * @param capacity how many changes to keep
   * @param watcherQueue how many changes a watcher may fall behind
   * @param decoder decodes a stored value into an object
   * @param indexed the fields to index, each with the reader of its value from a decoded object
   */
  WatchCache(
      Storage storage,
      String root,
      int capacity,
      int watcherQueue,
      Function<KeyValue, Object> decoder,
      Map<String, Function<Object, String>> indexed) {
    this(storage, root, capacity, watcherQueue, decoder, indexed, ENCODING_BUDGET);
  }

  /**
   * @param storage the storage
   * @param root the resource's key prefix
   * @param capacity how many changes to keep
   * @param watcherQueue how many changes a watcher may fall behind
   * @param decoder decodes a stored value into an object
   * @param encodingBudget how many bytes of encodings the entries may keep together
   */
  WatchCache(
      Storage storage,
      String root,
      int capacity,
      int watcherQueue,
      Function<KeyValue, Object> decoder,
      long encodingBudget) {
    this(storage, root, capacity, watcherQueue, decoder, Map.of(), encodingBudget);
  }

  /**
   * @param storage the storage
   * @param root the resource's key prefix
   * @param capacity how many changes to keep
   * @param watcherQueue how many changes a watcher may fall behind
   * @param decoder decodes a stored value into an object
   * @param indexed the fields to index, each with the reader of its value from a decoded object
   * @param encodingBudget how many bytes of encodings the entries may keep together
   */
  WatchCache(
      Storage storage,
      String root,
      int capacity,
      int watcherQueue,
      Function<KeyValue, Object> decoder,
      Map<String, Function<Object, String>> indexed,
      long encodingBudget) {
    this.encodingBudget = encodingBudget;
    this.storage = storage;
    this.decoder = decoder;
    this.indexes = new FieldIndexes(indexed);
    this.root = root;
    this.capacity = capacity;
    this.watcherQueue = watcherQueue;
  }

  /**
   * Watches the keys under a prefix (the root, or a namespace below it) from the change after a
   * revision.
   */
  StorageWatch watch(String prefix, long afterRevision) {
    return watch(prefix, afterRevision, null, null);
  }

  /**
   * Watches as {@link #watch(String, long)}, offered only the changes whose object, before or
   * after, has a value of an indexed field (kube-apiserver's trigger functions, such as a Pod's
   * {@code spec.nodeName} for a kubelet's watch), and those whose value could not be read; the
   * changes kept from before the watch are all offered. The watcher's own selectors still judge.
   *
   * @param field the indexed field, or {@code null} for every change
   * @param value the value
   */
  StorageWatch watch(String prefix, long afterRevision, String field, String value) {
    synchronized (lock) {
      if (closed) {
        return storage.watch(prefix, afterRevision > 0 ? afterRevision : storage.currentRevision());
      }
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
      Watcher watcher =
          new Watcher(
              new QueuedWatch(prefix, watcherQueue, this::forget),
              after,
              field == null ? -1 : indexes.position(field),
              value);
      for (StorageEvent event : recent) {
        watcher.offer(event, null, null);
      }
      watchers.add(watcher);
      return watcher.queue();
    }
  }

  /**
   * The objects under a prefix as the cache holds them, in key order, and the revision they are at;
   * starts the cache (listing the resource) when it is not running.
   */
  Snapshot snapshot(String prefix) {
    synchronized (lock) {
      if (closed) {
        return null;
      }
      if (source == null && !tryStart()) {
        return null;
      }
      Snapshot kept = snapshots.get(prefix);
      if (kept != null) {
        return kept;
      }
      List<Entry> items = new ArrayList<>();
      for (Map.Entry<String, Entry> e : state.tailMap(prefix, true).entrySet()) {
        if (!e.getKey().startsWith(prefix)) {
          break;
        }
        items.add(e.getValue());
      }
      Snapshot taken =
          new Snapshot(Collections.unmodifiableList(items), stateRevision, state.size());
      snapshots.put(prefix, taken);
      if (snapshots.size() > KEPT_SNAPSHOTS) {
        snapshots.remove(snapshots.keySet().iterator().next());
      }
      return taken;
    }
  }

  /**
   * The objects under a prefix whose indexed field has a value, as the cache holds them, in key
   * order, with the revision they are at (and any object whose value could not be read, for the
   * caller's filter to judge); {@code null} when the field is not indexed or the cache cannot
   * start.
   */
  Snapshot snapshot(String prefix, String field, String value) {
    synchronized (lock) {
      if (closed || (source == null && !tryStart())) {
        return null;
      }
      java.util.Collection<String> keys = indexes.keys(field, value, prefix);
      if (keys == null) {
        return null;
      }
      List<Entry> items = new ArrayList<>(keys.size());
      for (String key : keys) {
        Entry entry = state.get(key);
        if (entry != null) {
          items.add(entry);
        }
      }
      return new Snapshot(items, stateRevision, state.size());
    }
  }

  /**
   * One page of the objects under a prefix as they were at an earlier revision that the cache's
   * kept changes cover, as kube-apiserver lists from its cache's snapshots: the objects held now,
   * with every change after that revision undone.
   *
   * @param items the objects from the start key on, at most the number asked for
   * @param total how many objects there were from the start key on
   */
  record PastPage(List<Entry> items, long total) {}

  /**
   * The objects under a prefix, from a key on, as they were at a revision the cache's kept changes
   * cover (not before the oldest kept change, not after the cache's revision); {@code null} when
   * they do not cover it, a change does not tell the value before it, or the cache is not running.
   *
   * @param prefix the prefix
   * @param startKey the first key to include, or {@code null} for the prefix's first
   * @param revision the revision
   * @param max the most objects to return, 0 for all
   */
  PastPage pageAt(String prefix, String startKey, long revision, int max) {
    synchronized (lock) {
      if (closed || source == null || revision < complete || revision > stateRevision) {
        return null;
      }
      String from = startKey == null || startKey.compareTo(prefix) < 0 ? prefix : startKey;
      // The value of each key changed since the revision, as it was then (null: absent then).
      NavigableMap<String, KeyValue> then = new TreeMap<>();
      for (var changes = recent.descendingIterator(); changes.hasNext(); ) {
        StorageEvent event = changes.next();
        if (event.revision() <= revision) {
          break;
        }
        String key = event.kv().key();
        if (!key.startsWith(prefix) || key.compareTo(from) < 0) {
          continue;
        }
        if (event.previous() == null && !event.isCreate()) {
          return null;
        }
        then.put(key, event.previous());
      }
      List<Entry> items = new ArrayList<>();
      long total = 0;
      var now = state.tailMap(from, true).entrySet().iterator();
      var past = then.entrySet().iterator();
      Map.Entry<String, Entry> current = next(now, prefix);
      Map.Entry<String, KeyValue> earlier = past.hasNext() ? past.next() : null;
      while (current != null || earlier != null) {
        int order =
            current == null
                ? 1
                : earlier == null ? -1 : current.getKey().compareTo(earlier.getKey());
        Entry item = null;
        if (order < 0) {
          item = current.getValue();
          current = next(now, prefix);
        } else {
          if (earlier.getValue() != null) {
            // Held apart from the cache's entries: no encoding is kept for it.
            item = new Entry(earlier.getValue());
            item.retire();
          }
          if (order == 0) {
            current = next(now, prefix);
          }
          earlier = past.hasNext() ? past.next() : null;
        }
        if (item != null) {
          total++;
          if (max == 0 || items.size() < max) {
            items.add(item);
          }
        }
      }
      return new PastPage(items, total);
    }
  }

  private static Map.Entry<String, Entry> next(
      java.util.Iterator<Map.Entry<String, Entry>> entries, String prefix) {
    if (!entries.hasNext()) {
      return null;
    }
    Map.Entry<String, Entry> entry = entries.next();
    return entry.getKey().startsWith(prefix) ? entry : null;
  }

  /**
   * The revision the cache holds its root at and how many keys it holds there; starts the cache
   * when it is not running; {@code null} when it is closed or cannot start.
   */
  Progress progress() {
    synchronized (lock) {
      if (closed || (source == null && !tryStart())) {
        return null;
      }
      return new Progress(stateRevision, state.size());
    }
  }

  /**
   * What the cache holds under a key now: its entry, or none when the key is absent; {@code null}
   * when the cache is not running (closed, or stopped since a check), and cannot tell.
   */
  Lookup lookup(String key) {
    synchronized (lock) {
      if (closed || source == null) {
        return null;
      }
      return new Lookup(state.get(key));
    }
  }

  /**
   * The revision a cache holds its root at.
   *
   * @param revision the revision
   * @param rootKeys how many keys it holds under its root there
   */
  record Progress(long revision, long rootKeys) {}

  /**
   * What a cache holds under a key.
   *
   * @param entry the entry, or {@code null} when the key is absent
   */
  record Lookup(Entry entry) {}

  /**
   * The decoded object of a stored value when the cache holds that key at that revision, else the
   * value decoded now; starts the cache when it is not running, so that the next reads find the
   * objects decoded.
   */
  Object decoded(KeyValue kv) {
    Entry entry;
    synchronized (lock) {
      if (closed) {
        return decoder.apply(kv);
      }
      if (source == null && !tryStart()) {
        return decoder.apply(kv);
      }
      entry = state.get(kv.key());
    }
    if (entry != null && entry.kv().modRevision() == kv.modRevision()) {
      return entry.object();
    }
    return decoder.apply(kv);
  }

  /**
   * Starts the cache for a read that can do without it: false when listing the resource fails (a
   * value that cannot be read, a storage that is down), so that the read goes to the storage and
   * meets the error only if it reads that value itself. Holds the lock.
   */
  private boolean tryStart() {
    try {
      start();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Starts the one storage watch after listing the resource in pages of {@link #START_PAGE}, each
   * read at the first page's revision. Holds the lock.
   */
  private void start() {
    ListResult page = storage.list(root, 0, null, START_PAGE);
    long now = page.revision();
    List<KeyValue> all = new ArrayList<>(page.items());
    while (page.more() && !page.items().isEmpty()) {
      String next = page.items().get(page.items().size() - 1).key() + "\0";
      page = storage.list(root, now, next, START_PAGE);
      all.addAll(page.items());
    }
    retireAll();
    for (KeyValue kv : all) {
      Entry entry = new Entry(kv);
      state.put(kv.key(), entry);
      indexes.add(kv.key(), entry);
    }
    stateRevision = now;
    snapshots.clear();
    source = storage.watch(root, now);
    complete = now;
    recent.clear();
    StorageWatch reading = source;
    dispatcher = new Thread(() -> dispatch(reading), "watch-cache " + root);
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
      String key = event.kv().key();
      Entry added = event.type() == StorageEvent.Type.DELETE ? null : new Entry(event.kv());
      Entry replaced = added == null ? state.remove(key) : state.put(key, added);
      String[] before = replaced == null ? FieldIndexes.ABSENT : indexes.values(key);
      if (replaced != null) {
        replaced.retire();
        indexes.remove(key);
      }
      if (added != null) {
        indexes.add(key, added);
      }
      String[] after = added == null ? FieldIndexes.ABSENT : indexes.values(key);
      stateRevision = Math.max(stateRevision, event.revision());
      snapshots.clear();
      lock.notifyAll();
      recent.addLast(event);
      while (recent.size() > capacity) {
        complete = recent.removeFirst().revision();
      }
      for (Watcher watcher : List.copyOf(watchers)) {
        watcher.offer(event, before, after);
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
      for (Watcher watcher : List.copyOf(watchers)) {
        watcher
            .queue()
            .end(
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
      retireAll();
      lock.notifyAll();
    }
  }

  /**
   * Stops the cache for good (its resource is no longer served, is served by a new store, or its
   * server is closed): its storage watch is closed, its watchers end as when the storage watch
   * ends, its dispatcher thread is interrupted so that it ends at once, and later calls go to the
   * storage.
   */
  void close() {
    synchronized (lock) {
      closed = true;
      retireAll();
      lock.notifyAll();
      if (source != null) {
        source.close();
      }
      if (dispatcher != null) {
        dispatcher.interrupt();
        dispatcher = null;
      }
    }
  }

  /** Empties the state: its objects' encodings are no longer kept. Holds the lock. */
  private void retireAll() {
    for (Entry entry : state.values()) {
      entry.retire();
    }
    state.clear();
    snapshots.clear();
    indexes.clear();
    byObject.clear();
  }

  /**
   * An encoding of an object the cache decoded, made once: while the cache holds the object (the
   * same instance, at the revision it was decoded from), the first call computes it and later calls
   * with an equal key return it; an object the cache no longer holds, or never held, is encoded
   * each time. A few keys are kept per object (the last asked for): a resource is normally served
   * in one version and a few representations. The encodings the cache keeps hold at most its budget
   * of bytes together ({@link #ENCODING_BUDGET} by default); past it, an encoding is made each time
   * it is asked for until entries that keep theirs change or leave.
   *
   * @param object an object from {@link Entry#object()} or {@link #decoded}
   * @param key what the encoding depends on besides the object
   * @param encode makes the encoding
   * @return the encoding
   */
  Object encoded(Object object, Object key, Function<Object, Object> encode) {
    Entry entry = byObject.get(new Identity(object));
    return entry == null ? encode.apply(object) : entry.encoded(key, encode);
  }

  /** A watcher that ended or was closed is served no more. */
  private void forget(QueuedWatch ended) {
    synchronized (lock) {
      watchers.removeIf(watcher -> watcher.queue() == ended);
    }
  }

  /** Returns how many watchers the cache serves (for tests and metrics). */
  int watchers() {
    synchronized (lock) {
      return watchers.size();
    }
  }

  /**
   * The objects of a prefix at a revision.
   *
   * @param items the objects under the prefix, in key order
   * @param revision the revision the cache holds them at
   * @param rootKeys how many keys the cache holds under its whole root at that revision
   */
  record Snapshot(List<Entry> items, long revision, long rootKeys) {}

  /** The key prefix the cache holds. */
  String root() {
    return root;
  }

  /**
   * Tells whether the cache holds a revision (or a later one) now, and is still following its
   * storage.
   *
   * @param revision the revision
   * @return true when it does
   */
  boolean holds(long revision) {
    synchronized (lock) {
      return !closed && source != null && stateRevision >= revision;
    }
  }

  /**
   * Waits until the cache holds a revision, or the time is up.
   *
   * @param revision the revision
   * @param timeout the most to wait
   * @return true when the cache holds it (or a later one), false when the time ran out or the cache
   *     stopped
   * @throws InterruptedException when interrupted
   */
  boolean awaitRevision(long revision, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (stateRevision < revision) {
        long left = deadline - System.nanoTime();
        if (closed || source == null || left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return true;
    }
  }

  /**
   * A stored value and its object, decoded on first use, with the last few encodings asked of it;
   * the cache forgets them when the key changes or the cache stops ({@link #retire}). Once decoded,
   * the entry no longer holds the value's bytes ({@link #kv()} keeps the key and revisions), as
   * kube-apiserver's watch cache holds objects, not their stored bytes.
   */
  final class Entry {
    /** The stored value until the object is decoded; then its key and revisions alone. */
    private volatile KeyValue kv;

    private volatile Object object;
    private volatile Encoding[] encodings = NO_ENCODINGS;
    private volatile boolean retired;

    Entry(KeyValue kv) {
      this.kv = kv;
    }

    KeyValue kv() {
      return kv;
    }

    /** The decoded object, shared: never change it. */
    Object object() {
      Object decoded = object;
      if (decoded == null) {
        synchronized (this) {
          decoded = object;
          if (decoded == null) {
            decoded = decoder.apply(kv);
            object = decoded;
            // The bytes are not read again: the decoded object and its encodings answer.
            KeyValue read = kv;
            kv =
                new KeyValue(
                    read.key(),
                    NO_BYTES,
                    read.createRevision(),
                    read.modRevision(),
                    read.version());
            byObject.put(new Identity(decoded), this);
            if (retired) {
              // Retired while decoding: retire() may have run before the object was set.
              byObject.remove(new Identity(decoded));
            }
          }
        }
      }
      return decoded;
    }

    /** The encoding under a key, made on first use (see {@link WatchCache#encoded}). */
    Object encoded(Object key, Function<Object, Object> encode) {
      Encoding[] held = encodings;
      for (Encoding encoding : held) {
        if (encoding.key().equals(key)) {
          return encoding.value();
        }
      }
      Object value = encode.apply(object());
      keep(key, value);
      return value;
    }

    /**
     * Keeps an encoding, the newest first, the oldest dropped past the bound; not when the entry is
     * retired or the cache's encodings would pass its budget (then it is made again when next asked
     * for).
     */
    private synchronized void keep(Object key, Object value) {
      if (retired) {
        return;
      }
      Encoding[] held = encodings;
      for (Encoding encoding : held) {
        if (encoding.key().equals(key)) {
          return;
        }
      }
      long size = sizeOf(value);
      Encoding[] next = new Encoding[Math.min(held.length + 1, ENCODINGS_KEPT)];
      long dropped = 0;
      for (int i = next.length - 1; i < held.length; i++) {
        dropped += sizeOf(held[i].value());
      }
      if (keptBytes.get() + size - dropped > encodingBudget) {
        return;
      }
      keptBytes.addAndGet(size - dropped);
      next[0] = new Encoding(key, value);
      System.arraycopy(held, 0, next, 1, next.length - 1);
      encodings = next;
    }

    /** The cache no longer holds this entry: its object's encodings are not kept. */
    synchronized void retire() {
      retired = true;
      long freed = 0;
      for (Encoding encoding : encodings) {
        freed += sizeOf(encoding.value());
      }
      keptBytes.addAndGet(-freed);
      encodings = NO_ENCODINGS;
      Object decoded = object;
      if (decoded != null) {
        byObject.remove(new Identity(decoded));
      }
    }
  }

  /** The bytes an encoding holds, as far as the cache counts them: a byte array's length. */
  private static long sizeOf(Object encoding) {
    return encoding instanceof byte[] bytes ? bytes.length : 0;
  }

  /**
   * How many bytes of encodings one resource's cache keeps by default: enough for every answer of a
   * few thousand objects of a few KB; past it, encodings are made for each request, as for objects
   * the cache does not hold, so that a resource of 150,000 Pods does not keep a GB of list items.
   */
  static final long ENCODING_BUDGET = 32L << 20;

  /** The bytes of encodings the entries keep now (for tests). */
  long keptEncodingBytes() {
    return keptBytes.get();
  }

  /** How many encodings an entry keeps (a JSON item, a table row's metadata, another version). */
  private static final int ENCODINGS_KEPT = 4;

  private static final Encoding[] NO_ENCODINGS = new Encoding[0];

  private static final byte[] NO_BYTES = new byte[0];

  /** One encoding of an object, and what it was made for. */
  private record Encoding(Object key, Object value) {}

  /** An object as a map key: by identity, as the cache hands out one instance per entry. */
  private static final class Identity {
    private final Object object;

    Identity(Object object) {
      this.object = object;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Identity && ((Identity) other).object == object;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(object);
    }
  }

  /** A watcher served by the cache: its changes under its prefix after its revision. */
  private record Watcher(QueuedWatch queue, long after, int field, String value) {
    /**
     * Called with the cache's lock held, with the indexed values of the change's object before and
     * after it ({@link FieldIndexes#ABSENT} when there was none, {@code null} when not known).
     */
    void offer(StorageEvent event, String[] previous, String[] current) {
      if (event.revision() > after
          && event.kv().key().startsWith(queue.prefix())
          && (field < 0 || has(previous) || has(current))) {
        queue.offer(event);
      }
    }

    /** Whether the values may hold the watched one: unknown values may. */
    private boolean has(String[] values) {
      return values == null || (values.length > field && values[field].equals(value));
    }
  }
}
