package dev.machinery.storage.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The gateway's keepalive: a watch that hears nothing has its endpoint probed; an unanswered probe
 * closes the stream of every silent watch on that endpoint, and of none that hears its stream or is
 * elsewhere; an answered one vouches for the endpoint for a while; a forgotten watch is not looked
 * at.
 */
class GatewayKeepAliveTest {
  private static final List<URI> ENDPOINTS =
      List.of(URI.create("http://127.0.0.1:1"), URI.create("http://127.0.0.1:2"));

  /** A watch on an endpoint, silent unless told to hear. */
  private static final class Watch implements GatewayKeepAlive.Watched {
    final int endpoint;
    final AtomicInteger drops = new AtomicInteger();
    final CountDownLatch dropped = new CountDownLatch(1);
    volatile boolean hearing;
    private final long opened = System.nanoTime();

    Watch(int endpoint) {
      this.endpoint = endpoint;
    }

    @Override
    public long heardAt() {
      return hearing ? System.nanoTime() : opened;
    }

    @Override
    public int endpoint() {
      return endpoint;
    }

    @Override
    public void drop() {
      drops.incrementAndGet();
      dropped.countDown();
    }
  }

  @Test
  void anUnansweredProbeClosesTheWatchesOnThatEndpointAndNoOthers() throws Exception {
    AtomicIntegerArray probes = new AtomicIntegerArray(2);
    try (GatewayKeepAlive keepAlive =
        new GatewayKeepAlive(
            Duration.ofMillis(50),
            Duration.ofMillis(50),
            endpoint -> {
              probes.incrementAndGet(endpoint);
              return endpoint == 1;
            },
            ENDPOINTS)) {
      Watch deadA = new Watch(0);
      Watch deadB = new Watch(0);
      Watch alive = new Watch(1);
      Watch hearing = new Watch(0);
      hearing.hearing = true;
      Watch forgotten = new Watch(0);
      for (Watch watch : List.of(deadA, deadB, alive, hearing, forgotten)) {
        keepAlive.watch(watch);
      }
      keepAlive.forget(forgotten);
      assertTrue(deadA.dropped.await(10, TimeUnit.SECONDS));
      assertTrue(deadB.dropped.await(10, TimeUnit.SECONDS));
      Thread.sleep(300);
      assertEquals(0, alive.drops.get(), "a watch whose endpoint answers is kept");
      assertTrue(probes.get(1) >= 1, "its endpoint was probed");
      assertEquals(0, hearing.drops.get(), "a watch that hears its stream is alive");
      assertEquals(0, forgotten.drops.get(), "a forgotten watch is not looked at");
      assertTrue(probes.get(0) >= 1);
    }
  }

  @Test
  void anAnsweredProbeVouchesForItsEndpointForAWhile() throws Exception {
    AtomicInteger probes = new AtomicInteger();
    long start = System.nanoTime();
    try (GatewayKeepAlive keepAlive =
        new GatewayKeepAlive(
            Duration.ofMillis(40),
            Duration.ofMillis(40),
            endpoint -> {
              probes.incrementAndGet();
              return true;
            },
            ENDPOINTS)) {
      List<Watch> watches = List.of(new Watch(1), new Watch(1), new Watch(1), new Watch(1));
      for (Watch watch : watches) {
        keepAlive.watch(watch);
      }
      Thread.sleep(400);
      long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      // One probe per 40 ms at most, for all four silent watches: unvouched, each look (every
      // 20 ms) would probe for each of them.
      assertTrue(probes.get() >= 1, "never probed");
      assertTrue(probes.get() <= elapsed / 40 + 2, probes.get() + " probes in " + elapsed + " ms");
      for (Watch watch : watches) {
        assertEquals(0, watch.drops.get());
      }
    }
  }
}
