package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
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

  @Test
  void buildsOnFirstUseAndOnceMoreOnAMiss() {
    Server server = new Server();
    LazyRESTMapper mapper = new LazyRESTMapper(server::discover);
    assertEquals(0, server.reads.get());
    assertEquals(V1.withKind("Widget"), mapper.kindFor(GroupVersionResource.of("", "", "widgets")));
    assertEquals(1, mapper.builds());
    assertEquals(V1.withKind("Gadget"), mapper.kindFor(GroupVersionResource.of("", "", "gadgets")));
    assertEquals(2, mapper.builds());
    assertThrows(
        NoResourceMatchException.class,
        () -> mapper.kindFor(GroupVersionResource.of("", "", "nothings")));
    assertEquals(3, mapper.builds());
  }

  @Test
  void concurrentFirstUsesBuildOnceAndAMissRebuildsOnce() throws Exception {
    for (int round = 0; round < 20; round++) {
      Server server = new Server();
      LazyRESTMapper mapper = new LazyRESTMapper(server::discover);
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
}
