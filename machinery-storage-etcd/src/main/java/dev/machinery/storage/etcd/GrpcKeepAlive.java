package dev.machinery.storage.etcd;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a connection to etcd that died without a word (a member gone, a network cut, with no reset
 * to tell): while calls or watches are open on it and nothing has been read for {@link #time}, an
 * HTTP/2 PING is sent, and when still nothing has been read {@link #timeout} after it, the
 * connection is closed, failing its calls and watches so that they are made again on a new one. A
 * call that timed out sends a PING at once ({@link #probe}), so that calls after it do not wait out
 * their timeouts on a dead connection one by one. As kube-apiserver's etcd client: 30 s and 10 s by
 * default ({@link EtcdClient#KEEP_ALIVE_TIME}, {@link EtcdClient#KEEP_ALIVE_TIMEOUT}), and no PINGs
 * on a connection without streams (etcd answers those with {@code too_many_pings}).
 *
 * <p>Sits first in the connection's pipeline, where every byte read passes; runs on the
 * connection's event loop, one per connection ({@link #probe} may be called from any thread).
 */
final class GrpcKeepAlive extends ChannelInboundHandlerAdapter {
  private final long time;
  private final long timeout;
  private final IntSupplier openStreams;
  private final String endpoint;
  private volatile ChannelHandlerContext context;
  private long lastRead;

  /** Whether a PING was sent and nothing has been read since. */
  private boolean pinged;

  /** When that PING was sent ({@link System#nanoTime}, which may be negative). */
  private long pingSent;

  private ScheduledFuture<?> timer;

  /** The logger, made on first use: a connection that stays alive never starts SLF4J. */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(GrpcKeepAlive.class);
  }

  /**
   * Creates the handler of one connection.
   *
   * @param time how long nothing is read before a PING
   * @param timeout how long nothing is read after a PING before the connection is closed
   * @param openStreams how many calls and watches are open on the connection
   * @param endpoint the endpoint, for the log
   */
  GrpcKeepAlive(Duration time, Duration timeout, IntSupplier openStreams, String endpoint) {
    this.time = time.toNanos();
    this.timeout = timeout.toNanos();
    this.openStreams = openStreams;
    this.endpoint = endpoint;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext context) {
    this.context = context;
    lastRead = System.nanoTime();
    schedule(time);
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object message) {
    lastRead = System.nanoTime();
    pinged = false;
    context.fireChannelRead(message);
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) {
    cancel();
    context.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext context) {
    cancel();
  }

  /** Sends a PING now unless one is unanswered: a call on this connection went unanswered. */
  void probe() {
    ChannelHandlerContext context = this.context;
    if (context != null) {
      context.executor().execute(() -> ping(System.nanoTime()));
    }
  }

  private void tick() {
    timer = null;
    if (!context.channel().isActive()) {
      return;
    }
    long now = System.nanoTime();
    if (pinged) {
      long waited = now - pingSent;
      if (waited >= timeout) {
        Log.LOG.warn(
            "etcd at {} answered nothing, not even a PING, for {} ms: closing the connection",
            endpoint,
            TimeUnit.NANOSECONDS.toMillis(now - lastRead));
        context.close();
        return;
      }
      schedule(timeout - waited);
      return;
    }
    long idle = now - lastRead;
    if (idle < time) {
      schedule(time - idle);
    } else if (openStreams.getAsInt() > 0) {
      ping(now);
    } else {
      schedule(time);
    }
  }

  private void ping(long now) {
    if (pinged || !context.channel().isActive()) {
      return;
    }
    pinged = true;
    pingSent = now;
    // From the pipeline's tail, through the HTTP/2 codec that writes the frame.
    context.channel().writeAndFlush(new DefaultHttp2PingFrame(now));
    cancel();
    schedule(timeout);
  }

  private void schedule(long nanos) {
    timer = context.executor().schedule(this::tick, Math.max(nanos, 1), TimeUnit.NANOSECONDS);
  }

  private void cancel() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }
}
