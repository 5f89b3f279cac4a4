package dev.machinery.apiserver.registry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.testing.ForwardingStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Reads that arrive together share one check of the watch cache's freshness, and a read is only
 * answered by a check that began after it arrived, so it sees every write answered before it.
 */
class CacheFreshnessTest {
  private static final String ROOT = "configmaps/";
  private static final Function<KeyValue, Object> DECODE = kv -> new String(kv.value(), UTF_8);

  /** A memory store whose revision reads can be held, counted, or made to fail. */
  private static final class Gated extends ForwardingStorage {
    final MemoryStorage memory;
    final AtomicInteger revisionReads = new AtomicInteger();
    final AtomicInteger comparisons = new AtomicInteger();
    final List<String> readingThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
    final CountDownLatch firstRead = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean hold;
    volatile StorageException failure;

    Gated() {
      this(new MemoryStorage());
    }

    private Gated(MemoryStorage memory) {
      super(memory);
      this.memory = memory;
    }

    @Override
    public long currentRevision() {
      readingThreads.add(Thread.currentThread().getName());
      long revision = memory.currentRevision();
      if (failure != null) {
        throw failure;
      }
      if (revisionReads.incrementAndGet() == 1 && hold) {
        firstRead.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return revision;
    }

    /** Whether it says it answers from memory, as a memory store does. */
    volatile boolean fromMemory;

    @Override
    public boolean answersFromMemory() {
      return fromMemory;
    }

    /** The revision read held, counted or failed as {@link #currentRevision()}'s. */
    @Override
    public RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
      comparisons.incrementAndGet();
      long current = currentRevision();
      return new RevisionCheck(
          current,
          current <= afterRevision
              || memory.unchangedSince(prefix, afterRevision, current, keysAtAfter));
    }
  }

  private static void awaitWaiting(List<Thread> threads) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (Thread thread : threads) {
      while (thread.getState() != Thread.State.WAITING) {
        assertTrue(System.nanoTime() < deadline, thread.getName() + " never waited");
        Thread.sleep(5);
      }
    }
  }

  @Test
  void readsArrivingDuringACheckShareTheNextOneWhichSeesTheWritesBeforeThem() throws Exception {
    Gated storage = new Gated();
    storage.create(ROOT + "ns/a", "1".getBytes(UTF_8));
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    CacheFreshness freshness = new CacheFreshness(storage, cache, false);
    storage.hold = true;

    CompletableFuture<CacheFreshness.Result> first =
        CompletableFuture.supplyAsync(freshness::await);
    assertTrue(storage.firstRead.await(30, TimeUnit.SECONDS));
    long before = storage.memory.currentRevision();
    // A write answered while the first check runs: reads arriving now must see it.
    storage.create(ROOT + "ns/b", "2".getBytes(UTF_8));
    long written = storage.memory.currentRevision();

    List<CacheFreshness.Result> later = new ArrayList<>();
    List<Thread> readers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Thread reader =
          new Thread(
              () -> {
                CacheFreshness.Result result = freshness.await();
                synchronized (later) {
                  later.add(result);
                }
              },
              "reader-" + i);
      readers.add(reader);
      reader.start();
    }
    awaitWaiting(readers);
    storage.release.countDown();
    for (Thread reader : readers) {
      reader.join(TimeUnit.SECONDS.toMillis(30));
    }

    assertEquals(before, first.get(30, TimeUnit.SECONDS).current());
    assertEquals(3, later.size());
    for (CacheFreshness.Result result : later) {
      assertEquals(written, result.current(), "a check begun after the read arrived");
      assertSame(later.get(0), result, "one check for the three");
    }
    assertEquals(2, storage.revisionReads.get(), "two checks for four reads");
    cache.close();
  }

  @Test
  void whenReadsArriveTogetherACheckWaitsForTheReadsArrivingBeforeItBegins() throws Exception {
    Gated storage = new Gated();
    storage.create(ROOT + "ns/a", "1".getBytes(UTF_8));
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    // Long enough that the second read surely arrives while the first read's check gathers.
    CacheFreshness freshness = new CacheFreshness(storage, cache, TimeUnit.SECONDS.toNanos(30));

    // One read alone: its check begins at once (nothing to gather).
    freshness.await();
    assertEquals(1, storage.revisionReads.get());

    // Two reads that share a check: the next check gathers.
    storage.hold = true;
    storage.revisionReads.set(0);
    CompletableFuture<CacheFreshness.Result> held = CompletableFuture.supplyAsync(freshness::await);
    assertTrue(storage.firstRead.await(30, TimeUnit.SECONDS));
    List<Thread> sharing = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Thread reader = new Thread(freshness::await, "sharing-" + i);
      sharing.add(reader);
      reader.start();
    }
    awaitWaiting(sharing);
    storage.release.countDown();
    held.get(30, TimeUnit.SECONDS);
    for (Thread reader : sharing) {
      reader.join(TimeUnit.SECONDS.toMillis(30));
    }
    assertEquals(2, storage.revisionReads.get(), "one check for the two arriving together");

    // A read now waits before its check begins; one arriving meanwhile, after a write, joins it.
    List<CacheFreshness.Result> results = new ArrayList<>();
    Thread gathering =
        new Thread(
            () -> {
              CacheFreshness.Result result = freshness.await();
              synchronized (results) {
                results.add(result);
              }
            },
            "gathering");
    gathering.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (gathering.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(System.nanoTime() < deadline, "the check never gathered");
      Thread.sleep(5);
    }
    storage.create(ROOT + "ns/b", "2".getBytes(UTF_8));
    long written = storage.memory.currentRevision();
    Thread joining =
        new Thread(
            () -> {
              CacheFreshness.Result result = freshness.await();
              synchronized (results) {
                results.add(result);
              }
            },
            "joining");
    joining.start();
    awaitWaiting(List.of(joining));
    gathering.interrupt();
    gathering.join(TimeUnit.SECONDS.toMillis(30));
    joining.join(TimeUnit.SECONDS.toMillis(30));
    assertEquals(2, results.size());
    assertSame(results.get(0), results.get(1), "one check for both");
    assertEquals(written, results.get(0).current(), "begun after the later read arrived");
    assertEquals(3, storage.revisionReads.get());
    cache.close();
  }

  @Test
  void aCacheBehindTheStorageIsFreshOnlyWhenNothingOfItsResourceChanged() throws Exception {
    Gated storage = new Gated();
    storage.create(ROOT + "ns/a", "1".getBytes(UTF_8));
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    CacheFreshness freshness = new CacheFreshness(storage, cache, false);
    CacheFreshness.Result atStart = freshness.await();
    assertTrue(atStart.fresh());
    assertEquals(storage.memory.currentRevision(), atStart.freshAt());

    // Another resource's write: the cache is behind the revision but holds the current state.
    storage.create("secrets/ns/s", "x".getBytes(UTF_8));
    CacheFreshness.Result other = freshness.await();
    assertTrue(other.fresh());
    assertEquals(storage.memory.currentRevision(), other.freshAt());

    storage.failure = new StorageException(StorageException.Kind.UNAVAILABLE, ROOT, 0, "down");
    assertThrows(StorageException.class, freshness::await, "the storage's error, to the reader");
    storage.failure = null;
    cache.close();
    assertFalse(freshness.await().fresh(), "a closed cache is never fresh");
  }

  @Test
  void aReadWaitingWithoutAThreadGetsACheckBegunAfterItRunOnASharedThread() throws Exception {
    Gated storage = new Gated();
    storage.create(ROOT + "ns/a", "1".getBytes(UTF_8));
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    CacheFreshness freshness = new CacheFreshness(storage, cache, false);

    // Alone: its check runs on the shared thread.
    CacheFreshness.Result alone = freshness.awaitAsync().get(30, TimeUnit.SECONDS);
    assertEquals(storage.memory.currentRevision(), alone.current());
    assertEquals(List.of("machinery-cache-freshness"), storage.readingThreads);

    // Arriving while a thread's check runs: a write answered meanwhile is seen by its own check.
    storage.readingThreads.clear();
    storage.revisionReads.set(0);
    storage.hold = true;
    CompletableFuture<CacheFreshness.Result> held = CompletableFuture.supplyAsync(freshness::await);
    assertTrue(storage.firstRead.await(30, TimeUnit.SECONDS));
    CompletableFuture<CacheFreshness.Result> later = freshness.awaitAsync();
    storage.create(ROOT + "ns/b", "2".getBytes(UTF_8));
    long written = storage.memory.currentRevision();
    Thread.sleep(50);
    assertFalse(later.isDone(), "waits for a check begun after it");
    storage.release.countDown();
    assertEquals(written - 1, held.get(30, TimeUnit.SECONDS).current());
    assertEquals(written, later.get(30, TimeUnit.SECONDS).current());
    assertEquals(2, storage.revisionReads.get());
    assertEquals("machinery-cache-freshness", storage.readingThreads.get(1));

    // A read given the result answers from it without a check of its own.
    CacheFreshness.Result given = later.get();
    assertSame(given, freshness.answering(given, freshness::await));
    assertEquals(2, storage.revisionReads.get());

    // The storage's error completes the wait.
    storage.failure = new StorageException(StorageException.Kind.UNAVAILABLE, ROOT, 0, "down");
    java.util.concurrent.ExecutionException failed =
        assertThrows(
            java.util.concurrent.ExecutionException.class,
            () -> freshness.awaitAsync().get(30, TimeUnit.SECONDS));
    assertSame(storage.failure, failed.getCause());
    cache.close();
  }

  @Test
  void aCheckAReadWaitsForWithoutAThreadIsRunOnceByTheSharedThreadOrAWaitingOne() throws Exception {
    Gated storage = new Gated();
    storage.create(ROOT + "ns/a", "1".getBytes(UTF_8));
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    CacheFreshness freshness = new CacheFreshness(storage, cache, false);
    storage.hold = true;
    CompletableFuture<CacheFreshness.Result> held = CompletableFuture.supplyAsync(freshness::await);
    assertTrue(storage.firstRead.await(30, TimeUnit.SECONDS));

    // Two reads of the next check: one waiting without a thread, one on a thread of its own.
    CompletableFuture<CacheFreshness.Result> later = freshness.awaitAsync();
    AtomicReference<CacheFreshness.Result> onThread = new AtomicReference<>();
    Thread waiting = new Thread(() -> onThread.set(freshness.await()), "waiting-reader");
    waiting.start();
    awaitWaiting(List.of(waiting));
    storage.release.countDown();
    held.get(30, TimeUnit.SECONDS);
    CacheFreshness.Result result = later.get(30, TimeUnit.SECONDS);
    waiting.join(30_000);

    assertSame(result, onThread.get(), "both reads got the one check");
    assertEquals(2, storage.revisionReads.get(), "the check after the held one ran once");
    assertTrue(
        List.of("waiting-reader", "machinery-cache-freshness")
            .contains(storage.readingThreads.get(1)),
        "run by " + storage.readingThreads.get(1));
    cache.close();
  }

  /** A resource of four keys, "large" beyond three, whose cache holds them all. */
  private static WatchCache largeCache(Gated storage) throws InterruptedException {
    for (int i = 0; i < 4; i++) {
      storage.create(ROOT + "ns/k" + i, "v".getBytes(UTF_8));
    }
    WatchCache cache = new WatchCache(storage, ROOT, 100, 1_000, DECODE);
    assertNotNull(cache.progress(), "the cache started");
    assertTrue(cache.awaitRevision(storage.memory.currentRevision(), Duration.ofSeconds(10)));
    return cache;
  }

  @Test
  void aGetOfALargeResourceWhoseCacheIsBehindReadsItsKeyWithoutAComparison() throws Exception {
    Gated storage = new Gated();
    WatchCache cache = largeCache(storage);
    CacheFreshness gets = new CacheFreshness(storage, cache, 0, true, 3, Duration.ofSeconds(30));
    assertTrue(gets.await().fresh(), "current: answered from the cache");
    // Another resource's write: the cache is behind the revision, which only a comparison of
    // every value under the resource would show is harmless.
    storage.create("secrets/ns/s", "x".getBytes(UTF_8));
    CacheFreshness.Result behind = gets.await();
    assertFalse(behind.fresh(), "the GET reads its key");
    assertEquals(storage.memory.currentRevision(), behind.current());
    assertEquals(0, storage.comparisons.get());
    cache.close();
  }

  @Test
  void aListOfALargeResourceWaitsForItsCacheToCatchUpBeforeComparing() throws Exception {
    Gated storage = new Gated();
    WatchCache cache = largeCache(storage);
    CacheFreshness lists = new CacheFreshness(storage, cache, 0, false, 3, Duration.ofSeconds(30));
    storage.create("secrets/ns/s", "x".getBytes(UTF_8));
    long other = storage.memory.currentRevision();
    // A change of the resource comes while the check waits: the cache delivers the revision.
    Thread writer =
        new Thread(
            () -> {
              try {
                Thread.sleep(50);
              } catch (InterruptedException e) {
                return;
              }
              storage.create(ROOT + "ns/k4", "v".getBytes(UTF_8));
            });
    writer.start();
    CacheFreshness.Result caughtUp = lists.await();
    writer.join(30_000);
    assertTrue(caughtUp.fresh());
    assertEquals(other, caughtUp.current());
    assertTrue(caughtUp.freshAt() >= other);
    assertEquals(0, storage.comparisons.get(), "no comparison when the cache caught up");

    // Nothing of the resource changes: after the wait, the storage is asked once.
    CacheFreshness idle = new CacheFreshness(storage, cache, 0, false, 3, Duration.ofMillis(50));
    storage.create("secrets/ns/t", "y".getBytes(UTF_8));
    CacheFreshness.Result compared = idle.await();
    assertTrue(compared.fresh(), "nothing under the resource changed");
    assertEquals(storage.memory.currentRevision(), compared.freshAt());
    assertEquals(1, storage.comparisons.get());
    cache.close();
  }

  @Test
  void aLargeResourceOnAStorageAnsweringFromMemoryIsComparedAtOnce() throws Exception {
    Gated storage = new Gated();
    storage.fromMemory = true;
    WatchCache cache = largeCache(storage);
    // A wait for the cache longer than the test would allow: it must not be taken.
    CacheFreshness lists = new CacheFreshness(storage, cache, 0, false, 3, Duration.ofMinutes(5));
    storage.create("secrets/ns/s", "x".getBytes(UTF_8));
    CacheFreshness.Result result =
        CompletableFuture.supplyAsync(lists::await).get(30, TimeUnit.SECONDS);
    assertTrue(result.fresh());
    assertEquals(storage.memory.currentRevision(), result.freshAt());
    assertEquals(1, storage.comparisons.get());
    cache.close();
  }
}
