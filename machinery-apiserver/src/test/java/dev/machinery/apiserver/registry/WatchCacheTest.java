package dev.machinery.apiserver.registry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.apiserver.storage.testing.ForwardingStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The watch cache serves every watcher of a resource from one storage watch, replays the changes it
 * keeps, hands older starts to the storage, filters namespaces, and ends a slow watcher alone.
 */
class WatchCacheTest {
  private static final String ROOT = "configmaps/";
  private static final java.util.function.Function<KeyValue, Object> DECODE =
      kv -> new String(kv.value(), UTF_8);

  /** A store that counts the storage watches opened on it. */
  private static final class CountingStorage extends ForwardingStorage {
    final MemoryStorage delegate;
    final AtomicInteger watches = new AtomicInteger();

    CountingStorage() {
      this(new MemoryStorage());
    }

    private CountingStorage(MemoryStorage delegate) {
      super(delegate);
      this.delegate = delegate;
    }

    @Override
    public StorageWatch watch(String prefix, long afterRevision) {
      watches.incrementAndGet();
      return store.watch(prefix, afterRevision);
    }
  }

  /**
   * How many times this thread has waited or parked (the JVM's {@code ThreadInfo.getWaitedCount}),
   * read reflectively: the module under test does not read java.management, and the tests run on
   * the class path.
   */
  private static long waitedCount() throws ReflectiveOperationException {
    Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
    Class<?> bean = Class.forName("java.lang.management.ThreadMXBean");
    Class<?> info = Class.forName("java.lang.management.ThreadInfo");
    Object threads = factory.getMethod("getThreadMXBean").invoke(null);
    Object mine =
        bean.getMethod("getThreadInfo", long.class).invoke(threads, Thread.currentThread().getId());
    return (Long) info.getMethod("getWaitedCount").invoke(mine);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  private static List<String> take(StorageWatch watch, int count) throws InterruptedException {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StorageEvent event = watch.poll(5, TimeUnit.SECONDS);
      assertNotNull(event, "event " + i + " after " + keys);
      keys.add(event.kv().key().substring(ROOT.length()));
    }
    return keys;
  }

  /**
   * A page at a past revision, from the cache's kept changes, is the storage's own page at that
   * revision: seeded random creates, updates and deletes under two namespaces, then every revision
   * the changes cover, every start key and a few limits, compared with MemoryStorage, which keeps
   * each key's versions itself.
   */
  /**
   * An indexed field's lookup gives the objects a scan of the cache with the same filter gives, in
   * key order, through seeded random creates, updates that move objects between values, deletes,
   * and values that do not decode (given to every lookup, for the filter to judge).
   */
  /**
   * A watch by an indexed value is offered the changes whose object had or has that value (kube's
   * trigger functions: a Pod moving off a node is seen by that node's watch and the next one's),
   * and those whose value could not be read; a watch without one is offered everything.
   */
  @Test
  void aWatchByAnIndexedValueIsOfferedOnlyItsChanges() throws Exception {
    java.util.function.Function<KeyValue, Object> decode =
        kv -> {
          String text = new String(kv.value(), UTF_8);
          if (text.startsWith("bad")) {
            throw new IllegalStateException("cannot decode " + kv.key());
          }
          return text;
        };
    MemoryStorage storage = new MemoryStorage();
    WatchCache cache =
        new WatchCache(
            storage,
            ROOT,
            1_000,
            1_000,
            decode,
            Map.of("spec.nodeName", object -> ((String) object).split("\\|")[0]));
    assertNotNull(cache.progress(), "started");
    long start = storage.currentRevision();
    StorageWatch one = cache.watch(ROOT, start, "spec.nodeName", "n1");
    StorageWatch two = cache.watch(ROOT + "a/", start, "spec.nodeName", "n2");
    StorageWatch all = cache.watch(ROOT, start, null, null);
    storage.create(ROOT + "a/p", bytes("n1|1"));
    storage.create(ROOT + "a/q", bytes("n3|1"));
    storage.update(ROOT + "a/p", 0, bytes("n2|2"));
    storage.create(ROOT + "b/r", bytes("n2|1"));
    storage.delete(ROOT + "a/p", 0);
    storage.create(ROOT + "a/s", bytes("bad"));
    storage.create(ROOT + "a/t", bytes("n1|1"));

    assertEquals(List.of("a/p", "a/p", "a/s", "a/t"), take(one, 4));
    assertEquals(List.of("a/p", "a/p", "a/s"), take(two, 3));
    assertEquals(List.of("a/p", "a/q", "a/p", "b/r", "a/p", "a/s", "a/t"), take(all, 7));
    assertNull(two.poll(200, TimeUnit.MILLISECONDS), "n2's watch: a/t is on n1");
    cache.close();
  }

  @Test
  void anIndexedLookupIsTheScanOfTheCache() throws Exception {
    java.util.function.Function<KeyValue, Object> decode =
        kv -> {
          String text = new String(kv.value(), UTF_8);
          if (text.startsWith("bad")) {
            throw new IllegalStateException("cannot decode " + kv.key());
          }
          return text;
        };
    java.util.function.Function<Object, String> node = object -> ((String) object).split("\\|")[0];
    for (long seed = 1; seed <= 5; seed++) {
      java.util.Random random = new java.util.Random(seed);
      MemoryStorage storage = new MemoryStorage();
      for (int k = 0; k < 6; k++) {
        storage.create(ROOT + "a/p" + k, bytes("n" + random.nextInt(3) + "|0"));
      }
      WatchCache cache =
          new WatchCache(storage, ROOT, 1_000, 1_000, decode, Map.of("spec.nodeName", node));
      assertNotNull(cache.progress(), "started");
      List<String> keys = new ArrayList<>();
      for (String ns : List.of("a/", "b/")) {
        for (int k = 0; k < 10; k++) {
          keys.add(ROOT + ns + "p" + k);
        }
      }
      for (int step = 1; step <= 150; step++) {
        String key = keys.get(random.nextInt(keys.size()));
        byte[] value =
            bytes(random.nextInt(25) == 0 ? "bad" + step : "n" + random.nextInt(3) + "|" + step);
        if (storage.get(key).isEmpty()) {
          storage.create(key, value);
        } else if (random.nextInt(4) == 0) {
          storage.delete(key, 0);
        } else {
          storage.update(key, 0, value);
        }
        if (step % 10 != 0) {
          continue;
        }
        assertTrue(cache.awaitRevision(storage.currentRevision(), java.time.Duration.ofSeconds(5)));
        for (String prefix : List.of(ROOT, ROOT + "a/", ROOT + "b/")) {
          List<String> all = new ArrayList<>();
          for (WatchCache.Entry entry : cache.snapshot(prefix).items()) {
            all.add(entry.kv().key());
          }
          for (String wanted : List.of("n0", "n1", "n2", "n9")) {
            List<String> expected = new ArrayList<>();
            for (String each : all) {
              String text = new String(storage.get(each).orElseThrow().value(), UTF_8);
              if (text.startsWith("bad") || text.startsWith(wanted + "|")) {
                expected.add(each);
              }
            }
            List<String> found = new ArrayList<>();
            for (WatchCache.Entry entry : cache.snapshot(prefix, "spec.nodeName", wanted).items()) {
              found.add(entry.kv().key());
            }
            assertEquals(
                expected, found, "seed " + seed + ", step " + step + ", " + prefix + " " + wanted);
          }
        }
      }
      assertNull(cache.snapshot(ROOT, "status.phase", "Running"), "a field not indexed");
      cache.close();
    }
  }

  @Test
  void aSnapshotIsTakenAgainAfterEveryChangeAndReusedUntilOne() throws Exception {
    for (long seed = 1; seed <= 5; seed++) {
      java.util.Random random = new java.util.Random(seed);
      MemoryStorage storage = new MemoryStorage();
      WatchCache cache = new WatchCache(storage, ROOT, 1_000, 1_000, DECODE);
      assertNotNull(cache.progress(), "started");
      List<String> prefixes = List.of(ROOT, ROOT + "a/", ROOT + "b/");
      for (int step = 0; step < 80; step++) {
        String key = ROOT + (random.nextBoolean() ? "a/" : "b/") + "k" + random.nextInt(6);
        if (storage.get(key).isEmpty()) {
          storage.create(key, bytes("v" + step));
        } else if (random.nextInt(3) == 0) {
          storage.delete(key, 0);
        } else {
          storage.update(key, 0, bytes("v" + step));
        }
        assertTrue(cache.awaitRevision(storage.currentRevision(), java.time.Duration.ofSeconds(5)));
        for (String prefix : prefixes) {
          WatchCache.Snapshot snapshot = cache.snapshot(prefix);
          String where = "seed " + seed + ", step " + step + ", " + prefix;
          List<String> expected = new ArrayList<>();
          for (KeyValue kv : storage.list(prefix, 0, null, 0).items()) {
            expected.add(kv.key() + "=" + new String(kv.value(), UTF_8));
          }
          List<String> held = new ArrayList<>();
          for (WatchCache.Entry entry : snapshot.items()) {
            held.add(entry.kv().key() + "=" + entry.object());
          }
          assertEquals(expected, held, where);
          assertEquals(storage.currentRevision(), snapshot.revision(), where);
          assertTrue(snapshot == cache.snapshot(prefix), "unchanged, the same snapshot: " + where);
          assertThrows(
              UnsupportedOperationException.class,
              () -> snapshot.items().clear(),
              "a shared snapshot cannot be changed");
        }
      }
      cache.close();
    }
  }

  @Test
  void aPageAtAPastRevisionIsTheStoragesPageThen() throws Exception {
    for (long seed = 1; seed <= 5; seed++) {
      java.util.Random random = new java.util.Random(seed);
      MemoryStorage storage = new MemoryStorage();
      WatchCache cache = new WatchCache(storage, ROOT, 1_000, 1_000, DECODE);
      storage.create(ROOT + "a/x", bytes("first"));
      assertNotNull(cache.progress(), "started");
      long oldest = storage.currentRevision();
      List<String> keys = new ArrayList<>();
      for (String ns : List.of("a/", "b/")) {
        for (int k = 0; k < 8; k++) {
          keys.add(ROOT + ns + "k" + k);
        }
      }
      for (int step = 0; step < 120; step++) {
        String key = keys.get(random.nextInt(keys.size()));
        var current = storage.get(key);
        if (current.isEmpty()) {
          storage.create(key, bytes("v" + step));
        } else if (random.nextInt(3) == 0) {
          storage.delete(key, 0);
        } else {
          storage.update(key, 0, bytes("v" + step));
        }
      }
      long newest = storage.currentRevision();
      assertTrue(cache.awaitRevision(newest, java.time.Duration.ofSeconds(5)));
      for (long revision = oldest; revision <= newest; revision++) {
        for (String prefix : List.of(ROOT, ROOT + "a/", ROOT + "b/")) {
          for (String start : new String[] {null, ROOT + "a/k3", ROOT + "b/k5"}) {
            for (int limit : new int[] {0, 1, 3}) {
              WatchCache.PastPage page = cache.pageAt(prefix, start, revision, limit);
              assertNotNull(page, "revision " + revision);
              String from = start == null || start.compareTo(prefix) < 0 ? prefix : start;
              var expected = storage.list(prefix, revision, from, 0).items();
              String where = "seed " + seed + ", " + prefix + " from " + start + " at " + revision;
              assertEquals(expected.size(), page.total(), where);
              int shown = limit == 0 ? expected.size() : Math.min(limit, expected.size());
              assertEquals(shown, page.items().size(), where);
              for (int j = 0; j < shown; j++) {
                assertEquals(expected.get(j).key(), page.items().get(j).kv().key(), where);
                assertEquals(
                    new String(expected.get(j).value(), UTF_8),
                    page.items().get(j).object(),
                    where);
              }
            }
          }
        }
      }
      assertEquals(null, cache.pageAt(ROOT, null, oldest - 1, 0), "before the kept changes");
      assertEquals(null, cache.pageAt(ROOT, null, newest + 1, 0), "after the cache's revision");
      cache.close();
    }
  }

  @Test
  void aHundredWatchersShareOneStorageWatchAndSeeEveryChangeOnce() throws Exception {
    CountingStorage storage = new CountingStorage();
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    long start = storage.currentRevision();
    List<StorageWatch> watchers = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      watchers.add(cache.watch(ROOT, start));
    }
    for (int i = 0; i < 20; i++) {
      storage.create(ROOT + "default/c" + i, bytes("v"));
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      expected.add("default/c" + i);
    }
    for (StorageWatch watch : watchers) {
      assertEquals(expected, take(watch, 20));
      assertNull(watch.poll(10, TimeUnit.MILLISECONDS));
      watch.close();
    }
    assertEquals(1, storage.watches.get());
    assertEquals(0, cache.watchers());
  }

  @Test
  void recentStartsAreReplayedAndOlderOnesGoToTheStorage() throws Exception {
    CountingStorage storage = new CountingStorage();
    KeyValue before = storage.create(ROOT + "default/before", bytes("v"));
    WatchCache cache = new WatchCache(storage, ROOT, 3, 1_000, DECODE);
    StorageWatch primer = cache.watch(ROOT, storage.currentRevision());
    List<KeyValue> written = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      written.add(storage.create(ROOT + "default/k" + i, bytes("v")));
    }
    // Once the primer has all five, the cache has dispatched them and keeps the last three.
    assertEquals(5, take(primer, 5).size());
    primer.close();
    assertEquals(1, storage.watches.get());
    try (StorageWatch recent = cache.watch(ROOT, written.get(2).modRevision())) {
      assertEquals(List.of("default/k3", "default/k4"), take(recent, 2));
    }
    try (StorageWatch edge = cache.watch(ROOT, written.get(1).modRevision())) {
      assertEquals(List.of("default/k2", "default/k3", "default/k4"), take(edge, 3));
    }
    assertEquals(
        1, storage.watches.get(), "starts within the kept changes are served by the cache");
    try (StorageWatch old = cache.watch(ROOT, before.modRevision())) {
      assertEquals(2, storage.watches.get(), "a start older than the kept changes");
      assertEquals(List.of("default/k0", "default/k1", "default/k2"), take(old, 3));
    }
    storage.compact(storage.currentRevision());
    assertEquals(
        StorageException.Kind.COMPACTED,
        assertThrows(StorageException.class, () -> cache.watch(ROOT, before.modRevision())).kind());
    // Kept by the cache, but compacted by the storage: compacted all the same.
    long kept = written.get(3).modRevision();
    assertEquals(
        StorageException.Kind.COMPACTED,
        assertThrows(StorageException.class, () -> cache.watch(ROOT, kept)).kind());
  }

  @Test
  void aNamespaceWatcherSeesItsNamespaceOnly() throws Exception {
    CountingStorage storage = new CountingStorage();
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    long start = storage.currentRevision();
    try (StorageWatch blue = cache.watch(ROOT + "blue/", start);
        StorageWatch all = cache.watch(ROOT, start)) {
      storage.create(ROOT + "red/a", bytes("v"));
      storage.create(ROOT + "blue/b", bytes("v"));
      storage.create(ROOT + "bluer/c", bytes("v"));
      assertEquals(List.of("blue/b"), take(blue, 1));
      assertNull(blue.poll(50, TimeUnit.MILLISECONDS));
      assertEquals(List.of("red/a", "blue/b", "bluer/c"), take(all, 3));
    }
  }

  @Test
  void aWatcherThatNeverReadsIsEndedAloneAndTheOthersGoOn() throws Exception {
    CountingStorage storage = new CountingStorage();
    WatchCache cache = new WatchCache(storage, ROOT, 100, 5, DECODE);
    long start = storage.currentRevision();
    StorageWatch idle = cache.watch(ROOT, start);
    StorageWatch reader = cache.watch(ROOT, start);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      storage.create(ROOT + "default/k" + i, bytes("v"));
      seen.addAll(take(reader, 1));
    }
    assertEquals(50, seen.size());
    assertEquals(5, take(idle, 5).size());
    assertNull(idle.poll(10, TimeUnit.MILLISECONDS));
    assertTrue(idle.isDone());
    assertEquals(StorageException.Kind.UNAVAILABLE, idle.error().kind());
    assertEquals(
        "watcher of " + ROOT + " fell 5 changes behind at revision 6 and was ended",
        idle.error().getMessage());
    assertNull(reader.error());
    reader.close();
  }

  @Test
  void closingTheStorageEndsEveryWatcher() throws Exception {
    CountingStorage storage = new CountingStorage();
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    StorageWatch watch = cache.watch(ROOT, storage.currentRevision());
    storage.close();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!watch.isDone() && System.nanoTime() < deadline) {
      assertNull(watch.poll(50, TimeUnit.MILLISECONDS));
    }
    assertTrue(watch.isDone());
    assertEquals(StorageException.Kind.UNAVAILABLE, watch.error().kind());
  }

  @Test
  void anIdleWatcherSleepsUntilAChangeOrItsEnd() throws Exception {
    // A thousand idle watchers are a thousand threads in poll: each must sleep until a change
    // arrives or its watch ends, not wake every few milliseconds to look (which costs a thousand
    // idle watchers tens of thousands of wake-ups a second).
    CountingStorage storage = new CountingStorage();
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    StorageWatch idle = cache.watch(ROOT, storage.currentRevision());
    long waitsBefore = waitedCount();
    assertNull(idle.poll(1, TimeUnit.SECONDS));
    long wakeUps = waitedCount() - waitsBefore;
    assertTrue(wakeUps <= 3, "an idle poll of one second woke " + wakeUps + " times");

    // And it is woken at once by a change, by the watch's close, and by the storage's end.
    CompletableFuture<StorageEvent> next =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return idle.poll(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(100);
    storage.create(ROOT + "default/a", bytes("v"));
    assertEquals(ROOT + "default/a", next.get(5, TimeUnit.SECONDS).kv().key());

    CompletableFuture<StorageEvent> closed =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return idle.poll(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(100);
    long closing = System.nanoTime();
    idle.close();
    assertNull(closed.get(5, TimeUnit.SECONDS));
    assertTrue(System.nanoTime() - closing < TimeUnit.SECONDS.toNanos(2));
    assertTrue(idle.isDone());

    StorageWatch other = cache.watch(ROOT, storage.currentRevision());
    CompletableFuture<StorageEvent> ended =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return other.poll(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(100);
    storage.close();
    assertNull(ended.get(5, TimeUnit.SECONDS));
    assertTrue(other.isDone());
    assertEquals(StorageException.Kind.UNAVAILABLE, other.error().kind());
  }

  @Test
  void anEncodingIsMadeOncePerHeldObjectAndForgottenWhenTheObjectChanges() throws Exception {
    MemoryStorage storage = new MemoryStorage();
    KeyValue stored = storage.create(ROOT + "a/one", bytes("1"));
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    Object one = cache.snapshot(ROOT).items().get(0).object();
    AtomicInteger encodes = new AtomicInteger();
    java.util.function.Function<Object, Object> encode =
        object -> {
          encodes.incrementAndGet();
          return "<" + object + ">";
        };

    assertEquals("<1>", cache.encoded(one, "v1", encode));
    assertEquals("<1>", cache.encoded(one, "v1", encode));
    assertEquals(1, encodes.get(), "a held object is encoded once per key");
    assertEquals("<1>", cache.encoded(cache.decoded(stored), "v1", encode));
    assertEquals(1, encodes.get(), "a read of the same revision shares the object and encoding");
    assertEquals("<1>", cache.encoded(one, "v2", encode));
    assertEquals(2, encodes.get(), "another key is encoded anew");
    cache.encoded(one, "v1", encode);
    assertEquals(2, encodes.get(), "and the first is kept beside it");

    Object stranger = new String("1");
    cache.encoded(stranger, "v2", encode);
    cache.encoded(stranger, "v2", encode);
    assertEquals(4, encodes.get(), "an object the cache does not hold is encoded every time");

    storage.update(ROOT + "a/one", stored.modRevision(), bytes("2"));
    assertTrue(cache.awaitRevision(storage.currentRevision(), java.time.Duration.ofSeconds(5)));
    cache.encoded(one, "v2", encode);
    cache.encoded(one, "v2", encode);
    assertEquals(6, encodes.get(), "the replaced object's encoding is no longer kept");
    Object two = cache.snapshot(ROOT).items().get(0).object();
    assertEquals("<2>", cache.encoded(two, "v2", encode));
    assertEquals("<2>", cache.encoded(two, "v2", encode));
    assertEquals(7, encodes.get());

    storage.delete(ROOT + "a/one", storage.get(ROOT + "a/one").orElseThrow().modRevision());
    assertTrue(cache.awaitRevision(storage.currentRevision(), java.time.Duration.ofSeconds(5)));
    cache.encoded(two, "v2", encode);
    assertEquals(8, encodes.get(), "a deleted object's encoding is no longer kept");
    cache.close();
    cache.encoded(two, "v2", encode);
    assertEquals(9, encodes.get());
  }

  @Test
  void aSnapshotHoldsTheCurrentObjectsOfAPrefixDecodedOnce() throws Exception {
    MemoryStorage storage = new MemoryStorage();
    storage.create(ROOT + "a/one", "1".getBytes(UTF_8));
    storage.create(ROOT + "b/two", "2".getBytes(UTF_8));
    AtomicInteger decodes = new AtomicInteger();
    WatchCache cache =
        new WatchCache(
            storage,
            ROOT,
            100,
            1_000,
            kv -> {
              decodes.incrementAndGet();
              return new String(kv.value(), UTF_8);
            });
    WatchCache.Snapshot first = cache.snapshot(ROOT);
    assertEquals(List.of("1", "2"), objects(first));
    assertEquals(storage.currentRevision(), first.revision());
    assertEquals(List.of("1"), objects(cache.snapshot(ROOT + "a/")));
    KeyValue three = storage.create(ROOT + "a/three", "3".getBytes(UTF_8));
    storage.delete(ROOT + "b/two", 0);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (cache.snapshot(ROOT).revision() < storage.currentRevision()
        && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    WatchCache.Snapshot later = cache.snapshot(ROOT);
    assertEquals(storage.currentRevision(), later.revision());
    assertEquals(List.of("1", "3"), objects(later));
    int before = decodes.get();
    Object shared = cache.decoded(three);
    assertTrue(shared == cache.snapshot(ROOT).items().get(1).object(), "one decoded object");
    assertEquals(before, decodes.get(), "nothing decoded again");
    KeyValue stale = new KeyValue(three.key(), "old".getBytes(UTF_8), 1, 1, 1);
    assertEquals("old", cache.decoded(stale), "another revision is decoded anew");
  }

  private static List<Object> objects(WatchCache.Snapshot snapshot) {
    List<Object> out = new ArrayList<>();
    snapshot.items().forEach(e -> out.add(e.object()));
    return out;
  }

  @Test
  void aClosedCacheEndsItsWatchersAndLeavesReadsToTheStorage() throws Exception {
    MemoryStorage storage = new MemoryStorage();
    storage.create(ROOT + "a/one", "1".getBytes(UTF_8));
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    assertEquals(List.of("1"), objects(cache.snapshot(ROOT)));
    StorageWatch watcher = cache.watch(ROOT, storage.currentRevision());
    cache.close();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!watcher.isDone() && System.nanoTime() < deadline) {
      watcher.poll(10, TimeUnit.MILLISECONDS);
    }
    assertTrue(watcher.isDone(), "the cache's watcher ends with it");
    assertNull(cache.snapshot(ROOT), "no snapshot from a closed cache");
    assertEquals(0, cache.watchers());
    try (StorageWatch direct = cache.watch(ROOT, storage.currentRevision())) {
      storage.create(ROOT + "a/two", "2".getBytes(UTF_8));
      StorageEvent event = direct.poll(10, TimeUnit.SECONDS);
      assertNotNull(event, "a watch after close is the storage's own");
      assertEquals(ROOT + "a/two", event.kv().key());
    }
  }

  @Test
  void theCacheStartsFromPagesReadAtOneRevisionAndHoldsWhatIsWrittenBetweenThem() throws Exception {
    int objects = 2 * WatchCache.START_PAGE + 1;
    MemoryStorage memory = new MemoryStorage();
    for (int i = 0; i < objects; i++) {
      memory.create(ROOT + String.format("ns/cm-%06d", i), "v".getBytes(UTF_8));
    }
    List<long[]> pages = new ArrayList<>();
    String written = ROOT + "ns/cm-000000-between";
    ForwardingStorage storage =
        new ForwardingStorage(memory) {
          @Override
          public dev.machinery.apiserver.storage.ListResult list(
              String prefix, long revision, String startKey, int limit) {
            pages.add(new long[] {revision, limit});
            if (pages.size() == 2) {
              // A write between two pages: not in the list, delivered by the watch after it.
              memory.create(written, "w".getBytes(UTF_8));
            }
            return super.list(prefix, revision, startKey, limit);
          }
        };
    long listedAt = memory.currentRevision();
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    WatchCache.Snapshot first = cache.snapshot(ROOT);
    assertNotNull(first);

    assertEquals(3, pages.size(), "three pages of at most " + WatchCache.START_PAGE);
    assertEquals(0, pages.get(0)[0], "the first page at the latest revision");
    for (long[] page : pages) {
      assertEquals(WatchCache.START_PAGE, page[1]);
    }
    assertEquals(listedAt, pages.get(1)[0], "later pages at the first page's revision");
    assertEquals(listedAt, pages.get(2)[0]);
    assertEquals(listedAt, first.revision());
    assertEquals(objects, first.items().size(), "every object, and not the later write");

    assertTrue(cache.awaitRevision(memory.currentRevision(), java.time.Duration.ofSeconds(5)));
    WatchCache.Snapshot after = cache.snapshot(ROOT);
    assertEquals(objects + 1, after.items().size(), "the write between pages, from the watch");
    assertEquals(1, pages.size() - 2, "no list after the start");
    cache.close();
  }
}
