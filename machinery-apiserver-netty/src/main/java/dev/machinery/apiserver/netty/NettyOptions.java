package dev.machinery.apiserver.netty;

import dev.machinery.apiserver.http.TlsConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link NettyBinding} serves: threads, limits, deadlines, request log and TLS. Start from
 * {@link #defaults()} and change what differs with the {@code with…} methods.
 *
 * <p>Immutable and thread-safe (the request log sink is called from many threads).
 *
 * @param maxThreads the most requests handled at once, watches included; a request beyond them is
 *     answered {@code 429} with a Status
 * @param eventLoopThreads the threads that read and write the connections
 * @param maxInitialLineBytes the longest request line (method, target, version); a longer one is
 *     answered {@code 414}
 * @param maxHeaderBytes the most bytes of header fields a request may have; more are answered
 *     {@code 431}
 * @param requestHeaderTimeout how long a client may take to send a request's line and header
 *     fields, counted from the connection's start or the end of its previous response; the
 *     connection is closed after it
 * @param idleTimeout how long a connection may send nothing while its request body is read; the
 *     connection is closed after it. A response being written (a watch) is not idle.
 * @param requestLog where the request log's lines go, in the format of {@code JdkHttpBinding}'s;
 *     {@code null} for no request log
 * @param tls the certificate, key and client CAs to serve HTTPS with; {@code null} for plain HTTP
 * @param http2MaxStreams over HTTPS, the most streams (requests, watches among them) a client may
 *     have open at once on one HTTP/2 connection; {@code 0} offers no HTTP/2 (every client speaks
 *     HTTP/1.1)
 */
public record NettyOptions(
    int maxThreads,
    int eventLoopThreads,
    int maxInitialLineBytes,
    int maxHeaderBytes,
    Duration requestHeaderTimeout,
    Duration idleTimeout,
    Consumer<String> requestLog,
    TlsConfig tls,
    int http2MaxStreams) {
  /**
   * Checks the values.
   *
   * @param maxThreads see the record description
   * @param eventLoopThreads see the record description
   * @param maxInitialLineBytes see the record description
   * @param maxHeaderBytes see the record description
   * @param requestHeaderTimeout see the record description
   * @param idleTimeout see the record description
   * @param requestLog see the record description
   * @param tls see the record description
   * @param http2MaxStreams see the record description
   * @throws IllegalArgumentException when a count or a duration is not positive, or {@code
   *     http2MaxStreams} is negative
   */
  public NettyOptions {
    positive("maxThreads", maxThreads);
    positive("eventLoopThreads", eventLoopThreads);
    positive("maxInitialLineBytes", maxInitialLineBytes);
    positive("maxHeaderBytes", maxHeaderBytes);
    positive("requestHeaderTimeout", requestHeaderTimeout);
    positive("idleTimeout", idleTimeout);
    if (http2MaxStreams < 0) {
      throw new IllegalArgumentException(
          "http2MaxStreams must not be negative, got " + http2MaxStreams);
    }
  }

  /**
   * The defaults: 2,048 handler threads (as {@code ApiServer.serve} gives the JDK binding), one
   * event loop a processor, a 64 KiB request line, 1 MiB of header fields (Go's {@code
   * http.DefaultMaxHeaderBytes}), 60 seconds to send the header fields, 90 seconds of idleness
   * (kube-apiserver's idle timeout), no request log, plain HTTP, and over HTTPS HTTP/2 offered with
   * 100 streams a connection (k8s.io/apiserver's number when none is configured, the number Go's
   * clients assume before the server says).
   *
   * @return the defaults
   */
  public static NettyOptions defaults() {
    return new NettyOptions(
        2048,
        Math.max(1, Runtime.getRuntime().availableProcessors()),
        64 * 1024,
        1024 * 1024,
        Duration.ofSeconds(60),
        Duration.ofSeconds(90),
        null,
        null,
        100);
  }

  /**
   * Returns a copy with another thread limit.
   *
   * @param maxThreads the most requests handled at once
   * @return the copy
   */
  public NettyOptions withMaxThreads(int maxThreads) {
    return new NettyOptions(
        maxThreads,
        eventLoopThreads,
        maxInitialLineBytes,
        maxHeaderBytes,
        requestHeaderTimeout,
        idleTimeout,
        requestLog,
        tls,
        http2MaxStreams);
  }

  /**
   * Returns a copy with another number of event loop threads.
   *
   * @param eventLoopThreads the threads that read and write the connections
   * @return the copy
   */
  public NettyOptions withEventLoopThreads(int eventLoopThreads) {
    return new NettyOptions(
        maxThreads,
        eventLoopThreads,
        maxInitialLineBytes,
        maxHeaderBytes,
        requestHeaderTimeout,
        idleTimeout,
        requestLog,
        tls,
        http2MaxStreams);
  }

  /**
   * Returns a copy with other size limits.
   *
   * @param maxInitialLineBytes the longest request line
   * @param maxHeaderBytes the most bytes of header fields
   * @return the copy
   */
  public NettyOptions withLimits(int maxInitialLineBytes, int maxHeaderBytes) {
    return new NettyOptions(
        maxThreads,
        eventLoopThreads,
        maxInitialLineBytes,
        maxHeaderBytes,
        requestHeaderTimeout,
        idleTimeout,
        requestLog,
        tls,
        http2MaxStreams);
  }

  /**
   * Returns a copy with other deadlines.
   *
   * @param requestHeaderTimeout how long a client may take to send a request's header fields
   * @param idleTimeout how long a connection may send nothing while its body is read
   * @return the copy
   */
  public NettyOptions withTimeouts(Duration requestHeaderTimeout, Duration idleTimeout) {
    return new NettyOptions(
        maxThreads,
        eventLoopThreads,
        maxInitialLineBytes,
        maxHeaderBytes,
        requestHeaderTimeout,
        idleTimeout,
        requestLog,
        tls,
        http2MaxStreams);
  }

  /**
   * Returns a copy with another request log.
   *
   * @param requestLog where the lines go; {@code null} for no request log
   * @return the copy
   */
  public NettyOptions withRequestLog(Consumer<String> requestLog) {
    return new NettyOptions(
        maxThreads,
        eventLoopThreads,
        maxInitialLineBytes,
        maxHeaderBytes,
        requestHeaderTimeout,
        idleTimeout,
        requestLog,
        tls,
        http2MaxStreams);
  }

  /**
   * Returns a copy that serves HTTPS, or plain HTTP.
   *
   * @param tls the TLS configuration; {@code null} for plain HTTP
   * @return the copy
   */
  public NettyOptions withTls(TlsConfig tls) {
    return new NettyOptions(
        maxThreads,
        eventLoopThreads,
        maxInitialLineBytes,
        maxHeaderBytes,
        requestHeaderTimeout,
        idleTimeout,
        requestLog,
        tls,
        http2MaxStreams);
  }

  /**
   * Returns a copy with another HTTP/2 stream limit, or with HTTP/2 not offered.
   *
   * @param http2MaxStreams the most streams open at once on one HTTP/2 connection; {@code 0} offers
   *     no HTTP/2
   * @return the copy
   */
  public NettyOptions withHttp2MaxStreams(int http2MaxStreams) {
    return new NettyOptions(
        maxThreads,
        eventLoopThreads,
        maxInitialLineBytes,
        maxHeaderBytes,
        requestHeaderTimeout,
        idleTimeout,
        requestLog,
        tls,
        http2MaxStreams);
  }

  private static void positive(String name, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }

  private static void positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }
}
