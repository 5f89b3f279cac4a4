package dev.machinery.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.client.transport.TransportRequest;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Retries as client-go's rest/request.go and with_retry.go make them: {@code checkWait}'s table
 * (429 and every status from 500, with an integer {@code Retry-After}), at most 10 retries, each
 * after the seconds the server asked for, each through the rate limiter, POST retried as GET is on
 * 429; a broken exchange of a GET retried after one second, of a POST not.
 */
class RetryTest {
  private final List<Duration> slept = new ArrayList<>();
  private final AtomicInteger tokens = new AtomicInteger();

  private Requests requests(FakeTransport transport, int maxRetries) {
    Scheme meta = DiscoveryV2.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    Codecs codecs =
        new Codecs(
            Fixtures.SCHEME,
            CodecFactory.create(Fixtures.SCHEME),
            CodecFactory.create(meta),
            null,
            CodecLimits.DEFAULTS);
    RateLimiter counting =
        new RateLimiter() {
          @Override
          public void accept() {
            tokens.incrementAndGet();
          }

          @Override
          public boolean tryAccept() {
            tokens.incrementAndGet();
            return true;
          }

          @Override
          public float qps() {
            return 1;
          }
        };
    return new Requests(transport, codecs, counting, maxRetries, WarningHandler.NONE, slept::add);
  }

  private static TransportRequest request(String method) {
    return new TransportRequest(method, "/api/v1/pods", Map.of(), Map.of(), null, false);
  }

  @ParameterizedTest(name = "{0} with Retry-After \"{1}\" → {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "null",
      value = {
        "200 | 1    | null",
        "201 | 1    | null",
        "404 | 1    | null",
        "409 | 5    | null",
        "429 | 1    | 1",
        "429 | 0    | 0",
        "429 | null | null",
        "429 | abc  | null",
        "429 | 1.5  | null",
        "500 | 3    | 3",
        "502 | 1    | 1",
        "503 | 10   | 10",
        "504 | 2    | 2",
        "503 | null | null",
      })
  void checkWait(int status, String retryAfter, Integer seconds) {
    assertEquals(Optional.ofNullable(seconds), Requests.checkWait(status, retryAfter));
  }

  @Test
  void a429WithRetryAfterIsSentAgainAfterThoseSeconds() {
    FakeTransport transport =
        new FakeTransport()
            .then(429, Map.of("Retry-After", List.of("1")), "")
            .then(500, Map.of("Retry-After", List.of("2")), "")
            .thenJson(200, "{}");
    requests(transport, 10).send(request("GET"), Requests.Target.NONE).close();
    assertEquals(3, transport.requests.size());
    assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), slept);
    assertEquals(3, tokens.get(), "every attempt takes a token");
  }

  @Test
  void aPostIsRetriedOn429AsAGetIs() {
    FakeTransport transport =
        new FakeTransport().then(429, Map.of("Retry-After", List.of("1")), "").thenJson(201, "{}");
    requests(transport, 10).send(request("POST"), Requests.Target.NONE).close();
    assertEquals(2, transport.requests.size());
  }

  @Test
  void tenRetriesThenTheLastAnswersError() {
    FakeTransport transport = new FakeTransport();
    for (int i = 0; i < 11; i++) {
      transport.then(
          429,
          Map.of("Retry-After", List.of("0"), "Content-Type", List.of("application/json")),
          FakeTransport.status(429, "TooManyRequests", "slow down"));
    }
    StatusException refused =
        assertThrows(
            StatusException.class,
            () ->
                requests(transport, Requests.DEFAULT_MAX_RETRIES)
                    .send(request("GET"), Requests.Target.NONE));
    assertEquals(11, transport.requests.size(), "the first attempt and 10 retries");
    assertTrue(ApiErrors.isTooManyRequests(refused));
    assertEquals("slow down", refused.getMessage());
    assertEquals(0, refused.status().getDetails().getRetryAfterSeconds());
  }

  @Test
  void zeroRetriesSendsOnce() {
    FakeTransport transport =
        new FakeTransport().then(503, Map.of("Retry-After", List.of("1")), "unavailable");
    StatusException refused =
        assertThrows(
            StatusException.class,
            () -> requests(transport, 0).send(request("GET"), Requests.Target.NONE));
    assertEquals(1, transport.requests.size());
    assertEquals("ServiceUnavailable", refused.statusReason());
    assertEquals(1, refused.status().getDetails().getRetryAfterSeconds());
  }

  @Test
  void aBrokenGetIsRetriedAfterASecondAndABrokenPostIsNot() {
    FakeTransport gets =
        new FakeTransport()
            .then(
                request -> {
                  throw new IOException("connection reset");
                })
            .thenJson(200, "{}");
    requests(gets, 10).send(request("GET"), Requests.Target.NONE).close();
    assertEquals(2, gets.requests.size());
    assertEquals(List.of(Duration.ofSeconds(1)), slept);

    FakeTransport posts =
        new FakeTransport()
            .then(
                request -> {
                  throw new IOException("connection reset");
                });
    TransportException failed =
        assertThrows(
            TransportException.class,
            () -> requests(posts, 10).send(request("POST"), Requests.Target.NONE));
    assertEquals("POST /api/v1/pods: connection reset", failed.getMessage());
    assertEquals(1, posts.requests.size());
  }

  @Test
  void aFailedHandshakeIsNotRetried() {
    FakeTransport refused =
        new FakeTransport()
            .then(
                request -> {
                  throw new javax.net.ssl.SSLHandshakeException("No name matching");
                });
    assertThrows(
        TransportException.class,
        () -> requests(refused, 10).send(request("GET"), Requests.Target.NONE));
    assertEquals(1, refused.requests.size());
  }

  @Test
  void aRefusedConnectionIsNotRetried() {
    FakeTransport refused =
        new FakeTransport()
            .then(
                request -> {
                  throw new java.net.ConnectException("Connection refused");
                });
    assertThrows(
        TransportException.class,
        () -> requests(refused, 10).send(request("GET"), Requests.Target.NONE));
    assertEquals(1, refused.requests.size());
  }
}
