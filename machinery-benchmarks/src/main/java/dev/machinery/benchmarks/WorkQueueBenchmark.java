package dev.machinery.benchmarks;

import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.workqueue.RateLimiters;
import dev.machinery.controller.workqueue.RateLimitingWorkQueue;
import dev.machinery.controller.workqueue.WorkQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The hand-off of the controller runtime's work queues against a plain {@link LinkedBlockingQueue}
 * doing the same: {@code producers} threads add {@value #ITEMS} distinct items between them, {@code
 * workers} threads take each and (for the work queues) mark it done; one operation is one item
 * through the queue, so the score is nanoseconds an item. {@code WorkQueue} is client-go's queue (a
 * dirty set, a processing set and a FIFO under one lock), {@code RateLimitingWorkQueue} the one
 * controllers use (the same hand-off, over the delaying queue's thread, with the default controller
 * rate limiter); the items are distinct, so every queue hands out the same number and the ratio to
 * the baseline is what de-duplication and the processing set cost.
 *
 * <p>Run: {@code java -jar machinery-benchmarks/target/benchmarks.jar WorkQueueBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WorkQueueBenchmark {
  /** Items a benchmark invocation hands over. */
  public static final int ITEMS = 10_000;

  /** The queue measured. */
  @Param({"LinkedBlockingQueue", "WorkQueue", "RateLimitingWorkQueue"})
  public String queue;

  /** Threads adding items. */
  @Param({"1", "4"})
  public int producers;

  /** Threads taking items. */
  @Param({"1", "4"})
  public int workers;

  /** One queue behind the three calls a worker makes. */
  private interface Handoff {
    void add(Long item);

    /** The next item; empty once the queue is shut down. */
    Optional<Long> get() throws InterruptedException;

    void done(Long item);

    void shutDown();
  }

  private Handoff handoff;
  private ExecutorService producerPool;
  private final List<Thread> workerThreads = new ArrayList<>();
  private final AtomicLong sequence = new AtomicLong();
  private volatile CountDownLatch handled;

  /** Makes the queue and starts the workers, which run until the queue is shut down. */
  @Setup(Level.Trial)
  public void setUp() {
    handoff =
        switch (queue) {
          case "LinkedBlockingQueue" -> blocking(new LinkedBlockingQueue<>());
          case "WorkQueue" -> workQueue(new WorkQueue<>());
          case "RateLimitingWorkQueue" ->
              workQueue(
                  new RateLimitingWorkQueue<>(
                      RateLimiters.defaultControllerRateLimiter(Clock.system()),
                      Clock.system(),
                      "benchmark"));
          default -> throw new IllegalArgumentException("queue: unknown queue " + queue);
        };
    producerPool = Executors.newFixedThreadPool(producers);
    for (int w = 0; w < workers; w++) {
      Thread worker =
          new Thread(
              () -> {
                try {
                  while (true) {
                    Optional<Long> item = handoff.get();
                    if (item.isEmpty()) {
                      return;
                    }
                    handoff.done(item.get());
                    handled.countDown();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "worker-" + w);
      worker.setDaemon(true);
      workerThreads.add(worker);
      worker.start();
    }
  }

  /** Stops the workers and the producers' pool. */
  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    handoff.shutDown();
    for (Thread worker : workerThreads) {
      worker.join(10_000);
    }
    producerPool.shutdownNow();
  }

  /**
   * Hands {@value #ITEMS} distinct items from the producers to the workers.
   *
   * @throws Exception when a producer fails
   */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public void handoff() throws Exception {
    CountDownLatch latch = new CountDownLatch(ITEMS);
    handled = latch;
    long first = sequence.getAndAdd(ITEMS);
    int share = ITEMS / producers;
    List<Future<?>> adding = new ArrayList<>(producers);
    for (int p = 0; p < producers; p++) {
      long from = first + (long) p * share;
      long to = p == producers - 1 ? first + ITEMS : from + share;
      adding.add(
          producerPool.submit(
              () -> {
                for (long i = from; i < to; i++) {
                  handoff.add(i);
                }
              }));
    }
    for (Future<?> future : adding) {
      future.get();
    }
    if (!latch.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException(latch.getCount() + " items were never handled");
    }
  }

  private static Handoff blocking(BlockingQueue<Long> queue) {
    return new Handoff() {
      @Override
      public void add(Long item) {
        queue.add(item);
      }

      @Override
      public Optional<Long> get() throws InterruptedException {
        Long item = queue.take();
        return item < 0 ? Optional.empty() : Optional.of(item);
      }

      @Override
      public void done(Long item) {}

      @Override
      public void shutDown() {
        for (int i = 0; i < 64; i++) {
          queue.add(-1L);
        }
      }
    };
  }

  private static Handoff workQueue(WorkQueue<Long> queue) {
    return new Handoff() {
      @Override
      public void add(Long item) {
        queue.add(item);
      }

      @Override
      public Optional<Long> get() throws InterruptedException {
        return queue.get();
      }

      @Override
      public void done(Long item) {
        queue.done(item);
      }

      @Override
      public void shutDown() {
        queue.shutDown();
      }
    };
  }
}
