package dev.machinery.apiserver.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The compactor keeps between one and two intervals of history, as kube-apiserver's compactor does
 * to etcd: each tick compacts to the revision of the tick before.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class StorageCompactorTest {
  private static void write(Storage storage, String key, int times) {
    for (int i = 0; i < times; i++) {
      KeyValue current = storage.get(key).orElse(null);
      byte[] value = ("v" + i).getBytes(UTF_8);
      if (current == null) {
        storage.create(key, value);
      } else {
        storage.update(key, current.modRevision(), value);
      }
    }
  }

  @Test
  void eachTickCompactsToTheRevisionOfTheTickBefore() {
    MemoryStorage storage = new MemoryStorage();
    try (StorageCompactor compactor = StorageCompactor.start(storage, Duration.ofDays(1))) {
      write(storage, "/k/a", 3);
      assertEquals(0, compactor.compactOnce(), "the first tick only records the revision");
      assertEquals(0, storage.compactedRevision());
      long firstTick = storage.currentRevision();
      write(storage, "/k/a", 4);
      long secondTick = storage.currentRevision();
      assertEquals(firstTick, compactor.compactOnce());
      assertEquals(firstTick, storage.compactedRevision());
      // What came after the first tick is still kept: a watch from it, a list at it.
      storage.watch("/k/", firstTick).close();
      assertEquals(1, storage.list("/k/", firstTick, null, 0).items().size());
      // What came before it is not.
      StorageException compacted =
          assertThrows(StorageException.class, () -> storage.watch("/k/", firstTick - 1));
      assertEquals(StorageException.Kind.COMPACTED, compacted.kind());
      assertEquals(
          StorageException.Kind.COMPACTED,
          assertThrows(StorageException.class, () -> storage.list("/k/", 1, null, 0)).kind());
      // Nothing written since: the next tick compacts to the second tick's revision, then nothing.
      assertEquals(secondTick, compactor.compactOnce());
      assertEquals(0, compactor.compactOnce());
      assertEquals(secondTick, storage.compactedRevision());
    }
  }

  @Test
  void aStorageCompactedFurtherElsewhereIsLeftAsItIs() {
    MemoryStorage storage = new MemoryStorage();
    try (StorageCompactor compactor = StorageCompactor.start(storage, Duration.ofDays(1))) {
      write(storage, "/k/a", 2);
      compactor.compactOnce();
      write(storage, "/k/a", 2);
      storage.compact(storage.currentRevision());
      assertEquals(0, compactor.compactOnce(), "another server compacted further already");
      assertEquals(storage.currentRevision(), storage.compactedRevision());
    }
  }

  @Test
  void theIntervalMustBePositive() {
    MemoryStorage storage = new MemoryStorage();
    assertThrows(
        IllegalArgumentException.class, () -> StorageCompactor.start(storage, Duration.ZERO));
    assertThrows(
        IllegalArgumentException.class,
        () -> StorageCompactor.start(storage, Duration.ofSeconds(-1)));
  }

  @Test
  void ticksRunAtTheIntervalOutliveAFailingStorageAndStopWhenClosed() throws Exception {
    MemoryStorage memory = new MemoryStorage();
    AtomicBoolean failing = new AtomicBoolean(true);
    Storage storage =
        (Storage)
            Proxy.newProxyInstance(
                Storage.class.getClassLoader(),
                new Class<?>[] {Storage.class},
                (proxy, method, args) -> {
                  if (failing.get() && method.getName().equals("currentRevision")) {
                    throw new StorageException(
                        StorageException.Kind.UNAVAILABLE, "", 0, "etcd unreachable");
                  }
                  try {
                    return method.invoke(memory, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    StorageCompactor compactor = StorageCompactor.start(storage, Duration.ofMillis(20));
    try {
      write(memory, "/k/a", 3);
      Thread.sleep(100);
      assertEquals(0, memory.compactedRevision(), "every tick failed so far");
      failing.set(false);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (memory.compactedRevision() == 0 && System.nanoTime() < deadline) {
        write(memory, "/k/a", 1);
        Thread.sleep(10);
      }
      assertTrue(memory.compactedRevision() > 0, "compacted once the storage answered again");
    } finally {
      compactor.close();
    }
    // A tick under way when it was closed finishes; none starts after that.
    Thread.sleep(100);
    long compacted = memory.compactedRevision();
    write(memory, "/k/a", 5);
    Thread.sleep(200);
    assertEquals(compacted, memory.compactedRevision());
  }
}
