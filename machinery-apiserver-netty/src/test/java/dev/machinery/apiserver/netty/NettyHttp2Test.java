package dev.machinery.apiserver.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.Certificates;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 over TLS on the Netty binding, through the JDK's HTTP client (which asks for {@code h2} by
 * ALPN as Go's clients do): requests and bodies, many streams on one connection, streamed
 * responses, client certificates, the thread limit, and HTTP/1.1 when HTTP/2 is switched off.
 */
class NettyHttp2Test {
  @TempDir Path dir;
  private TlsConfig tls;
  private SSLContext clientContext;
  private NettyBinding binding;

  @BeforeEach
  void certificates() throws Exception {
    Certificates.require("NettyHttp2Test");
    Certificates made = new Certificates(dir);
    made.authority("ca", "test-ca");
    Files.writeString(
        dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    made.signed("server", "/CN=127.0.0.1", "ca", "server.ext", "ec");
    made.signed("jane", "/O=dev/CN=jane", "ca", "client.ext", "ec");
    tls =
        TlsConfig.fromPemFiles(
            dir.resolve("server.crt"), dir.resolve("server.key"), dir.resolve("ca.crt"));
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", TlsConfig.readCertificates(dir.resolve("ca.crt")).get(0));
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry(
        "jane",
        TlsConfig.readPrivateKey(dir.resolve("jane.key")),
        new char[0],
        TlsConfig.readCertificates(dir.resolve("jane.crt")).toArray(X509Certificate[]::new));
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, new char[0]);
    clientContext = SSLContext.getInstance("TLS");
    clientContext.init(
        keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), new SecureRandom());
  }

  @AfterEach
  void stop() {
    if (binding != null) {
      binding.close();
    }
  }

  private void serve(ApiHandler handler, NettyOptions options) throws IOException {
    binding =
        NettyBinding.start(
            handler,
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            options.withTls(tls));
  }

  private HttpClient client() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_2)
        .sslContext(clientContext)
        .connectTimeout(Duration.ofSeconds(30))
        .build();
  }

  private URI uri(String pathAndQuery) {
    return URI.create("https://127.0.0.1:" + binding.port() + pathAndQuery);
  }

  /** Answers the method, path, query, a header, the body's length and its SHA-256. */
  private static ApiResponse echo(ApiRequest request) {
    try {
      byte[] body = request.body().readAllBytes();
      String text =
          request.method()
              + " "
              + request.path()
              + " "
              + new java.util.TreeMap<>(request.query())
              + " "
              + request.header("x-echo")
              + " "
              + body.length
              + " "
              + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
      return ApiResponse.of(200, "text/plain", text.getBytes(StandardCharsets.UTF_8))
          .withHeader(
              "x-names", String.join(",", new java.util.TreeSet<>(request.headers().keySet())));
    } catch (IOException | java.security.NoSuchAlgorithmException e) {
      return ApiResponse.of(500, "text/plain", new byte[0]);
    }
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  @Test
  void answersOverHttp2WithTheRequestAsTheHandlerSeesItOverHttp1() throws Exception {
    serve(NettyHttp2Test::echo, NettyOptions.defaults());
    HttpResponse<String> response =
        client()
            .send(
                HttpRequest.newBuilder(uri("/api/v1/namespaces?limit=5&watch=false"))
                    .header("X-Echo", "hello")
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(HttpClient.Version.HTTP_2, response.version());
    assertEquals(200, response.statusCode());
    assertEquals(
        "GET /api/v1/namespaces {limit=[5], watch=[false]} hello 0 " + sha256(new byte[0]),
        response.body());
    String names = response.headers().firstValue("x-names").orElseThrow();
    assertFalse(names.contains("x-http2"), names);
    assertFalse(response.headers().firstValue("connection").isPresent());
    assertFalse(response.headers().firstValue("transfer-encoding").isPresent());
  }

  @Test
  void readsABodyManyTimesTheStreamWindowAsTheHandlerTakesIt() throws Exception {
    serve(NettyHttp2Test::echo, NettyOptions.defaults());
    byte[] body = new byte[5 * 1024 * 1024 + 17];
    new Random(7).nextBytes(body);
    HttpResponse<String> response =
        client()
            .send(
                HttpRequest.newBuilder(uri("/upload"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(HttpClient.Version.HTTP_2, response.version());
    assertEquals("POST /upload {} null " + body.length + " " + sha256(body), response.body());
  }

  @Test
  void manyRequestsAtOnceShareOneConnectionAsStreams() throws Exception {
    AtomicInteger inHandler = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    CountDownLatch together = new CountDownLatch(20);
    serve(
        request -> {
          if (!request.path().startsWith("/r/")) {
            return echo(request);
          }
          mostAtOnce.accumulateAndGet(inHandler.incrementAndGet(), Math::max);
          together.countDown();
          try {
            together.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          inHandler.decrementAndGet();
          return echo(request);
        },
        NettyOptions.defaults());
    HttpClient client = client();
    // One request first, so that the others find the connection it opened.
    assertEquals(
        HttpClient.Version.HTTP_2,
        client
            .send(
                HttpRequest.newBuilder(uri("/first")).build(), HttpResponse.BodyHandlers.ofString())
            .version());
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      answers.add(
          client.sendAsync(
              HttpRequest.newBuilder(uri("/r/" + i)).build(),
              HttpResponse.BodyHandlers.ofString()));
    }
    for (int i = 0; i < 20; i++) {
      HttpResponse<String> response = answers.get(i).get(60, TimeUnit.SECONDS);
      assertEquals(HttpClient.Version.HTTP_2, response.version());
      assertTrue(response.body().startsWith("GET /r/" + i + " "), response.body());
    }
    assertEquals(20, mostAtOnce.get(), "every stream was in the handler at the same time");
  }

  @Test
  void aStreamedBodyReachesTheClientPartByPart() throws Exception {
    CountDownLatch firstRead = new CountDownLatch(1);
    serve(
        request ->
            ApiResponse.streaming(
                200,
                "application/json",
                out -> {
                  out.write("{\"n\":1}\n".getBytes(StandardCharsets.UTF_8));
                  out.flush();
                  try {
                    if (!firstRead.await(60, TimeUnit.SECONDS)) {
                      throw new IOException("waited 60 s for the client to read the first line");
                    }
                  } catch (InterruptedException e) {
                    throw new IOException(e);
                  }
                  out.write("{\"n\":2}\n".getBytes(StandardCharsets.UTF_8));
                  out.flush();
                }),
        NettyOptions.defaults());
    HttpResponse<InputStream> response =
        client()
            .send(
                HttpRequest.newBuilder(uri("/watch")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(HttpClient.Version.HTTP_2, response.version());
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      assertEquals("{\"n\":1}", lines.readLine());
      firstRead.countDown();
      assertEquals("{\"n\":2}", lines.readLine());
      assertNull(lines.readLine());
    }
  }

  @Test
  void aStreamWhoseClientStopsReadingIsClosedAfterTheIdleTimeoutAndTheConnectionServesOn()
      throws Exception {
    CountDownLatch ended = new CountDownLatch(1);
    AtomicInteger written = new AtomicInteger();
    serve(
        request -> {
          if (!request.path().equals("/watch")) {
            return ApiResponse.of(200, "text/plain", new byte[0]);
          }
          return ApiResponse.streaming(
              200,
              "application/json",
              out -> {
                byte[] event =
                    ("{\"type\":\"ADDED\",\"pad\":\"" + "x".repeat(1000) + "\"}\n")
                        .getBytes(StandardCharsets.UTF_8);
                try {
                  while (written.get() < 1_000_000) {
                    out.write(event);
                    out.flush();
                    written.incrementAndGet();
                  }
                } finally {
                  ended.countDown();
                }
              });
        },
        NettyOptions.defaults().withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(2)));
    HttpClient client = client();
    HttpResponse<InputStream> response =
        client.send(
            HttpRequest.newBuilder(uri("/watch")).build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(HttpClient.Version.HTTP_2, response.version());
    assertEquals(10_000, response.body().readNBytes(10_000).length);
    // Read nothing more: the stream's flow-control window fills and the writer waits.
    assertTrue(ended.await(60, TimeUnit.SECONDS), "the writer gave up on the stalled stream");
    // The JDK's client grants a stream 16 MiB; the writer stops there (events are ~1 KiB).
    assertTrue(
        written.get() < 24_000,
        "the writer stopped at the client's window, not after writing everything: "
            + written.get());
    // The connection the stalled stream was on serves other streams.
    assertEquals(
        200,
        client
            .send(HttpRequest.newBuilder(uri("/")).build(), HttpResponse.BodyHandlers.discarding())
            .statusCode());
  }

  @Test
  void handsTheClientCertificateToTheHandlerOfEachStream() throws Exception {
    serve(
        request ->
            ApiResponse.of(
                200,
                "text/plain",
                (request.peerCertificates().isEmpty()
                        ? "none"
                        : request.peerCertificates().get(0).getSubjectX500Principal().getName())
                    .getBytes(StandardCharsets.UTF_8)),
        NettyOptions.defaults());
    HttpResponse<String> response =
        client()
            .send(HttpRequest.newBuilder(uri("/")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(HttpClient.Version.HTTP_2, response.version());
    assertEquals("CN=jane,O=dev", response.body());
  }

  @Test
  void streamsBeyondTheThreadLimitAre429() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(2);
    serve(
        request -> {
          entered.countDown();
          try {
            release.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return ApiResponse.of(200, "text/plain", new byte[0]);
        },
        NettyOptions.defaults().withMaxThreads(2));
    HttpClient client = client();
    List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      held.add(
          client.sendAsync(
              HttpRequest.newBuilder(uri("/held")).build(), HttpResponse.BodyHandlers.ofString()));
    }
    assertTrue(entered.await(60, TimeUnit.SECONDS));
    HttpResponse<String> refused =
        client.send(
            HttpRequest.newBuilder(uri("/more")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(HttpClient.Version.HTTP_2, refused.version());
    assertEquals(429, refused.statusCode());
    assertEquals("1", refused.headers().firstValue("retry-after").orElse(""));
    assertTrue(refused.body().contains("\"reason\":\"TooManyRequests\""), refused.body());
    release.countDown();
    for (CompletableFuture<HttpResponse<String>> answer : held) {
      assertEquals(200, answer.get(60, TimeUnit.SECONDS).statusCode());
    }
  }

  @Test
  void withoutHttp2ClientsThatAskForItSpeakHttp1() throws Exception {
    serve(NettyHttp2Test::echo, NettyOptions.defaults().withHttp2MaxStreams(0));
    HttpResponse<String> response =
        client()
            .send(HttpRequest.newBuilder(uri("/x")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(HttpClient.Version.HTTP_1_1, response.version());
    assertTrue(response.body().startsWith("GET /x "), response.body());
  }

  @Test
  void theRequestLogHasOneLineAStream() throws Exception {
    List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
    serve(NettyHttp2Test::echo, NettyOptions.defaults().withRequestLog(lines::add));
    HttpClient client = client();
    for (int i = 0; i < 3; i++) {
      client.send(
          HttpRequest.newBuilder(uri("/l/" + i)).build(), HttpResponse.BodyHandlers.ofString());
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (lines.size() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(3, lines.size(), lines.toString());
    for (int i = 0; i < 3; i++) {
      assertTrue(lines.get(i).contains("GET /l/" + i), lines.get(i));
    }
  }

  @Test
  void aNegativeStreamLimitIsRefused() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> NettyOptions.defaults().withHttp2MaxStreams(-1));
    assertEquals("http2MaxStreams must not be negative, got -1", e.getMessage());
    assertEquals(100, NettyOptions.defaults().http2MaxStreams());
  }
}
