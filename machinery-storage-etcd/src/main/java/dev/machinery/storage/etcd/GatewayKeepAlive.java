package dev.machinery.storage.etcd;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the gateway's watches whose member died without a word (a member gone, hung, or cut off by
 * the network, with no reset to tell). A watch hears nothing while nothing changes under its
 * prefix, and the JDK's HTTP client can send nothing on its stream, so silence alone tells nothing:
 * when a watch has heard nothing for {@link #time}, its endpoint is probed with a call of its own
 * on a new connection that must be answered within {@link #timeout}. When it is not, every watch on
 * that endpoint has its stream closed, and each resumes from the revision it had reached, on
 * whichever endpoint answers. An answered probe vouches for the endpoint for another {@link #time}.
 * The same 30 s and 10 s as the keepalive of the gRPC path ({@link GrpcKeepAlive}) by default.
 *
 * <p>What a probe cannot find: a watch's own connection dropped on the way (a NAT's idle timeout)
 * while the member answers new connections. The gRPC path's PINGs travel on the connection itself
 * and find that too.
 *
 * <p>One daemon thread ({@code machinery-etcd-keepalive}), started with the first watch and ended
 * by {@link #close()}; probes are made one at a time on it. Thread-safe.
 */
final class GatewayKeepAlive implements AutoCloseable {
  /** A watch the keepalive looks after. */
  interface Watched {
    /**
     * When the watch last read anything from its stream, as {@link System#nanoTime}, or when its
     * stream was opened.
     */
    long heardAt();

    /** The index of the endpoint its stream is open on, or -1 while none is. */
    int endpoint();

    /** Closes its stream, so that it resumes on another. */
    void drop();
  }

  private final long time;
  private final long timeout;
  private final IntPredicate probe;
  private final List<URI> endpoints;
  private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
  private final Map<Integer, Long> vouchedAt = new ConcurrentHashMap<>();
  private final Object starting = new Object();
  private volatile ScheduledExecutorService timer;
  private volatile boolean closed;

  /** The logger, made on first use: a keepalive that never drops a watch never starts SLF4J. */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(GatewayKeepAlive.class);
  }

  /**
   * Creates the keepalive of one client.
   *
   * @param time how long a watch hears nothing before its endpoint is probed
   * @param timeout how long a probe may go unanswered (the probe gets this much to connect, and as
   *     much again for its answer)
   * @param probe makes one call to an endpoint, by index, within the timeout: true when answered
   * @param endpoints the endpoints, for the log
   */
  GatewayKeepAlive(Duration time, Duration timeout, IntPredicate probe, List<URI> endpoints) {
    this.time = time.toNanos();
    this.timeout = timeout.toNanos();
    this.probe = probe;
    this.endpoints = endpoints;
  }

  /** Looks after a watch until {@link #forget}. */
  void watch(Watched watch) {
    if (closed) {
      return;
    }
    watched.add(watch);
    if (timer == null) {
      synchronized (starting) {
        if (timer == null && !closed) {
          ScheduledThreadPoolExecutor started =
              new ScheduledThreadPoolExecutor(
                  1,
                  task -> {
                    Thread thread = new Thread(task, "machinery-etcd-keepalive");
                    thread.setDaemon(true);
                    return thread;
                  });
          started.setRemoveOnCancelPolicy(true);
          long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10), time / 2);
          started.scheduleWithFixedDelay(this::look, period, period, TimeUnit.NANOSECONDS);
          timer = started;
        }
      }
    }
  }

  /** Stops looking after a watch. */
  void forget(Watched watch) {
    watched.remove(watch);
  }

  /** One look at every watch: probes the endpoints of those silent too long. */
  private void look() {
    long now = System.nanoTime();
    for (Watched watch : watched) {
      int endpoint = watch.endpoint();
      if (endpoint < 0 || now - watch.heardAt() < time) {
        continue;
      }
      Long vouched = vouchedAt.get(endpoint);
      if (vouched != null && now - vouched < time) {
        continue;
      }
      if (probe.test(endpoint)) {
        vouchedAt.put(endpoint, System.nanoTime());
        continue;
      }
      vouchedAt.remove(endpoint);
      int dropped = 0;
      for (Watched same : watched) {
        // A watch that hears its stream is alive, whatever a new connection met.
        if (same.endpoint() == endpoint && now - same.heardAt() >= time) {
          same.drop();
          dropped++;
        }
      }
      Log.LOG.warn(
          "etcd at {} answered nothing within {} ms after {} ms of silence on a watch: {} watches"
              + " on it closed, to resume on whichever endpoint answers",
          endpoints.get(endpoint),
          Duration.ofNanos(timeout).toMillis(),
          Duration.ofNanos(time).toMillis(),
          dropped);
    }
  }

  /** Ends the thread; watches are no longer looked after. */
  @Override
  public void close() {
    closed = true;
    synchronized (starting) {
      if (timer != null) {
        timer.shutdownNow();
      }
    }
    watched.clear();
  }
}
