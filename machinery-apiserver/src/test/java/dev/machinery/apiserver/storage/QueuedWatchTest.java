package dev.machinery.apiserver.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one queued watch: its bound, its end with a reason, its hook, and many producers. */
class QueuedWatchTest {
  private static StorageEvent put(String key, long revision) {
    return new StorageEvent(
        StorageEvent.Type.PUT, new KeyValue(key, "v".getBytes(UTF_8), revision, revision, 1), null);
  }

  @Test
  void aFullQueueEndsTheWatchAfterWhatWasQueued() throws Exception {
    AtomicInteger ends = new AtomicInteger();
    QueuedWatch watch = new QueuedWatch("/k/", 2, w -> ends.incrementAndGet());
    assertTrue(watch.offer(put("/k/a", 1)));
    assertTrue(watch.offer(put("/k/b", 2)));
    assertFalse(watch.offer(put("/k/c", 3)));
    assertFalse(watch.offer(put("/k/d", 4)));
    assertEquals(1, ends.get());
    assertEquals("/k/a", watch.poll(1, TimeUnit.SECONDS).kv().key());
    assertFalse(watch.isDone());
    assertEquals("/k/b", watch.poll(1, TimeUnit.SECONDS).kv().key());
    assertNull(watch.poll(1, TimeUnit.SECONDS));
    assertTrue(watch.isDone());
    assertEquals(StorageException.Kind.UNAVAILABLE, watch.error().kind());
    assertEquals(
        "watcher of /k/ fell 2 changes behind at revision 3 and was ended",
        watch.error().getMessage());
  }

  @Test
  void anEndWhileWaitingEndsThePollAndTheHookRunsOnce() throws Exception {
    AtomicInteger ends = new AtomicInteger();
    QueuedWatch watch = new QueuedWatch("/k/", 10, w -> ends.incrementAndGet());
    Thread ender =
        new Thread(
            () -> {
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              watch.end(new StorageException(StorageException.Kind.UNAVAILABLE, "/k/", 0, "gone"));
            });
    ender.start();
    assertNull(watch.poll(60, TimeUnit.SECONDS));
    assertTrue(watch.isDone());
    ender.join();
    watch.end(new StorageException(StorageException.Kind.UNAVAILABLE, "/k/", 0, "again"));
    watch.close();
    assertEquals(1, ends.get());
    assertEquals("gone", watch.error().getMessage());
  }

  @Test
  void closingDropsWhatWasQueuedAndLeavesNoError() throws Exception {
    AtomicInteger ends = new AtomicInteger();
    QueuedWatch watch = new QueuedWatch("/k/", 10, w -> ends.incrementAndGet());
    watch.offer(put("/k/a", 1));
    watch.close();
    watch.close();
    assertNull(watch.poll(10, TimeUnit.MILLISECONDS));
    assertTrue(watch.isDone());
    assertNull(watch.error());
    assertEquals(1, ends.get());
    assertFalse(watch.offer(put("/k/b", 2)));
  }

  @Test
  void manyProducersLoseNothing() throws Exception {
    QueuedWatch watch = new QueuedWatch("/k/", 10_000, w -> {});
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> producers =
          List.of(0, 1, 2, 3).stream()
              .<Future<?>>map(
                  t ->
                      pool.submit(
                          () -> {
                            for (int i = 0; i < 500; i++) {
                              watch.offer(put("/k/" + t + "/" + i, t * 1000L + i + 1));
                            }
                          }))
              .toList();
      for (Future<?> producer : producers) {
        producer.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    Set<String> keys = new HashSet<>();
    for (StorageEvent event = watch.poll(0, TimeUnit.SECONDS);
        event != null;
        event = watch.poll(0, TimeUnit.SECONDS)) {
      assertTrue(keys.add(event.kv().key()));
    }
    assertEquals(2_000, keys.size());
  }

  @Test
  void theLimitMustBePositive() {
    assertEquals(
        "a watch queue limit must be positive, got 0",
        assertThrows(IllegalArgumentException.class, () -> new QueuedWatch("/k/", 0, w -> {}))
            .getMessage());
  }
}
