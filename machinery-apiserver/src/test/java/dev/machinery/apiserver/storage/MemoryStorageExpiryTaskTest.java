package dev.machinery.apiserver.storage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.Test;

/**
 * A store's task on the shared expiry thread ends with the store: when it is closed, and when it
 * was dropped without being closed and has been collected (the task holds it only weakly). A store
 * that never held a key with a time to live has no task.
 */
class MemoryStorageExpiryTaskTest {
  private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

  @Test
  void aStoreWithoutTimesToLiveHasNoTask() {
    MemoryStorage store = new MemoryStorage();
    store.create("/a", VALUE);
    assertNull(store.expiryTask());
    store.close();
  }

  @Test
  void closingTheStoreEndsItsTask() {
    MemoryStorage store = new MemoryStorage();
    store.create("/a", VALUE, 60);
    ScheduledFuture<?> task = store.expiryTask();
    assertNotNull(task);
    assertFalse(task.isDone(), "scheduled while the store is open");
    store.close();
    assertTrue(task.isCancelled());
  }

  /** A store holding a key with a time to live, dropped here: only the weak reference is kept. */
  private static Object[] droppedStore() {
    MemoryStorage store = new MemoryStorage();
    store.create("/a", VALUE, 60);
    return new Object[] {new WeakReference<>(store), store.expiryTask()};
  }

  @Test
  void aStoreDroppedWithoutClosingEndsItsTaskOnceCollected() throws InterruptedException {
    Object[] dropped = droppedStore();
    WeakReference<?> store = (WeakReference<?>) dropped[0];
    ScheduledFuture<?> task = (ScheduledFuture<?>) dropped[1];
    assertFalse(task.isDone());
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (store.get() != null && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(50);
    }
    assertNull(store.get(), "the store was not collected within 30 s: something holds it");
    // The task finds it gone at its next run (every half second) and cancels itself.
    while (!task.isCancelled() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(task.isCancelled(), "the task still runs for a collected store");
  }
}
