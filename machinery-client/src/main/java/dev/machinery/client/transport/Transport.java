package dev.machinery.client.transport;

import java.io.IOException;

/**
 * Sends one request to an API server and hands back its response, as client-go's {@code
 * http.RoundTripper} does for its REST client: over HTTP ({@link HttpTransport}), in process, or in
 * a test. A transport neither retries nor rate-limits; the client above it does both.
 *
 * <p>Implementations must be safe for concurrent use: a client sends from any number of threads.
 */
public interface Transport extends AutoCloseable {
  /**
   * Sends a request and waits for the response's status and headers; the body is read from the
   * response as it arrives (for a watch, while the server writes it).
   *
   * @param request the request
   * @return the response; the caller closes it
   * @throws IOException when the server cannot be reached or the exchange fails before a status
   *     arrives
   */
  TransportResponse send(TransportRequest request) throws IOException;

  /** Releases what the transport holds; requests after it fail. The default holds nothing. */
  @Override
  default void close() {}
}
