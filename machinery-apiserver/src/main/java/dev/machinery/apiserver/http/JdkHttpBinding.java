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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
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
 * <p>Thread-safe; {@link #close()} stops accepting and ends open exchanges.
 */
public final class JdkHttpBinding implements HttpBinding {
  private static final Logger LOG = LoggerFactory.getLogger(JdkHttpBinding.class);

  /** The name of the SLF4J logger {@link #slf4jRequestLog()} writes to. */
  public static final String REQUEST_LOG = HttpBindings.REQUEST_LOG;

  private static final long MAX_DRAIN_BYTES = 64L * 1024 * 1024;

  /**
   * The seconds a client has to send a whole request (headers and body) before its connection is
   * closed, unless the system property {@code sun.net.httpserver.maxReqTime} says otherwise:
   * kube-apiserver's {@code ReadHeaderTimeout}.
   */
  public static final long READ_TIMEOUT_SECONDS = 32;

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

  private JdkHttpBinding(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
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
    Objects.requireNonNull(handler, "handler");
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
    server.setExecutor(executor);
    server.createContext("/", exchange -> serve(handler, exchange, requestLog));
    server.start();
    return new JdkHttpBinding(server, executor);
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
  }

  private static void serve(
      ApiHandler handler, HttpExchange exchange, Consumer<String> requestLog) {
    long start = System.nanoTime();
    int status = 0;
    CountingOutputStream counted = null;
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
        CountingOutputStream out = new CountingOutputStream(exchange.getResponseBody());
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
          CountingOutputStream out = new CountingOutputStream(exchange.getResponseBody());
          counted = out;
          try (out) {
            out.write(body);
          }
        }
      }
    } catch (IOException e) {
      LOG.debug("connection ended while answering {}", exchange.getRequestURI(), e);
    } catch (RuntimeException e) {
      LOG.warn("handler failed on {}", exchange.getRequestURI(), e);
    } finally {
      if (requestLog != null) {
        logRequest(requestLog, exchange, status, counted == null ? 0 : counted.count, start);
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

  /** Counts the bytes written through it. */
  private static final class CountingOutputStream extends java.io.FilterOutputStream {
    private long count;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
      count += length;
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
