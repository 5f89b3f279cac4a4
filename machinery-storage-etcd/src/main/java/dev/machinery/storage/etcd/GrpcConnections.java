package dev.machinery.storage.etcd;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The gRPC connections of one client: one HTTP/2 connection an endpoint, opened at its first call
 * and again when it closed, all on one event loop thread of the client's own ({@code
 * machinery-etcd-grpc}, a daemon), which only writes and reads frames. A call that no byte of left
 * (its connection closed first) is sent once more on a new connection; a call not answered in time
 * has its connection's liveness probed ({@link GrpcKeepAlive}). Thread-safe.
 */
final class GrpcConnections {
  private final List<URI> endpoints;
  private final Duration timeout;
  private final Duration keepAliveTime;
  private final Duration keepAliveTimeout;
  private final EtcdTls tls;
  private final EventLoopGroup loop;
  private final AtomicReferenceArray<GrpcConnection> open;
  private final Object[] opening;
  private volatile boolean closed;

  /**
   * With kube-apiserver's keepalive for etcd ({@link EtcdClient#KEEP_ALIVE_TIME}, {@link
   * EtcdClient#KEEP_ALIVE_TIMEOUT}).
   */
  GrpcConnections(List<URI> endpoints, Duration timeout) {
    this(endpoints, timeout, EtcdClient.KEEP_ALIVE_TIME, EtcdClient.KEEP_ALIVE_TIMEOUT);
  }

  /** With another keepalive (for tests). */
  GrpcConnections(
      List<URI> endpoints, Duration timeout, Duration keepAliveTime, Duration keepAliveTimeout) {
    this(endpoints, timeout, keepAliveTime, keepAliveTimeout, EtcdTls.DEFAULT);
  }

  /** With another keepalive, speaking TLS to {@code https} endpoints as {@code tls} says. */
  GrpcConnections(
      List<URI> endpoints,
      Duration timeout,
      Duration keepAliveTime,
      Duration keepAliveTimeout,
      EtcdTls tls) {
    this.tls = tls;
    this.endpoints = endpoints;
    this.timeout = timeout;
    this.keepAliveTime = keepAliveTime;
    this.keepAliveTimeout = keepAliveTimeout;
    this.loop =
        new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory("machinery-etcd-grpc", true), NioIoHandler.newFactory());
    this.open = new AtomicReferenceArray<>(endpoints.size());
    this.opening = new Object[endpoints.size()];
    for (int i = 0; i < opening.length; i++) {
      opening[i] = new Object();
    }
  }

  /**
   * Makes one unary call to an endpoint and waits for its reply, at most the client's timeout.
   *
   * @throws IOException when the endpoint cannot be reached or the reply does not come whole
   */
  GrpcConnection.Reply call(int endpoint, String method, byte[] request) throws IOException {
    return awaited(
            endpoint, c -> c.call(method, request), reply -> reply, reply -> reply.cancel(false))
        .join();
  }

  /**
   * Opens a streamed call (a watch) on an endpoint and waits, at most the client's timeout, until
   * etcd has answered its headers; the messages then arrive on the returned stream.
   *
   * @throws IOException when the endpoint cannot be reached or does not answer
   */
  GrpcMessageStream stream(int endpoint, String method, byte[] request) throws IOException {
    return awaited(
        endpoint,
        c -> c.stream(method, request),
        GrpcMessageStream::answered,
        GrpcMessageStream::close);
  }

  /**
   * Starts a call on an endpoint's connection and waits, at most the client's timeout, until it is
   * answered; a call that no byte of left is started once more on a new connection.
   *
   * @param start starts the call on a connection
   * @param answered what tells that the call was answered
   * @param abandon what to do with a call that failed or was not answered in time
   */
  private <T> T awaited(
      int endpoint,
      Function<GrpcConnection, T> start,
      Function<T, CompletableFuture<?>> answered,
      Consumer<T> abandon)
      throws IOException {
    for (int attempt = 0; ; attempt++) {
      GrpcConnection connection = connection(endpoint);
      T call = start.apply(connection);
      try {
        answered.apply(call).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        return call;
      } catch (ExecutionException e) {
        abandon.accept(call);
        Throwable cause = e.getCause();
        if (cause instanceof GrpcConnection.NotSent && attempt == 0) {
          connection.close();
          continue;
        }
        throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
      } catch (TimeoutException e) {
        abandon.accept(call);
        connection.probe();
        throw new IOException("no answer within " + timeout.toMillis() + " ms");
      } catch (InterruptedException e) {
        abandon.accept(call);
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for etcd");
      }
    }
  }

  private GrpcConnection connection(int endpoint) throws IOException {
    GrpcConnection current = open.get(endpoint);
    if (current != null && current.isOpen()) {
      return current;
    }
    // One caller an endpoint connects; the others wait for its connection.
    synchronized (opening[endpoint]) {
      current = open.get(endpoint);
      if (current != null && current.isOpen()) {
        return current;
      }
      if (closed) {
        throw new IOException("the etcd client is closed");
      }
      GrpcConnection fresh =
          GrpcConnection.open(
              loop, endpoints.get(endpoint), timeout, keepAliveTime, keepAliveTimeout, tls);
      open.set(endpoint, fresh);
      if (closed) {
        fresh.close();
        throw new IOException("the etcd client is closed");
      }
      return fresh;
    }
  }

  /** Closes every connection and the event loop; calls under way fail. */
  void close() {
    closed = true;
    for (int i = 0; i < open.length(); i++) {
      GrpcConnection connection = open.get(i);
      if (connection != null) {
        connection.close();
      }
    }
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }
}
