package dev.machinery.apiserver.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.storage.testing.StorageContract;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link MemoryStorage} meets the storage contract, and its own bounds hold. */
class MemoryStorageTest extends StorageContract {
  @Override
  protected Storage newStorage() {
    return new MemoryStorage();
  }

  @Test
  void tellsWhetherAPrefixChangedBetweenTwoRevisions() {
    MemoryStorage storage = new MemoryStorage();
    KeyValue a = storage.create("/r/a", "1".getBytes(UTF_8));
    long afterA = storage.currentRevision();
    storage.create("/other/x", "1".getBytes(UTF_8));
    long now = storage.currentRevision();
    assertTrue(storage.unchangedSince("/r/", afterA, now, 1), "another prefix's write");
    assertFalse(storage.unchangedSince("/r/", afterA - 1, now, 0), "the create of /r/a");
    storage.update("/r/a", a.modRevision(), "2".getBytes(UTF_8));
    assertFalse(storage.unchangedSince("/r/", now, storage.currentRevision(), 1), "an update");
    long updated = storage.currentRevision();
    storage.delete("/r/a", 0);
    assertFalse(storage.unchangedSince("/r/", updated, storage.currentRevision(), 1), "a delete");
    long deleted = storage.currentRevision();
    storage.compact(deleted);
    assertFalse(storage.unchangedSince("/r/", updated, deleted, 1), "compacted: cannot tell");
    assertTrue(storage.unchangedSince("/r/", deleted, deleted, 0));
    assertFalse(storage.unchangedSince("/r/", deleted, deleted + 5, 0), "a future revision");
  }

  @Test
  void theHistoryIsBoundedByCompactingTheOldestChanges() {
    MemoryStorage small = new MemoryStorage(10, 10);
    for (int i = 0; i < 100; i++) {
      small.create("/k/" + i, "v".getBytes(UTF_8));
    }
    assertEquals(90, small.compactedRevision());
    assertEquals(
        StorageException.Kind.COMPACTED,
        assertThrows(StorageException.class, () -> small.watch("/k/", 50)).kind());
    assertEquals(90, small.list("/k/", 90, null, 0).items().size());
    assertEquals(100, small.list("/k/", 0, null, 0).items().size());
    small.watch("/k/", 90).close();
  }

  @Test
  void aWatcherThatNeverReadsIsEndedAndWritersGoOn() throws Exception {
    MemoryStorage small = new MemoryStorage(5, 5);
    StorageWatch idle = small.watch("/", 0);
    StorageWatch reader = small.watch("/", 0);
    for (int i = 0; i < 1000; i++) {
      small.create("/k/" + i, "v".getBytes(UTF_8));
      assertNotNull(reader.poll(1, TimeUnit.SECONDS));
    }
    assertNotNull(idle.error());
    assertEquals(StorageException.Kind.UNAVAILABLE, idle.error().kind());
    int queued = 0;
    while (idle.poll(0, TimeUnit.MILLISECONDS) != null) {
      queued++;
    }
    assertTrue(queued <= 10, "queued " + queued);
    assertTrue(idle.isDone());
    assertEquals(null, reader.error());
  }

  @Test
  void limitsMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> new MemoryStorage(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new MemoryStorage(1, 0));
  }
}
