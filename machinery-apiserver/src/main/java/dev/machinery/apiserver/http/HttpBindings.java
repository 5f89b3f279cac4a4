package dev.machinery.apiserver.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link HttpBinding} does the same way: splitting a raw query into parameters, and the
 * request log's line. Stateless and thread-safe.
 */
public final class HttpBindings {
  /**
   * The logger, made on first use: the server logs nothing while it starts, and the first logger
   * starts SLF4J (its provider found and configured), which costs a fresh JVM about 0.1 s.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(HttpBindings.class);
  }

  /** The name of the SLF4J logger {@link #slf4jRequestLog()} writes to. */
  public static final String REQUEST_LOG = "dev.machinery.apiserver.requests";

  private HttpBindings() {}

  /**
   * Returns the request log sink that writes each line at INFO to the SLF4J logger {@value
   * #REQUEST_LOG}.
   *
   * @return the sink
   */
  public static Consumer<String> slf4jRequestLog() {
    Logger requests = LoggerFactory.getLogger(REQUEST_LOG);
    return line -> requests.info("{}", line);
  }

  /**
   * Splits a raw query into parameters, decoding each name and value ({@code +} is a space; a part
   * that is not valid percent-encoding is kept as sent).
   *
   * @param raw the raw query, or {@code null}
   * @return the parameters, each with its values in order
   */
  public static Map<String, List<String>> query(String raw) {
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return query;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }
    return query;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  /**
   * Formats one line of the request log: method, path with query (as sent), status ({@code -} when
   * no response was sent), response body bytes and whole milliseconds taken, such as {@code GET
   * /api/v1/namespaces?limit=5 200 1234 bytes 3 ms}.
   *
   * @param method the request's method
   * @param rawPath the path as sent
   * @param rawQuery the query as sent, or {@code null} for none
   * @param status the status sent, or 0 for none
   * @param bytes the response body bytes written
   * @param startNanos {@link System#nanoTime()} when the request arrived
   * @return the line
   */
  public static String requestLogLine(
      String method, String rawPath, String rawQuery, int status, long bytes, long startNanos) {
    return method
        + " "
        + rawPath
        + (rawQuery == null ? "" : "?" + rawQuery)
        + " "
        + (status == 0 ? "-" : String.valueOf(status))
        + " "
        + bytes
        + " bytes "
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)
        + " ms";
  }

  /**
   * Hands a line to a request log sink; a sink that throws is reported at WARN, never to the
   * caller.
   *
   * @param requestLog the sink
   * @param line the line
   */
  public static void log(Consumer<String> requestLog, String line) {
    try {
      requestLog.accept(line);
    } catch (RuntimeException e) {
      Log.LOG.warn("the request log failed on {}", line, e);
    }
  }
}
