package dev.machinery.apiserver.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * A running HTTP server that serves an {@link ApiHandler}: {@link JdkHttpBinding} on the JDK's
 * built-in server, or the Netty binding of {@code machinery-apiserver-netty}.
 *
 * <p>Implementations are thread-safe.
 */
public interface HttpBinding extends AutoCloseable {
  /**
   * Returns the address the server listens on (with the port chosen).
   *
   * @return the address
   */
  InetSocketAddress address();

  /**
   * Returns the port the server listens on.
   *
   * @return the port
   */
  default int port() {
    return address().getPort();
  }

  /** Stops accepting connections and ends the open ones. */
  @Override
  void close();

  /**
   * Starts a binding with a server's request log and TLS configuration, as {@code
   * ApiServer.serve(address, starter)} passes them.
   */
  @FunctionalInterface
  interface Starter {
    /**
     * Starts serving on an address.
     *
     * @param handler the handler
     * @param address where to listen; port 0 picks a free one
     * @param requestLog where the request log's lines go; {@code null} for no request log
     * @param tls the certificate, key and client CAs to serve HTTPS with; {@code null} for plain
     *     HTTP
     * @return the running binding
     * @throws IOException when the address cannot be bound
     */
    HttpBinding start(
        ApiHandler handler, InetSocketAddress address, Consumer<String> requestLog, TlsConfig tls)
        throws IOException;
  }
}
