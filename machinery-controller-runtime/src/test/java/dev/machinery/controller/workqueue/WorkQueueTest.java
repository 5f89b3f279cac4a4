package dev.machinery.controller.workqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** client-go's queue_test, carried over, and the guarantee that no item meets two workers. */
class WorkQueueTest {
  @Test
  void itemsAreHeldOnceWhileWaiting() throws Exception {
    WorkQueue<String> q = new WorkQueue<>();
    q.add("foo");
    q.add("foo");
    q.add("bar");
    q.add("foo");
    assertEquals(2, q.len());
    assertEquals("foo", q.get().orElseThrow());
    assertEquals("bar", q.get().orElseThrow());
    assertEquals(0, q.len());
  }

  @Test
  void addWhileProcessingQueuesAgainAfterDone() throws Exception {
    WorkQueue<String> q = new WorkQueue<>();
    q.add("foo");
    String item = q.get().orElseThrow();
    q.add("foo");
    q.add("foo");
    assertEquals(0, q.len(), "held back while being processed");
    q.done(item);
    assertEquals(1, q.len());
    assertEquals("foo", q.get().orElseThrow());
    q.done("foo");
    assertEquals(0, q.len());
  }

  @Test
  void reinsertAfterDone() throws Exception {
    // TestReinsert: an item added again during processing comes back once
    WorkQueue<String> q = new WorkQueue<>();
    q.add("foo");
    String item = q.get().orElseThrow();
    q.add(item);
    q.done(item);
    assertEquals("foo", q.get().orElseThrow());
    q.done("foo");
    assertEquals(0, q.len());
  }

  @Test
  void shutdownHandsOutWhatIsLeftThenReportsShutdown() throws Exception {
    WorkQueue<String> q = new WorkQueue<>();
    q.add("a");
    q.add("b");
    q.shutDown();
    q.add("c");
    assertTrue(q.isShuttingDown());
    assertEquals(Optional.of("a"), q.get());
    assertEquals(Optional.of("b"), q.get());
    assertEquals(Optional.empty(), q.get());
  }

  @Test
  void shutdownWakesBlockedWorkers() throws Exception {
    WorkQueue<String> q = new WorkQueue<>();
    AtomicInteger ended = new AtomicInteger();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Thread worker =
          new Thread(
              () -> {
                try {
                  if (q.get().isEmpty()) {
                    ended.incrementAndGet();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      worker.start();
      workers.add(worker);
    }
    q.shutDown();
    for (Thread worker : workers) {
      worker.join();
    }
    assertEquals(3, ended.get());
  }

  @Test
  void shutdownWithDrainWaitsForItemsInProcessing() throws Exception {
    WorkQueue<String> q = new WorkQueue<>();
    q.add("foo");
    q.add("bar");
    String first = q.get().orElseThrow();
    String second = q.get().orElseThrow();
    CountDownLatch drained = new CountDownLatch(1);
    Thread shutter =
        new Thread(
            () -> {
              try {
                q.shutDownWithDrain();
                drained.countDown();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    shutter.start();
    Poll.until("shutting down", q::isShuttingDown);
    q.done(first);
    assertEquals(1, drained.getCount(), "still one item in processing");
    q.done(second);
    shutter.join();
    assertEquals(0, drained.getCount());
  }

  @Test
  void noItemIsProcessedByTwoWorkersAtOnce() throws Exception {
    WorkQueue<Integer> q = new WorkQueue<>();
    Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
    AtomicBoolean overlap = new AtomicBoolean();
    AtomicInteger processed = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 8; w++) {
      Thread worker =
          new Thread(
              () -> {
                try {
                  while (true) {
                    Optional<Integer> item = q.get();
                    if (item.isEmpty()) {
                      return;
                    }
                    if (!inFlight.add(item.get())) {
                      overlap.set(true);
                    }
                    Thread.yield();
                    processed.incrementAndGet();
                    inFlight.remove(item.get());
                    q.done(item.get());
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      worker.start();
      threads.add(worker);
    }
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      Thread producer =
          new Thread(
              () -> {
                for (int i = 0; i < 20_000; i++) {
                  q.add(i % 5);
                }
              });
      producer.start();
      producers.add(producer);
    }
    for (Thread producer : producers) {
      producer.join();
    }
    q.shutDownWithDrain();
    for (Thread worker : threads) {
      worker.join();
    }
    assertFalse(overlap.get(), "an item was handed to two workers at once");
    assertTrue(processed.get() >= 5, "each key processed at least once");
    assertEquals(0, q.len());
  }
}
