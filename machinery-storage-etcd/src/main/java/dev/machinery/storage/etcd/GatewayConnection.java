package dev.machinery.storage.etcd;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * One HTTP/1.1 connection to an etcd JSON gateway, kept alive between calls: a POST of a JSON body
 * written on the caller's thread, and its answer read on the same thread, whole ({@code
 * Content-Length} or chunked, trailers skipped). It exists because the JDK's HTTP client hands each
 * exchange to threads of its own, which doubles a call's time on loopback (360 µs against 700 µs
 * for a one-key count, docs/performance.md).
 *
 * <p>Answers are bounded: a status or header line longer than {@value #MAX_LINE} bytes, more than
 * {@value #MAX_HEADERS} headers, or a body that is neither sized nor chunked is refused with a
 * {@link ProtocolException}, and the connection closed by its owner.
 *
 * <p>Not thread-safe: {@link EtcdClient} lends a connection to one call at a time.
 */
final class GatewayConnection implements Closeable {
  static final int MAX_LINE = 16 * 1024;
  static final int MAX_HEADERS = 100;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] head;
  private boolean answered;

  private GatewayConnection(Socket socket, String host) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
    this.out = socket.getOutputStream();
    this.head =
        ("Host: " + host + "\r\nContent-Type: application/json\r\nContent-Length: ")
            .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Connects to an endpoint, in clear.
   *
   * @param endpoint an {@code http} endpoint
   * @param timeout the most to wait for the connection, and for each read of an answer
   * @return the connection
   * @throws IOException when the endpoint cannot be reached
   */
  static GatewayConnection open(URI endpoint, Duration timeout) throws IOException {
    return open(endpoint, timeout, EtcdTls.DEFAULT);
  }

  /**
   * Connects to an endpoint, over TLS when it is {@code https}.
   *
   * @param endpoint an {@code http} or {@code https} endpoint
   * @param timeout the most to wait for the connection (and its handshake), and for each read of an
   *     answer
   * @param tls how to speak TLS to an {@code https} endpoint
   * @return the connection
   * @throws IOException when the endpoint cannot be reached, or the TLS handshake fails
   */
  static GatewayConnection open(URI endpoint, Duration timeout, EtcdTls tls) throws IOException {
    int port = EtcdTls.port(endpoint);
    Socket socket = new Socket();
    try {
      int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
      socket.connect(new InetSocketAddress(endpoint.getHost(), port), millis);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(millis);
      Socket connected = EtcdTls.secure(endpoint) ? tls.wrap(socket, endpoint) : socket;
      return new GatewayConnection(connected, endpoint.getHost() + ":" + port);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  /**
   * An answer.
   *
   * @param status the HTTP status
   * @param body the body, whole
   * @param keepAlive whether the connection may carry another call
   */
  record Answer(int status, byte[] body, boolean keepAlive) {}

  /**
   * Posts a body and reads the answer.
   *
   * @param path the gateway path, such as {@code /v3/kv/range}
   * @param body the JSON body
   * @return the answer
   * @throws IOException when the connection fails, or the answer is not HTTP/1.1 as expected
   */
  Answer post(String path, byte[] body) throws IOException {
    answered = false;
    byte[] line = ("POST " + path + " HTTP/1.1\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] length = (body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] request = new byte[line.length + head.length + length.length + body.length];
    System.arraycopy(line, 0, request, 0, line.length);
    System.arraycopy(head, 0, request, line.length, head.length);
    System.arraycopy(length, 0, request, line.length + head.length, length.length);
    System.arraycopy(body, 0, request, request.length - body.length, body.length);
    out.write(request);
    out.flush();
    return read();
  }

  /**
   * Whether the last {@link #post} received any byte of an answer. A connection kept idle that the
   * gateway closed fails its next post before any byte arrives; only then may the call be sent
   * again on a new connection, since the gateway never read it.
   *
   * @return true once a byte of the answer was read
   */
  boolean answered() {
    return answered;
  }

  private Answer read() throws IOException {
    String status = line(true);
    if (!status.startsWith("HTTP/1.") || status.length() < 12) {
      throw new ProtocolException(
          "the etcd gateway answered a status line that is not HTTP/1.x: " + abbreviate(status));
    }
    int code;
    try {
      code = Integer.parseInt(status.substring(9, 12));
    } catch (NumberFormatException e) {
      throw new ProtocolException(
          "the etcd gateway answered a status line without a status code: " + abbreviate(status));
    }
    boolean keepAlive = status.startsWith("HTTP/1.1");
    long contentLength = -1;
    boolean chunked = false;
    for (int headers = 0; ; headers++) {
      String header = line(false);
      if (header.isEmpty()) {
        break;
      }
      if (headers == MAX_HEADERS) {
        throw new ProtocolException(
            "the etcd gateway answered more than " + MAX_HEADERS + " headers");
      }
      int colon = header.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> contentLength = parseLength(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> keepAlive &= !value.equalsIgnoreCase("close");
        default -> {}
      }
    }
    byte[] body;
    if (chunked) {
      body = chunkedBody();
    } else if (contentLength >= 0) {
      if (contentLength > Integer.MAX_VALUE - 8) {
        throw new ProtocolException(
            "the etcd gateway answered a body of "
                + contentLength
                + " bytes, more than one array holds");
      }
      body = in.readNBytes((int) contentLength);
      if (body.length < contentLength) {
        throw new EOFException(
            "the etcd gateway closed the connection after "
                + body.length
                + " of "
                + contentLength
                + " bytes");
      }
    } else {
      throw new ProtocolException(
          "the etcd gateway answered a body with neither Content-Length nor chunked encoding");
    }
    return new Answer(code, body, keepAlive);
  }

  private byte[] chunkedBody() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String size = line(false);
      int semicolon = size.indexOf(';');
      String hex = (semicolon < 0 ? size : size.substring(0, semicolon)).trim();
      long chunk;
      try {
        chunk = Long.parseLong(hex, 16);
      } catch (NumberFormatException e) {
        throw new ProtocolException(
            "the etcd gateway answered a chunk size that is not hex: " + abbreviate(size));
      }
      if (chunk < 0 || chunk > Integer.MAX_VALUE - 8 - body.size()) {
        throw new ProtocolException(
            "the etcd gateway answered a chunk of "
                + hex
                + " (hex) bytes, more than one array holds");
      }
      if (chunk == 0) {
        for (int trailers = 0; !line(false).isEmpty(); trailers++) {
          if (trailers == MAX_HEADERS) {
            throw new ProtocolException(
                "the etcd gateway answered more than " + MAX_HEADERS + " trailers");
          }
        }
        return body.toByteArray();
      }
      byte[] bytes = in.readNBytes((int) chunk);
      if (bytes.length < chunk) {
        throw new EOFException("the etcd gateway closed the connection inside a chunk");
      }
      body.write(bytes);
      if (!line(false).isEmpty()) {
        throw new ProtocolException("the etcd gateway answered a chunk not followed by CRLF");
      }
    }
  }

  /** Reads one CRLF-ended line of ASCII, without its end. */
  private String line(boolean first) throws IOException {
    StringBuilder line = new StringBuilder(64);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException(
            first && !answered
                ? "the etcd gateway closed the connection before answering"
                : "the etcd gateway closed the connection inside an answer");
      }
      answered = true;
      if (b == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
          line.setLength(end - 1);
        }
        return line.toString();
      }
      if (line.length() == MAX_LINE) {
        throw new ProtocolException(
            "the etcd gateway answered a line longer than " + MAX_LINE + " bytes");
      }
      line.append((char) b);
    }
  }

  private static long parseLength(String value) throws ProtocolException {
    try {
      long length = Long.parseLong(value);
      if (length >= 0) {
        return length;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ProtocolException(
        "the etcd gateway answered a Content-Length that is not a size: " + abbreviate(value));
  }

  private static String abbreviate(String text) {
    return text.length() <= 100 ? text : text.substring(0, 100) + "...";
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing more to release
    }
  }
}
