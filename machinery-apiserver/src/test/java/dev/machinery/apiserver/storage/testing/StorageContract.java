package dev.machinery.apiserver.storage.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Storage} must meet, as a JUnit 5 suite: extend it and return a fresh,
 * empty store from {@link #newStorage()}. Shipped in this module's test jar, so that another store
 * (an etcd v3 one) runs the same checks.
 */
public abstract class StorageContract {
  /** The store under test, fresh for each test. */
  protected Storage storage;

  /**
   * Returns a new, empty store.
   *
   * @return the store
   */
  protected abstract Storage newStorage();

  @BeforeEach
  void open() {
    storage = newStorage();
  }

  @AfterEach
  void closeStorage() {
    storage.close();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  private static String text(KeyValue kv) {
    return new String(kv.value(), UTF_8);
  }

  @Test
  void checkUnchangedReadsTheCurrentRevisionAndTellsAChangeUnderThePrefix() {
    KeyValue a = storage.create("r/a", bytes("1"));
    long afterA = storage.currentRevision();
    RevisionCheck idle = storage.checkUnchanged("r/", afterA, 1);
    assertEquals(afterA, idle.currentRevision());
    assertTrue(idle.unchanged(), "nothing written since");
    storage.create("other/x", bytes("1"));
    RevisionCheck elsewhere = storage.checkUnchanged("r/", afterA, 1);
    assertEquals(storage.currentRevision(), elsewhere.currentRevision());
    assertEquals(storage.tellsUnchanged(), elsewhere.unchanged(), "another prefix's write");
    long beforeCreate = afterA - 1;
    assertFalse(storage.checkUnchanged("r/", beforeCreate, 0).unchanged(), "the create of r/a");
    long beforeUpdate = storage.currentRevision();
    storage.update("r/a", a.modRevision(), bytes("2"));
    assertFalse(storage.checkUnchanged("r/", beforeUpdate, 1).unchanged(), "an update");
    long beforeDelete = storage.currentRevision();
    storage.delete("r/a", 0);
    assertFalse(storage.checkUnchanged("r/", beforeDelete, 1).unchanged(), "a delete");
    RevisionCheck after = storage.checkUnchanged("r/", storage.currentRevision(), 0);
    assertEquals(storage.currentRevision(), after.currentRevision());
    assertTrue(after.unchanged(), "nothing since the delete");
  }

  @Test
  void aKeyWithATimeToLiveIsDeletedByTheStoreOnceItPassesAndAWriteWithoutOneKeepsIt()
      throws Exception {
    assertThrows(IllegalArgumentException.class, () -> storage.create("ttl/x", bytes("1"), -1));
    try (StorageWatch watch = storage.watch("ttl/", 0)) {
      KeyValue gone = storage.create("ttl/gone", bytes("1"), 2);
      storage.create("ttl/kept", bytes("1"));
      KeyValue untied = storage.create("ttl/untied", bytes("1"), 2);
      storage.update("ttl/untied", untied.modRevision(), bytes("2"));
      StorageEvent deleted = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (deleted == null && System.nanoTime() < deadline) {
        StorageEvent event = watch.poll(1, TimeUnit.SECONDS);
        if (event != null && event.type() == StorageEvent.Type.DELETE) {
          deleted = event;
        }
      }
      assertNotNull(deleted, "the key with a time to live was never deleted");
      assertEquals("ttl/gone", deleted.kv().key());
      assertTrue(deleted.revision() > gone.modRevision());
      assertEquals("1", text(deleted.kv()), "the deleted value");
      assertTrue(storage.get("ttl/gone").isEmpty());
      // A second later, the others are still there: no time, or none since the last write.
      assertNull(watch.poll(1, TimeUnit.SECONDS));
      assertEquals("1", text(storage.get("ttl/kept").orElseThrow()));
      assertEquals("2", text(storage.get("ttl/untied").orElseThrow()));
    }
  }

  @Test
  void everyWriteBumpsTheOneRevisionCounter() {
    long start = storage.currentRevision();
    KeyValue a = storage.create("/a", bytes("1"));
    KeyValue b = storage.create("/b", bytes("2"));
    KeyValue a2 = storage.update("/a", a.modRevision(), bytes("3"));
    assertEquals(start + 1, a.modRevision());
    assertEquals(start + 2, b.modRevision());
    assertEquals(start + 3, a2.modRevision());
    assertEquals(a.createRevision(), a2.createRevision());
    assertEquals(2, a2.version());
    assertEquals(start + 3, storage.currentRevision());
    KeyValue deleted = storage.delete("/b", 0);
    assertEquals(start + 4, deleted.modRevision());
    assertEquals("2", text(deleted));
  }

  @Test
  void createRefusesAnExistingKeyAndAllowsARecreatedOne() {
    storage.create("/k", bytes("1"));
    StorageException e =
        assertThrows(StorageException.class, () -> storage.create("/k", bytes("2")));
    assertEquals(StorageException.Kind.KEY_EXISTS, e.kind());
    assertEquals(409, e.statusCode());
    storage.delete("/k", 0);
    KeyValue again = storage.create("/k", bytes("3"));
    assertEquals(1, again.version());
    assertEquals(again.modRevision(), again.createRevision());
  }

  @Test
  void updateAndDeleteCompareTheModRevision() {
    KeyValue kv = storage.create("/k", bytes("1"));
    KeyValue next = storage.update("/k", kv.modRevision(), bytes("2"));
    StorageException stale =
        assertThrows(
            StorageException.class, () -> storage.update("/k", kv.modRevision(), bytes("3")));
    assertEquals(StorageException.Kind.CONFLICT, stale.kind());
    assertEquals(next.modRevision(), stale.revision());
    assertEquals(
        StorageException.Kind.CONFLICT,
        assertThrows(StorageException.class, () -> storage.delete("/k", kv.modRevision())).kind());
    assertEquals("2", text(storage.get("/k").orElseThrow()));
    storage.delete("/k", next.modRevision());
    assertTrue(storage.get("/k").isEmpty());
    assertEquals(
        StorageException.Kind.KEY_NOT_FOUND,
        assertThrows(StorageException.class, () -> storage.update("/k", 0, bytes("4"))).kind());
    assertEquals(
        StorageException.Kind.KEY_NOT_FOUND,
        assertThrows(StorageException.class, () -> storage.delete("/k", 0)).kind());
  }

  @Test
  void listPagesInKeyOrderAtTheRevisionOfTheFirstPage() {
    for (String name : List.of("c", "a", "e", "b", "d")) {
      storage.create("/r/" + name, bytes(name));
    }
    storage.create("/s/x", bytes("x"));
    storage.create("/r", bytes("not under the prefix /r/"));
    ListResult first = storage.list("/r/", 0, null, 2, true);
    assertEquals(List.of("/r/a", "/r/b"), keys(first));
    assertTrue(first.more());
    assertEquals(3, first.remaining(), "keys under the prefix after the page");
    storage.delete("/r/c", 0);
    storage.create("/r/bb", bytes("late"));
    storage.update("/r/d", 0, bytes("changed"));
    ListResult second = storage.list("/r/", first.revision(), "/r/b\0", 2, true);
    assertEquals(List.of("/r/c", "/r/d"), keys(second));
    assertEquals("d", text(second.items().get(1)));
    assertEquals(1, second.remaining(), "counted at the page's revision");
    ListResult third = storage.list("/r/", first.revision(), "/r/d\0", 2, true);
    assertEquals(List.of("/r/e"), keys(third));
    assertFalse(third.more());
    assertEquals(0, third.remaining());
    ListResult now = storage.list("/r/", 0, null, 0);
    assertEquals(List.of("/r/a", "/r/b", "/r/bb", "/r/d", "/r/e"), keys(now));
    assertEquals(storage.currentRevision(), now.revision());
  }

  @Test
  void keysAreOrderedByTheirUtf8Bytes() {
    storage.create("/k/\uFF21", bytes("fullwidth A, U+FF21"));
    storage.create("/k/\uD83D\uDE00", bytes("emoji, U+1F600"));
    storage.create("/k/z", bytes("z"));
    assertEquals(
        List.of("/k/z", "/k/\uFF21", "/k/\uD83D\uDE00"), keys(storage.list("/k/", 0, null, 0)));
  }

  @Test
  void watchReportsChangesUnderThePrefixInOrderFromARevision() throws Exception {
    KeyValue a = storage.create("/w/a", bytes("1"));
    long after = a.modRevision();
    storage.update("/w/a", 0, bytes("2"));
    storage.create("/other", bytes("x"));
    try (StorageWatch watch = storage.watch("/w/", after)) {
      storage.create("/w/b", bytes("3"));
      storage.delete("/w/a", 0);
      StorageEvent update = watch.poll(5, TimeUnit.SECONDS);
      assertEquals(StorageEvent.Type.PUT, update.type());
      assertFalse(update.isCreate());
      assertEquals("2", text(update.kv()));
      assertEquals("1", text(update.previous()));
      StorageEvent create = watch.poll(5, TimeUnit.SECONDS);
      assertTrue(create.isCreate());
      assertEquals("/w/b", create.kv().key());
      StorageEvent delete = watch.poll(5, TimeUnit.SECONDS);
      assertEquals(StorageEvent.Type.DELETE, delete.type());
      assertEquals("2", text(delete.kv()));
      assertEquals(storage.currentRevision(), delete.revision());
      assertNull(watch.poll(50, TimeUnit.MILLISECONDS));
      assertNull(watch.error());
    }
  }

  @Test
  void compactionRefusesOlderReadsAndWatchesAndKeepsCurrentValues() {
    KeyValue a = storage.create("/c/a", bytes("1"));
    storage.update("/c/a", 0, bytes("2"));
    storage.create("/c/b", bytes("3"));
    storage.delete("/c/b", 0);
    long now = storage.currentRevision();
    storage.compact(now);
    assertEquals(now, storage.compactedRevision());
    StorageException list =
        assertThrows(StorageException.class, () -> storage.list("/c/", a.modRevision(), null, 0));
    assertEquals(StorageException.Kind.COMPACTED, list.kind());
    assertEquals(410, list.statusCode());
    assertEquals(
        StorageException.Kind.COMPACTED,
        assertThrows(StorageException.class, () -> storage.watch("/c/", a.modRevision())).kind());
    assertEquals(List.of("/c/a"), keys(storage.list("/c/", now, null, 0)));
    assertEquals("2", text(storage.get("/c/a").orElseThrow()));
    storage.watch("/c/", now).close();
  }

  @Test
  void concurrentGuaranteedUpdatesLoseNoIncrement() throws Exception {
    storage.create("/counter", bytes("0"));
    int threads = 4;
    int perThread = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> conflicts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        conflicts.add(
            pool.submit(
                () -> {
                  int retries = 0;
                  for (int i = 0; i < perThread; i++) {
                    while (true) {
                      KeyValue kv = storage.get("/counter").orElseThrow();
                      int value = Integer.parseInt(text(kv));
                      try {
                        storage.update(
                            "/counter", kv.modRevision(), bytes(Integer.toString(value + 1)));
                        break;
                      } catch (StorageException e) {
                        assertEquals(StorageException.Kind.CONFLICT, e.kind());
                        retries++;
                      }
                    }
                  }
                  return retries;
                }));
      }
      for (Future<Integer> f : conflicts) {
        assertNotNull(f.get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(
        Integer.toString(threads * perThread), text(storage.get("/counter").orElseThrow()));
  }

  @Test
  void aWatcherSeesEveryRevisionOfConcurrentWritersOnce() throws Exception {
    try (StorageWatch watch = storage.watch("/p/", storage.currentRevision())) {
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
          int id = t;
          writers.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < 100; i++) {
                      storage.create("/p/" + id + "/" + i, bytes("v"));
                    }
                  }));
        }
        for (Future<?> f : writers) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      Set<String> seen = new HashSet<>();
      long last = 0;
      for (int i = 0; i < 300; i++) {
        StorageEvent event = watch.poll(5, TimeUnit.SECONDS);
        assertNotNull(event, "event " + i);
        assertTrue(event.revision() > last, "revisions increase");
        last = event.revision();
        assertTrue(seen.add(event.kv().key()));
      }
      assertEquals(300, seen.size());
    }
  }

  @Test
  void closeEndsWatchesAndRefusesCalls() throws Exception {
    StorageWatch watch = storage.watch("/", 0);
    storage.close();
    assertNull(watch.poll(10, TimeUnit.MILLISECONDS));
    assertTrue(watch.isDone());
    assertEquals(StorageException.Kind.UNAVAILABLE, watch.error().kind());
    assertEquals(
        StorageException.Kind.UNAVAILABLE,
        assertThrows(StorageException.class, () -> storage.get("/x")).kind());
  }

  @Test
  void storedBytesAreNotSharedWithTheCaller() {
    byte[] value = bytes("abc");
    storage.create("/b", value);
    value[0] = 'z';
    assertArrayEquals(bytes("abc"), storage.get("/b").orElseThrow().value());
  }

  private static List<String> keys(ListResult result) {
    List<String> keys = new ArrayList<>();
    for (KeyValue kv : result.items()) {
      keys.add(kv.key());
    }
    return keys;
  }
}
