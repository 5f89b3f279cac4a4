package dev.machinery.client.transport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One request of the client: method, path (not encoded, such as {@code
 * /api/v1/namespaces/ns/pods/a}), query parameters in order, headers and body.
 *
 * <p>Immutable (the maps are copied; the body array is the caller's and must not change after) and
 * safe to share between threads.
 *
 * @param method the method, upper case
 * @param path the path, not percent-encoded
 * @param query the query parameters, each with its values, in the order they are written
 * @param headers the headers, names compared ignoring case
 * @param body the body; empty for none
 * @param streaming true for a response read while the server writes it (a watch): no request
 *     timeout applies to it
 */
public record TransportRequest(
    String method,
    String path,
    Map<String, List<String>> query,
    Map<String, List<String>> headers,
    byte[] body,
    boolean streaming) {
  /**
   * Checks and copies the parts.
   *
   * @param method see the record description
   * @param path see the record description
   * @param query see the record description
   * @param headers see the record description
   * @param body see the record description
   * @param streaming see the record description
   * @throws IllegalArgumentException when the path does not start with {@code /}
   */
  public TransportRequest {
    method = Objects.requireNonNull(method, "method").toUpperCase(Locale.ROOT);
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with /, got \"" + path + "\"");
    }
    LinkedHashMap<String, List<String>> q = new LinkedHashMap<>();
    query.forEach((name, values) -> q.put(name, List.copyOf(values)));
    query = Collections.unmodifiableMap(q);
    TreeMap<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach((name, values) -> h.put(name, List.copyOf(values)));
    headers = Collections.unmodifiableMap(h);
    body = body == null ? new byte[0] : body;
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
   * Returns the first value of a query parameter.
   *
   * @param name the name
   * @return the value, or {@code null}
   */
  public String parameter(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /**
   * Returns this request with one header set (replacing its values).
   *
   * @param name the name
   * @param value the value
   * @return the new request
   */
  public TransportRequest withHeader(String name, String value) {
    TreeMap<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    h.putAll(headers);
    h.put(name, List.of(value));
    return new TransportRequest(method, path, query, h, body, streaming);
  }

  /**
   * The query written as {@code a=b&c=d}, each name and value percent-encoded as a URL's query part
   * is, in order; empty without parameters.
   *
   * @return the encoded query
   */
  public String encodedQuery() {
    List<String> parts = new ArrayList<>();
    query.forEach(
        (name, values) -> {
          for (String value : values) {
            parts.add(Uris.encodeQueryPart(name) + "=" + Uris.encodeQueryPart(value));
          }
        });
    return String.join("&", parts);
  }

  /**
   * The path and query as a request line writes them, percent-encoded.
   *
   * @return such as {@code /api/v1/pods?limit=5}
   */
  public String encodedPathAndQuery() {
    String q = encodedQuery();
    return Uris.encodePath(path) + (q.isEmpty() ? "" : "?" + q);
  }
}
