package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LazyRESTMapperTest {
  private static final GroupVersion V1 = GroupVersion.of("example.dev", "v1");

  /** A "server" whose discovery gains a kind after the first read. */
  private static final class Server {
    final AtomicInteger reads = new AtomicInteger();

    RESTMapper discover() {
      int read = reads.incrementAndGet();
      DefaultRESTMapper.Builder builder =
          DefaultRESTMapper.builder(V1).add(V1.withKind("Widget"), Scope.NAMESPACE);
      if (read > 1) {
        builder.add(V1.withKind("Gadget"), Scope.NAMESPACE);
      }
      return builder.build();
    }
  }

  /** A clock the test moves by hand. */
  private static final class Clock implements java.util.function.LongSupplier {
    long nanos;

    @Override
    public long getAsLong() {
      return nanos;
    }

    void advance(Duration by) {
      nanos += by.toNanos();
    }
  }

  @Test
  void buildsOnFirstUseAndRebuildsOnAMissOnlyOnceTheMapperIsNoLongerFresh() {
    Server server = new Server();
    Clock clock = new Clock();
    LazyRESTMapper mapper = new LazyRESTMapper(server::discover, Duration.ofSeconds(10), clock);
    assertEquals(0, server.reads.get());
    assertEquals(V1.withKind("Widget"), mapper.kindFor(GroupVersionResource.of("", "", "widgets")));
    assertEquals(1, mapper.builds());
    // Fresh: a miss right after the first read does not fetch discovery again.
    assertThrows(
        NoResourceMatchException.class,
        () -> mapper.kindFor(GroupVersionResource.of("", "", "gadgets")));
    assertEquals(1, mapper.builds());
    clock.advance(Duration.ofSeconds(10));
    assertEquals(V1.withKind("Gadget"), mapper.kindFor(GroupVersionResource.of("", "", "gadgets")));
    assertEquals(2, mapper.builds());
    assertThrows(
        NoResourceMatchException.class,
        () -> mapper.kindFor(GroupVersionResource.of("", "", "nothings")));
    assertEquals(2, mapper.builds());
  }

  @Test
  void repeatedMissesRebuildAtMostOncePerIntervalIssue11() throws Exception {
    Server server = new Server();
    Clock clock = new Clock();
    LazyRESTMapper mapper = new LazyRESTMapper(server::discover, Duration.ofSeconds(10), clock);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      for (int second = 0; second < 30; second++) {
        List<Future<?>> misses = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          misses.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < 100; i++) {
                      assertThrows(
                          NoResourceMatchException.class,
                          () -> mapper.kindFor(GroupVersionResource.of("", "", "nothings")));
                    }
                  }));
        }
        for (Future<?> miss : misses) {
          miss.get();
        }
        clock.advance(Duration.ofSeconds(1));
      }
    } finally {
      pool.shutdown();
    }
    // 24,000 misses over 30 seconds: the first build, then one rebuild per 10 seconds.
    assertEquals(3, mapper.builds());
  }

  @Test
  void aZeroIntervalRebuildsOnEveryMissAndANegativeOneIsRefused() {
    Server server = new Server();
    LazyRESTMapper mapper = new LazyRESTMapper(server::discover, Duration.ZERO);
    assertEquals(V1.withKind("Widget"), mapper.kindFor(GroupVersionResource.of("", "", "widgets")));
    assertEquals(V1.withKind("Gadget"), mapper.kindFor(GroupVersionResource.of("", "", "gadgets")));
    assertEquals(2, mapper.builds());
    assertThrows(
        IllegalArgumentException.class,
        () -> new LazyRESTMapper(server::discover, Duration.ofSeconds(-1)));
  }

  @Test
  void concurrentFirstUsesBuildOnceAndAMissRebuildsOnce() throws Exception {
    for (int round = 0; round < 20; round++) {
      Server server = new Server();
      LazyRESTMapper mapper = new LazyRESTMapper(server::discover, Duration.ZERO);
      int threads = 8;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      try {
        List<Future<GroupVersionKind>> widgets = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          widgets.add(
              pool.submit(
                  () -> {
                    start.await();
                    return mapper.kindFor(GroupVersionResource.of("", "", "widgets"));
                  }));
        }
        start.countDown();
        for (Future<GroupVersionKind> result : widgets) {
          assertEquals(V1.withKind("Widget"), result.get());
        }
        assertEquals(1, server.reads.get(), "round " + round);
        CountDownLatch again = new CountDownLatch(1);
        List<Future<GroupVersionKind>> gadgets = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          gadgets.add(
              pool.submit(
                  () -> {
                    again.await();
                    return mapper.kindFor(GroupVersionResource.of("", "", "gadgets"));
                  }));
        }
        again.countDown();
        for (Future<GroupVersionKind> result : gadgets) {
          assertEquals(V1.withKind("Gadget"), result.get());
        }
        assertEquals(2, server.reads.get(), "round " + round);
      } finally {
        pool.shutdown();
      }
    }
  }

  @Test
  void aNegativeIntervalAndANullMapperAreRefusedWithTheirReasons() {
    IllegalArgumentException negative =
        assertThrows(
            IllegalArgumentException.class,
            () -> new LazyRESTMapper(() -> null, Duration.ofSeconds(-1)));
    assertEquals("minRefreshInterval must not be negative, got PT-1S", negative.getMessage());
    LazyRESTMapper nothing = new LazyRESTMapper(() -> null);
    NullPointerException none =
        assertThrows(
            NullPointerException.class,
            () -> nothing.kindFor(GroupVersionResource.of("", "", "pods")));
    assertEquals("the supplier returned null", none.getMessage());
  }
}
