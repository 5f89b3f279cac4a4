package dev.machinery.apiserver.client;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.client.config.CredentialSource;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.client.transport.Transport;
import dev.machinery.client.transport.TransportRequest;
import dev.machinery.client.transport.TransportResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Transport} that hands each request to an {@code ApiServer} in the same process, as an
 * {@link ApiRequest}, through the server's whole request path (filters, authorization, admission,
 * audit): as a chosen user without authentication ({@link #of}, {@link #as}; the loopback user
 * {@code system:apiserver} of {@code system:masters} by default, as kube-apiserver's loopback
 * client is), or authenticated from the request's own headers like a request from the network
 * ({@link #authenticating}). A streamed answer (a watch) is written by a thread of the transport
 * into a bounded pipe the client reads; closing the response closes the pipe, and the server's
 * writer stops at its next write.
 *
 * <pre>{@code
 * Client client = Client.builder(InProcessTransport.of(server::handleAs)).scheme(scheme).build();
 * }</pre>
 *
 * <p>The server is reached through {@code ApiServer.handleAs} given as a method reference (a {@link
 * UserHandler}) or through its {@link ApiHandler} side, since no package of the server depends on
 * the root package that holds {@code ApiServer}.
 *
 * <p>Safe for concurrent use. {@link #close()} stops the writer threads; it does not close the
 * server.
 */
public final class InProcessTransport implements Transport {
  private static final int PIPE_BYTES = 64 * 1024;
  private static final AtomicInteger TRANSPORTS = new AtomicInteger();

  /**
   * Answers a request on behalf of a user without authenticating it: {@code ApiServer::handleAs}.
   * Implementations must be safe for concurrent use.
   */
  @FunctionalInterface
  public interface UserHandler {
    /**
     * Answers a request as a user.
     *
     * @param user the user
     * @param request the request
     * @return the response
     */
    ApiResponse handleAs(UserInfo user, ApiRequest request);
  }

  private final UserHandler server;
  private final UserInfo user;
  private final CredentialSource credentials;
  private final ExecutorService writers;

  private InProcessTransport(UserHandler server, UserInfo user) {
    this(server, user, CredentialSource.none());
  }

  private InProcessTransport(UserHandler server, UserInfo user, CredentialSource credentials) {
    this.server = Objects.requireNonNull(server, "server");
    this.user = user;
    this.credentials = credentials;
    int id = TRANSPORTS.incrementAndGet();
    AtomicInteger threads = new AtomicInteger();
    ThreadFactory factory =
        runnable -> {
          Thread thread =
              new Thread(
                  runnable, "in-process-transport-" + id + "-stream-" + threads.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    this.writers = Executors.newCachedThreadPool(factory);
  }

  /**
   * The user the server makes its own requests as: {@code system:apiserver} in {@code
   * system:masters} ({@code ApiServer.LOOPBACK_USER}).
   *
   * @return the user
   */
  public static UserInfo loopbackUser() {
    return ResourceStore.LOOPBACK.user();
  }

  /**
   * A transport whose requests are made as the {@link #loopbackUser() loopback user}, without
   * authentication.
   *
   * @param server the server's {@code handleAs}, such as {@code server::handleAs}
   * @return the transport
   */
  public static InProcessTransport of(UserHandler server) {
    return new InProcessTransport(server, loopbackUser());
  }

  /**
   * A transport whose requests are made as a user, without authentication (authorization, admission
   * and audit see that user).
   *
   * @param server the server's {@code handleAs}, such as {@code server::handleAs}
   * @param user the user
   * @return the transport
   */
  public static InProcessTransport as(UserHandler server, UserInfo user) {
    return new InProcessTransport(server, Objects.requireNonNull(user, "user"));
  }

  /**
   * A transport whose requests are authenticated by the server from their headers ({@code
   * Authorization}), as requests from the network are; without credentials they are anonymous.
   *
   * @param server the server (an {@code ApiServer} is an {@link ApiHandler})
   * @return the transport
   */
  public static InProcessTransport authenticating(ApiHandler server) {
    return authenticating(server, CredentialSource.none());
  }

  /**
   * A transport whose requests carry the credentials' {@code Authorization} header and are
   * authenticated by the server from it, as requests from the network are; a 401 asks the
   * credentials to refresh and, when they did, sends the request once more, as {@link
   * HttpTransport} does.
   *
   * @param server the server (an {@code ApiServer} is an {@link ApiHandler})
   * @param credentials where the header comes from
   * @return the transport
   */
  public static InProcessTransport authenticating(ApiHandler server, CredentialSource credentials) {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(credentials, "credentials");
    return new InProcessTransport((ignored, request) -> server.handle(request), null, credentials);
  }

  @Override
  public TransportResponse send(TransportRequest request) throws IOException {
    if (writers.isShutdown()) {
      throw new IOException("the in-process transport is closed");
    }
    TransportResponse response = exchange(withCredentials(request));
    if (response.status() == 401 && credentials.invalidate()) {
      response.close();
      response = exchange(withCredentials(request));
    }
    return response;
  }

  private TransportRequest withCredentials(TransportRequest request) {
    return credentials
        .authorization()
        .map(value -> request.withHeader("Authorization", value))
        .orElse(request);
  }

  private TransportResponse exchange(TransportRequest request) throws IOException {
    if (!request.headers().containsKey("User-Agent")) {
      // As HttpTransport sends it: the server names writes without a fieldManager after it.
      request = request.withHeader("User-Agent", HttpTransport.DEFAULT_USER_AGENT);
    }
    ApiRequest api =
        new ApiRequest(
            request.method(),
            request.path(),
            request.query(),
            request.headers(),
            new ByteArrayInputStream(request.body()),
            List.of(),
            "127.0.0.1",
            request.encodedPathAndQuery());
    ApiResponse response = server.handleAs(user, api);
    Map<String, List<String>> headers = response.headers();
    if (!response.isStreaming()) {
      return new TransportResponse(
          response.status(), headers, new ByteArrayInputStream(response.body()));
    }
    Pipe pipe = new Pipe();
    try {
      writers.execute(
          () -> {
            try (OutputStream out = pipe.sink()) {
              response.writeBody(out);
            } catch (IOException closedByReader) {
              // the client closed the watch: the server's stream ends here
            }
          });
    } catch (RejectedExecutionException e) {
      throw new IOException("the in-process transport is closed", e);
    }
    return new TransportResponse(response.status(), headers, pipe.source());
  }

  /** Stops the threads that write streamed answers. */
  @Override
  public void close() {
    writers.shutdownNow();
  }

  /**
   * A bounded pipe between the server's writer thread and the client's reader: the writer waits
   * while the buffer is full; either side's close ends the other's wait (the writer's next write
   * fails, the reader sees the end). Guarded by its monitor.
   */
  private static final class Pipe {
    private final byte[] buffer = new byte[PIPE_BYTES];
    private int start;
    private int size;
    private boolean writerClosed;
    private boolean readerClosed;

    OutputStream sink() {
      return new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          synchronized (Pipe.this) {
            while (len > 0) {
              while (size == buffer.length && !readerClosed) {
                waitOn();
              }
              if (readerClosed) {
                throw new IOException("the client closed the stream");
              }
              int end = (start + size) % buffer.length;
              int n = Math.min(len, Math.min(buffer.length - size, buffer.length - end));
              System.arraycopy(b, off, buffer, end, n);
              size += n;
              off += n;
              len -= n;
              Pipe.this.notifyAll();
            }
          }
        }

        @Override
        public void close() {
          synchronized (Pipe.this) {
            writerClosed = true;
            Pipe.this.notifyAll();
          }
        }
      };
    }

    InputStream source() {
      return new InputStream() {
        @Override
        public int read() throws IOException {
          byte[] one = new byte[1];
          int n = read(one, 0, 1);
          return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          if (len == 0) {
            return 0;
          }
          synchronized (Pipe.this) {
            while (size == 0 && !writerClosed && !readerClosed) {
              waitOn();
            }
            if (readerClosed) {
              throw new IOException("the stream is closed");
            }
            if (size == 0) {
              return -1;
            }
            int n = Math.min(len, Math.min(size, buffer.length - start));
            System.arraycopy(buffer, start, b, off, n);
            start = (start + n) % buffer.length;
            size -= n;
            Pipe.this.notifyAll();
            return n;
          }
        }

        @Override
        public int available() {
          synchronized (Pipe.this) {
            return size;
          }
        }

        @Override
        public void close() {
          synchronized (Pipe.this) {
            readerClosed = true;
            Pipe.this.notifyAll();
          }
        }
      };
    }

    private void waitOn() throws InterruptedIOException {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting on the stream");
      }
    }
  }
}
