package dev.machinery.apiserver.http;

import java.io.InputStream;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One HTTP request as the server's handlers see it, independent of the HTTP server that received
 * it: method, decoded path, query parameters, headers (names compared ignoring case) and the body
 * as a stream the handler reads at most once, and the client certificates the TLS handshake
 * received (only a binding sets them, never a header).
 *
 * <p>Immutable apart from the body stream; confined to the thread that handles the request.
 *
 * @param method the method, upper case
 * @param path the path, percent-decoded
 * @param query the query parameters, each with its values in order
 * @param headers the headers, by name (any case)
 * @param body the body
 * @param peerCertificates the certificate chain the client presented in the TLS handshake, its own
 *     first; empty over plain HTTP or when it presented none. Not verified: an authenticator
 *     verifies it against its client CAs.
 * @param remoteAddress the IP address of the connection's peer, as text; {@code ""} when unknown
 *     (audit events list it among their source IPs)
 * @param requestUri the path and query exactly as sent (still percent-encoded); {@code ""} when
 *     unknown, in which case audit events write the decoded path and query
 */
public record ApiRequest(
    String method,
    String path,
    Map<String, List<String>> query,
    Map<String, List<String>> headers,
    InputStream body,
    List<X509Certificate> peerCertificates,
    String remoteAddress,
    String requestUri) {
  /**
   * A request without client certificates.
   *
   * @param method see the record description
   * @param path see the record description
   * @param query see the record description
   * @param headers see the record description
   * @param body see the record description
   */
  public ApiRequest(
      String method,
      String path,
      Map<String, List<String>> query,
      Map<String, List<String>> headers,
      InputStream body) {
    this(method, path, query, headers, body, List.of());
  }

  /**
   * A request without the peer's address or the URI as sent.
   *
   * @param method see the record description
   * @param path see the record description
   * @param query see the record description
   * @param headers see the record description
   * @param body see the record description
   * @param peerCertificates see the record description
   */
  public ApiRequest(
      String method,
      String path,
      Map<String, List<String>> query,
      Map<String, List<String>> headers,
      InputStream body,
      List<X509Certificate> peerCertificates) {
    this(method, path, query, headers, body, peerCertificates, "", "");
  }

  /**
   * Copies the maps and the list; header names become case-insensitive; a {@code null} address or
   * URI is {@code ""}.
   *
   * @param method see the record description
   * @param path see the record description
   * @param query see the record description
   * @param headers see the record description
   * @param body see the record description
   * @param peerCertificates see the record description
   * @param remoteAddress see the record description
   * @param requestUri see the record description
   */
  public ApiRequest {
    method = Objects.requireNonNull(method, "method").toUpperCase(Locale.ROOT);
    Objects.requireNonNull(path, "path");
    query = Map.copyOf(query);
    TreeMap<String, List<String>> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach((name, values) -> byName.put(name, List.copyOf(values)));
    headers = byName;
    Objects.requireNonNull(body, "body");
    peerCertificates = List.copyOf(peerCertificates);
    remoteAddress = Objects.requireNonNullElse(remoteAddress, "");
    requestUri = Objects.requireNonNullElse(requestUri, "");
  }

  /**
   * Returns the same request with another body, such as the bytes of the body already read.
   *
   * @param other the body
   * @return the copy
   */
  public ApiRequest withBody(InputStream other) {
    return new ApiRequest(
        method, path, query, headers, other, peerCertificates, remoteAddress, requestUri);
  }

  /**
   * Returns the first value of a header.
   *
   * @param name the header's name, any case
   * @return the value, or {@code null}
   */
  public String header(String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /**
   * Returns the first value of a query parameter.
   *
   * @param name the parameter's name
   * @return the value, or {@code null}
   */
  public String parameter(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
