package dev.machinery.apiserver.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves an {@link ApiHandler} over HTTP/1.1 with the JDK's built-in server ({@code
 * com.sun.net.httpserver}): no dependency beyond the JDK, chunked streaming for watches, one thread
 * per active request (up to {@code maxThreads}; further requests wait in the accept backlog).
 *
 * <p>A request log, when given a sink, writes one line a request when its response has ended:
 * method, path with query (as sent), status, response body bytes and milliseconds taken, such as
 * {@code GET /api/v1/namespaces?limit=5 200 1234 bytes 3 ms}. A streamed response (a watch) is
 * logged when it ends, with the bytes written until then.
 *
 * <p>With a {@link TlsConfig} it serves HTTPS instead (TLS 1.3 and 1.2), and hands the certificates
 * a client presented to the handler in {@link ApiRequest#peerCertificates()}. Each request carries
 * the peer's IP address and the URI as sent ({@link ApiRequest#remoteAddress()}, {@link
 * ApiRequest#requestUri()}), which audit events record.
 *
 * <p>A write to a client is bounded by a write timeout ({@link #WRITE_TIMEOUT} unless given
 * another): when one write of a response has been blocked that long, because the client stopped
 * reading (a watcher gone quiet), the connection is closed and the thread writing is freed, as the
 * Netty binding does. Only a blocked write counts: a watch read as it is written lasts as long as
 * it likes.
 *
 * <p>Thread-safe; {@link #close()} stops accepting and ends open exchanges.
 */
public final class JdkHttpBinding implements HttpBinding {
  /**
   * The logger, made on first use: the server logs nothing while it starts, and the first logger
   * starts SLF4J (its provider found and configured), which costs a fresh JVM about 0.1 s.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(JdkHttpBinding.class);
  }

  /** The name of the SLF4J logger {@link #slf4jRequestLog()} writes to. */
  public static final String REQUEST_LOG = HttpBindings.REQUEST_LOG;

  private static final long MAX_DRAIN_BYTES = 64L * 1024 * 1024;

  /**
   * The seconds a client has to send a whole request (headers and body) before its connection is
   * closed, unless the system property {@code sun.net.httpserver.maxReqTime} says otherwise:
   * kube-apiserver's {@code ReadHeaderTimeout}.
   */
  public static final long READ_TIMEOUT_SECONDS = 32;

  /**
   * How long one write of a response may stay blocked, by default, before the connection is closed:
   * the 90 seconds after which the Netty binding closes a connection whose client takes nothing.
   */
  public static final Duration WRITE_TIMEOUT = Duration.ofSeconds(90);

  static {
    // Without TCP_NODELAY, small answers on a kept-alive connection wait for the client's delayed
    // acknowledgement (about 40 ms each: 178 requests/s instead of 3,500 in ServerLoad). The JDK
    // server reads this property once, when its first instance starts; an explicit setting wins.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
    // The JDK server resets a connection whose request has more than 200 header fields, before
    // any handler can answer. Up to this many reach the handler, which answers 431 with a Status
    // beyond ApiServer.MAX_REQUEST_HEADER_FIELDS; past it the JDK still resets the connection.
    if (System.getProperty("sun.net.httpserver.maxReqHeaders") == null) {
      System.setProperty("sun.net.httpserver.maxReqHeaders", "4096");
    }
    // A client that has not sent its whole request after this many seconds is disconnected, so
    // that a slow-loris connection holds no thread for long: kube-apiserver's ReadHeaderTimeout
    // is 32 s. Responses (watches) have no such limit. An explicit setting wins.
    if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
      System.setProperty("sun.net.httpserver.maxReqTime", Long.toString(READ_TIMEOUT_SECONDS));
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final WriteDeadlines deadlines;

  private JdkHttpBinding(HttpServer server, ExecutorService executor, WriteDeadlines deadlines) {
    this.server = server;
    this.executor = executor;
    this.deadlines = deadlines;
  }

  /**
   * Starts serving on an address.
   *
   * @param handler the handler
   * @param address where to listen; port 0 picks a free one
   * @param maxThreads the most requests handled at once (watches included)
   * @return the running binding
   * @throws IOException when the address cannot be bound
   */
  public static JdkHttpBinding start(ApiHandler handler, InetSocketAddress address, int maxThreads)
      throws IOException {
    return start(handler, address, maxThreads, null);
  }

  /**
   * Starts serving on an address, with a request log.
   *
   * @param handler the handler
   * @param address where to listen; port 0 picks a free one
   * @param maxThreads the most requests handled at once (watches included)
   * @param requestLog where the request log's lines go, such as {@link #slf4jRequestLog()}; {@code
   *     null} for no request log
   * @return the running binding
   * @throws IOException when the address cannot be bound
   */
  public static JdkHttpBinding start(
      ApiHandler handler, InetSocketAddress address, int maxThreads, Consumer<String> requestLog)
      throws IOException {
    return start(handler, address, maxThreads, requestLog, null);
  }

  /**
   * Starts serving on an address, over HTTPS when given a TLS configuration.
   *
   * @param handler the handler
   * @param address where to listen; port 0 picks a free one
   * @param maxThreads the most requests handled at once (watches included)
   * @param requestLog where the request log's lines go, such as {@link #slf4jRequestLog()}; {@code
   *     null} for no request log
   * @param tls the certificate, key and client CAs to serve HTTPS with; {@code null} for plain HTTP
   * @return the running binding
   * @throws IOException when the address cannot be bound
   */
  public static JdkHttpBinding start(
      ApiHandler handler,
      InetSocketAddress address,
      int maxThreads,
      Consumer<String> requestLog,
      TlsConfig tls)
      throws IOException {
    return start(handler, address, maxThreads, requestLog, tls, WRITE_TIMEOUT);
  }

  /**
   * Starts serving on an address, over HTTPS when given a TLS configuration, with a write timeout
   * of the caller's choice.
   *
   * @param handler the handler
   * @param address where to listen; port 0 picks a free one
   * @param maxThreads the most requests handled at once (watches included)
   * @param requestLog where the request log's lines go, such as {@link #slf4jRequestLog()}; {@code
   *     null} for no request log
   * @param tls the certificate, key and client CAs to serve HTTPS with; {@code null} for plain HTTP
   * @param writeTimeout how long one write of a response may stay blocked before the connection is
   *     closed (checked a few times within it, so a connection is closed up to about a quarter of
   *     it, and at most a second, later)
   * @return the running binding
   * @throws IOException when the address cannot be bound
   * @throws IllegalArgumentException when the write timeout is not positive
   */
  public static JdkHttpBinding start(
      ApiHandler handler,
      InetSocketAddress address,
      int maxThreads,
      Consumer<String> requestLog,
      TlsConfig tls,
      Duration writeTimeout)
      throws IOException {
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(writeTimeout, "writeTimeout");
    if (writeTimeout.isNegative() || writeTimeout.isZero()) {
      throw new IllegalArgumentException("the write timeout must be positive: " + writeTimeout);
    }
    HttpServer server;
    if (tls == null) {
      server = HttpServer.create(address, 1024);
    } else {
      SSLContext context = tls.sslContext();
      HttpsServer https = HttpsServer.create(address, 1024);
      https.setHttpsConfigurator(
          new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters parameters) {
              parameters.setSSLParameters(tls.sslParameters(context));
            }
          });
      server = https;
    }
    AtomicInteger count = new AtomicInteger();
    ThreadFactory threads =
        runnable -> {
          Thread thread = new Thread(runnable, "machinery-apiserver-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            0,
            maxThreads,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            threads,
            new ThreadPoolExecutor.CallerRunsPolicy());
    WriteDeadlines deadlines = new WriteDeadlines(writeTimeout);
    server.setExecutor(executor);
    server.createContext("/", exchange -> serve(handler, exchange, requestLog, deadlines));
    try {
      server.start();
    } catch (RuntimeException e) {
      deadlines.close();
      throw e;
    }
    return new JdkHttpBinding(server, executor, deadlines);
  }

  /**
   * Returns the request log sink that writes each line at INFO to the SLF4J logger {@value
   * #REQUEST_LOG}.
   *
   * @return the sink
   */
  public static Consumer<String> slf4jRequestLog() {
    return HttpBindings.slf4jRequestLog();
  }

  @Override
  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    deadlines.close();
  }

  private static void serve(
      ApiHandler handler,
      HttpExchange exchange,
      Consumer<String> requestLog,
      WriteDeadlines deadlines) {
    long start = System.nanoTime();
    int status = 0;
    TimedOutputStream counted = null;
    try (exchange) {
      ApiRequest request =
          new ApiRequest(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getPath(),
              query(exchange.getRequestURI().getRawQuery()),
              exchange.getRequestHeaders(),
              exchange.getRequestBody(),
              peerCertificates(exchange),
              exchange.getRemoteAddress() == null
                      || exchange.getRemoteAddress().getAddress() == null
                  ? ""
                  : exchange.getRemoteAddress().getAddress().getHostAddress(),
              exchange.getRequestURI().getRawPath()
                  + (exchange.getRequestURI().getRawQuery() == null
                      ? ""
                      : "?" + exchange.getRequestURI().getRawQuery()));
      ApiResponse response = handler.handle(request);
      response.headers().forEach((name, values) -> exchange.getResponseHeaders().put(name, values));
      boolean head = request.method().equals("HEAD");
      if (response.isStreaming()) {
        exchange.sendResponseHeaders(response.status(), 0);
        status = response.status();
        TimedOutputStream out = deadlines.watch(exchange.getResponseBody());
        counted = out;
        try (out) {
          response.writeBody(out);
        }
      } else {
        byte[] body = response.body();
        drain(exchange);
        exchange.sendResponseHeaders(
            response.status(), head ? -1 : body.length == 0 ? -1 : body.length);
        status = response.status();
        if (!head && body.length > 0) {
          TimedOutputStream out = deadlines.watch(exchange.getResponseBody());
          counted = out;
          try (out) {
            out.write(body);
          }
        }
      }
    } catch (IOException e) {
      Log.LOG.debug("connection ended while answering {}", exchange.getRequestURI(), e);
    } catch (RuntimeException e) {
      Log.LOG.warn("handler failed on {}", exchange.getRequestURI(), e);
    } finally {
      if (counted != null) {
        deadlines.forget(counted);
        if (counted.timedOut()) {
          Log.LOG.debug(
              "closed the connection of {}: a write was blocked for {}",
              exchange.getRequestURI(),
              deadlines.timeout);
        }
      }
      // A write timed out interrupts this thread; the pool's next task must not see it. No
      // interrupt comes once the stream has been forgotten.
      Thread.interrupted();
      if (requestLog != null) {
        logRequest(requestLog, exchange, status, counted == null ? 0 : counted.count(), start);
      }
    }
  }

  private static List<X509Certificate> peerCertificates(HttpExchange exchange) {
    if (!(exchange instanceof HttpsExchange https) || https.getSSLSession() == null) {
      return List.of();
    }
    try {
      List<X509Certificate> chain = new ArrayList<>();
      for (Certificate certificate : https.getSSLSession().getPeerCertificates()) {
        if (certificate instanceof X509Certificate x509) {
          chain.add(x509);
        }
      }
      return chain;
    } catch (SSLPeerUnverifiedException e) {
      return List.of();
    }
  }

  private static void logRequest(
      Consumer<String> requestLog, HttpExchange exchange, int status, long bytes, long start) {
    HttpBindings.log(
        requestLog,
        HttpBindings.requestLogLine(
            exchange.getRequestMethod(),
            exchange.getRequestURI().getRawPath(),
            exchange.getRequestURI().getRawQuery(),
            status,
            bytes,
            start));
  }

  /**
   * The write deadlines of one binding: the streams being written, checked a few times within the
   * timeout by one daemon thread, which interrupts a thread whose write has been blocked longer.
   * The JDK server writes through a blocking socket channel, which an interrupt closes, so the
   * blocked write fails and the thread is freed. Thread-safe.
   */
  private static final class WriteDeadlines {
    private final Duration timeout;
    private final long timeoutNanos;
    private final Set<TimedOutputStream> streams = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer;

    WriteDeadlines(Duration timeout) {
      this.timeout = timeout;
      this.timeoutNanos = timeout.toNanos();
      ScheduledThreadPoolExecutor scheduler =
          new ScheduledThreadPoolExecutor(
              1,
              runnable -> {
                Thread thread = new Thread(runnable, "machinery-apiserver-write-timeout");
                thread.setDaemon(true);
                return thread;
              });
      scheduler.setRemoveOnCancelPolicy(true);
      long period = Math.max(10, Math.min(1000, timeout.toMillis() / 4));
      scheduler.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
      this.timer = scheduler;
    }

    TimedOutputStream watch(OutputStream out) {
      TimedOutputStream stream = new TimedOutputStream(out, Thread.currentThread());
      streams.add(stream);
      return stream;
    }

    void forget(TimedOutputStream stream) {
      stream.finish();
      streams.remove(stream);
    }

    private void check() {
      long now = System.nanoTime();
      for (TimedOutputStream stream : streams) {
        stream.expireIfBlocked(now, timeoutNanos);
      }
    }

    void close() {
      timer.shutdownNow();
    }
  }

  /**
   * Counts the bytes written through it and records when a write began, so that a write blocked too
   * long can be ended. Written by one thread; checked by the deadline thread under its lock.
   */
  private static final class TimedOutputStream extends java.io.FilterOutputStream {
    private final Thread writer;
    private final Object lock = new Object();
    private long count;
    private long since;
    private boolean writing;
    private boolean timedOut;
    private boolean finished;

    TimedOutputStream(OutputStream out, Thread writer) {
      super(out);
      this.writer = writer;
    }

    long count() {
      return count;
    }

    boolean timedOut() {
      synchronized (lock) {
        return timedOut;
      }
    }

    private void begin() throws IOException {
      synchronized (lock) {
        if (timedOut) {
          throw new IOException("the client took nothing for the write timeout; closed");
        }
        since = System.nanoTime();
        writing = true;
      }
    }

    private IOException end(IOException failure) {
      synchronized (lock) {
        writing = false;
        if (timedOut && failure != null) {
          return new IOException("the client took nothing for the write timeout; closed", failure);
        }
        return failure;
      }
    }

    void expireIfBlocked(long now, long timeoutNanos) {
      synchronized (lock) {
        if (writing && !finished && !timedOut && now - since > timeoutNanos) {
          timedOut = true;
          writer.interrupt();
        }
      }
    }

    void finish() {
      synchronized (lock) {
        finished = true;
        writing = false;
      }
    }

    @Override
    public void write(int b) throws IOException {
      begin();
      try {
        out.write(b);
      } catch (IOException e) {
        throw end(e);
      }
      end(null);
      count++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      begin();
      try {
        out.write(bytes, offset, length);
      } catch (IOException e) {
        throw end(e);
      }
      end(null);
      count += length;
    }

    @Override
    public void flush() throws IOException {
      begin();
      try {
        out.flush();
      } catch (IOException e) {
        throw end(e);
      }
      end(null);
    }

    @Override
    public void close() throws IOException {
      begin();
      try {
        out.close();
      } catch (IOException e) {
        throw end(e);
      }
      end(null);
    }
  }

  /**
   * Reads what is left of a refused request's body (up to {@value #MAX_DRAIN_BYTES} bytes), so that
   * closing the connection does not reset it before the client has read the answer.
   */
  private static void drain(HttpExchange exchange) {
    byte[] buffer = new byte[64 * 1024];
    long left = MAX_DRAIN_BYTES;
    try {
      int n;
      while (left > 0 && (n = exchange.getRequestBody().read(buffer)) >= 0) {
        left -= n;
      }
    } catch (IOException e) {
      // Already read to the end and closed by the handler: nothing is left.
    }
  }

  /**
   * Splits a raw query into parameters, as {@link HttpBindings#query(String)}.
   *
   * @param raw the raw query, or {@code null}
   * @return the parameters, each with its values in order
   */
  static Map<String, List<String>> query(String raw) {
    return HttpBindings.query(raw);
  }
}
