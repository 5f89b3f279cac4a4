package dev.machinery.apiserver.http;

import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP response: status, headers, and either a complete body or a stream written as it is
 * produced (a watch). Built by the handlers, written by the binding.
 *
 * <p>Immutable; a streaming body is written once.
 */
public final class ApiResponse {
  private final int status;
  private final Map<String, List<String>> headers;
  private final byte[] body;
  private final StreamingBody stream;

  private ApiResponse(
      int status, Map<String, List<String>> headers, byte[] body, StreamingBody stream) {
    this.status = status;
    this.headers = headers;
    this.body = body;
    this.stream = stream;
  }

  /**
   * A response with a complete body.
   *
   * @param status the status code
   * @param contentType the Content-Type
   * @param body the body
   * @return the response
   */
  public static ApiResponse of(int status, String contentType, byte[] body) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("Content-Type", List.of(contentType));
    return new ApiResponse(status, headers, Objects.requireNonNull(body, "body"), null);
  }

  /**
   * A response whose body is written as it is produced, flushed after each part.
   *
   * @param status the status code
   * @param contentType the Content-Type
   * @param stream writes the body
   * @return the response
   */
  public static ApiResponse streaming(int status, String contentType, StreamingBody stream) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("Content-Type", List.of(contentType));
    headers.put("Cache-Control", List.of("no-cache, private"));
    return new ApiResponse(status, headers, null, Objects.requireNonNull(stream, "stream"));
  }

  /**
   * Returns a copy with one more {@code Warning} header, as kube-apiserver writes them: code 299,
   * no agent, the text quoted (RFC 7234).
   *
   * @param text the warning's text
   * @return the new response
   */
  public ApiResponse withWarning(String text) {
    return withHeader(
        "Warning", "299 - \"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
  }

  /**
   * Returns a copy with one more header value.
   *
   * @param name the header's name
   * @param value its value
   * @return the new response
   */
  public ApiResponse withHeader(String name, String value) {
    Map<String, List<String>> copy = new LinkedHashMap<>(headers);
    copy.merge(
        name,
        List.of(value),
        (a, b) -> {
          List<String> both = new java.util.ArrayList<>(a);
          both.addAll(b);
          return List.copyOf(both);
        });
    return new ApiResponse(status, copy, body, stream);
  }

  /**
   * Returns the status code.
   *
   * @return the code
   */
  public int status() {
    return status;
  }

  /**
   * Returns the headers.
   *
   * @return the headers, by name
   */
  public Map<String, List<String>> headers() {
    return Map.copyOf(headers);
  }

  /**
   * Returns the first value of a header.
   *
   * @param name the name, exactly as set
   * @return the value, or {@code null}
   */
  public String header(String name) {
    List<String> values = headers.get(name);
    return values == null ? null : values.get(0);
  }

  /**
   * Returns the complete body, or {@code null} for a streaming response.
   *
   * @return the body
   */
  public byte[] body() {
    return body;
  }

  /**
   * Whether the body is streamed.
   *
   * @return true for a streaming response
   */
  public boolean isStreaming() {
    return stream != null;
  }

  /**
   * Writes the body: the complete one, or the stream until it ends.
   *
   * @param out the connection's output
   * @throws IOException when the connection fails
   */
  public void writeBody(OutputStream out) throws IOException {
    if (stream != null) {
      stream.writeTo(out);
    } else {
      out.write(body);
    }
  }

  /** Writes a streamed body, flushing after each part it produces. */
  @FunctionalInterface
  public interface StreamingBody {
    /**
     * Writes the body until it ends or the connection fails.
     *
     * @param out the connection's output
     * @throws IOException when the connection fails (the client went away)
     */
    void writeTo(OutputStream out) throws IOException;
  }
}
