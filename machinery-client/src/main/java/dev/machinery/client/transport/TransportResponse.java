package dev.machinery.client.transport;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One response: status, headers (names compared ignoring case) and the body as a stream read as it
 * arrives. Closing it closes the body, which ends a watch.
 *
 * <p>The status and headers are immutable; the body is read by one thread, and {@link #close()} may
 * be called from any thread to stop it.
 */
public final class TransportResponse implements AutoCloseable {
  private final int status;
  private final Map<String, List<String>> headers;
  private final InputStream body;

  /**
   * Creates a response.
   *
   * @param status the HTTP status code
   * @param headers the headers, by name (any case)
   * @param body the body; an empty stream for none
   */
  public TransportResponse(int status, Map<String, List<String>> headers, InputStream body) {
    this.status = status;
    TreeMap<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach((name, values) -> h.merge(name, List.copyOf(values), TransportResponse::join));
    this.headers = Collections.unmodifiableMap(h);
    this.body = Objects.requireNonNull(body, "body");
  }

  private static List<String> join(List<String> a, List<String> b) {
    java.util.ArrayList<String> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return List.copyOf(all);
  }

  /**
   * Returns the status code.
   *
   * @return such as 200
   */
  public int status() {
    return status;
  }

  /**
   * Returns the headers.
   *
   * @return the headers, by name (any case), each with its values in order
   */
  public Map<String, List<String>> headers() {
    return headers;
  }

  /**
   * Returns the first value of a header.
   *
   * @param name the name, any case
   * @return the value, or {@code null}
   */
  public String header(String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /**
   * Returns every value of a header.
   *
   * @param name the name, any case
   * @return the values; empty when absent
   */
  public List<String> headerValues(String name) {
    return headers.getOrDefault(name, List.of());
  }

  /**
   * Returns the body stream.
   *
   * @return the stream, read once
   */
  public InputStream body() {
    return body;
  }

  /**
   * Reads the whole body and closes it.
   *
   * @return the bytes
   * @throws IOException when reading fails
   */
  public byte[] readBody() throws IOException {
    try (InputStream in = body) {
      return in.readAllBytes();
    }
  }

  /** Closes the body. */
  @Override
  public void close() {
    try {
      body.close();
    } catch (IOException ignored) {
      // closing a finished or broken stream: nothing left to release
    }
  }
}
