package dev.machinery.client;

import dev.machinery.client.transport.Transport;
import dev.machinery.client.transport.TransportRequest;
import dev.machinery.client.transport.TransportResponse;
import dev.machinery.core.schema.GroupResource;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Sends a client's requests as client-go's {@code rest.Request} does: a token of the rate limiter
 * before each attempt; a 429 or 5xx answer that carries an integer {@code Retry-After} sent again
 * after that many seconds, at most {@code maxRetries} times ({@code checkWait} and {@code
 * withRetry}); a {@code GET} whose exchange broke sent again after one second (client-go's
 * artificial {@code Retry-After: 1} for a reset connection); every answer's {@code Warning} headers
 * to the handler; anything but 2xx turned into the typed error ({@link ResponseErrors}). Immutable;
 * thread-safe.
 */
final class Requests {
  static final int DEFAULT_MAX_RETRIES = 10;

  /** Waits between attempts. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  static final Sleeper SLEEP = duration -> Thread.sleep(duration.toMillis());

  private final Transport transport;
  private final Codecs codecs;
  private final RateLimiter limiter;
  private final int maxRetries;
  private final WarningHandler warnings;
  private final Sleeper sleeper;

  Requests(
      Transport transport,
      Codecs codecs,
      RateLimiter limiter,
      int maxRetries,
      WarningHandler warnings,
      Sleeper sleeper) {
    this.transport = Objects.requireNonNull(transport, "transport");
    this.codecs = codecs;
    this.limiter = limiter;
    this.maxRetries = maxRetries;
    this.warnings = warnings;
    this.sleeper = sleeper;
  }

  /** What a request is about, for the messages of errors without a Status. */
  record Target(GroupResource resource, String name) {
    static final Target NONE = new Target(null, "");
  }

  /**
   * Sends a request until it succeeds or must not be retried; returns a 2xx response (its body
   * unread), or throws the typed error of the last answer.
   */
  TransportResponse send(TransportRequest request, Target target) {
    int attempts = 0;
    while (true) {
      throttle(request);
      TransportResponse response;
      try {
        response = transport.send(request);
      } catch (IOException e) {
        attempts++;
        if (request.method().equals("GET") && retryable(e) && attempts <= maxRetries) {
          pause(request, Duration.ofSeconds(1));
          continue;
        }
        throw new TransportException(
            request.method() + " " + request.encodedPathAndQuery() + ": " + e.getMessage(), e);
      }
      Warnings.parse(response.headerValues("Warning"))
          .forEach(w -> warnings.handle(w.code(), w.agent(), w.text()));
      int status = response.status();
      if (status >= 200 && status < 300) {
        return response;
      }
      Optional<Integer> wait = checkWait(status, response.header("Retry-After"));
      attempts++;
      if (wait.isPresent() && attempts <= maxRetries) {
        response.close();
        pause(request, Duration.ofSeconds(wait.get()));
        continue;
      }
      byte[] body;
      try {
        body = response.readBody();
      } catch (IOException e) {
        body = new byte[0];
      }
      throw ResponseErrors.from(
          status,
          response.header("Content-Type"),
          response.header("Retry-After"),
          body,
          request.method(),
          target,
          codecs);
    }
  }

  /**
   * Whether a broken exchange of a {@code GET} is sent again: a connection that was reset or ended
   * early ({@code net.IsConnectionReset}, {@code IsProbableEOF}), not a server that refused the
   * connection, a TLS handshake that failed or a request that timed out.
   */
  static boolean retryable(IOException failure) {
    return !(failure instanceof java.net.ConnectException)
        && !(failure instanceof javax.net.ssl.SSLException)
        && !(failure instanceof java.net.http.HttpTimeoutException)
        && !(failure instanceof java.io.InterruptedIOException);
  }

  /**
   * Whether an answer asks to be retried, and after how many seconds: 429 or any status from 500
   * on, with a {@code Retry-After} that is an integer ({@code checkWait}).
   */
  static Optional<Integer> checkWait(int status, String retryAfter) {
    if (status != 429 && status < 500) {
      return Optional.empty();
    }
    return retryAfterSeconds(retryAfter);
  }

  /** The seconds of a {@code Retry-After} header, when it is an integer. */
  static Optional<Integer> retryAfterSeconds(String retryAfter) {
    if (retryAfter == null || retryAfter.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Integer.parseInt(retryAfter));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private void throttle(TransportRequest request) {
    try {
      limiter.accept();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException(
          request.method()
              + " "
              + request.encodedPathAndQuery()
              + ": interrupted while waiting for the rate limiter",
          e);
    }
  }

  private void pause(TransportRequest request, Duration wait) {
    if (wait.isZero() || wait.isNegative()) {
      return;
    }
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException(
          request.method()
              + " "
              + request.encodedPathAndQuery()
              + ": interrupted while waiting to retry",
          e);
    }
  }

  /** The codecs, for callers that decode the response. */
  Codecs codecs() {
    return codecs;
  }

  static List<String> values(String value) {
    return value == null ? List.of() : List.of(value);
  }
}
