package dev.machinery.apiserver.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.Certificates;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Netty binding with small handlers over raw sockets: keep-alive, bodies read as they arrive,
 * refused bodies read before the answer, the size limits, {@code Expect: 100-continue}, streamed
 * responses and a client that stops reading them, slow clients, the thread limit, the request log
 * and client certificates over TLS.
 */
class NettyBindingTest {
  private NettyBinding binding;

  @AfterEach
  void stop() {
    if (binding != null) {
      binding.close();
    }
  }

  private void serve(ApiHandler handler, NettyOptions options) throws IOException {
    binding =
        NettyBinding.start(
            handler, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), options);
  }

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
              + body.length;
      return ApiResponse.of(200, "text/plain", text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      return ApiResponse.of(500, "text/plain", new byte[0]);
    }
  }

  /**
   * Waits, in a handler, for the test to go on: a bounded wait that ends the response with an error
   * naming what did not happen, rather than holding a server thread for ever.
   */
  private static void awaitOrThrow(CountDownLatch latch, String what) throws IOException {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IOException("waited 60 s for: " + what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for: " + what, e);
    }
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), binding.port());
    socket.setSoTimeout(60_000);
    return socket;
  }

  /** Reads one response with a Content-Length body: the head, then the body. */
  private static String[] readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after " + head);
      }
      head.write(b);
      matched =
          (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
    }
    String text = head.toString(StandardCharsets.US_ASCII);
    int length = 0;
    for (String line : text.split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring("content-length:".length()).strip());
      }
    }
    byte[] body = in.readNBytes(length);
    return new String[] {text, new String(body, StandardCharsets.UTF_8)};
  }

  @Test
  void answersRequestsOneAfterAnotherOnAKeptAliveConnection() throws Exception {
    serve(NettyBindingTest::echo, NettyOptions.defaults());
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET /api/v1/a%20b?x=1&x=2&y=%2Fz HTTP/1.1\r\nHost: x\r\nX-Echo: one\r\n\r\n"
                  + "POST /p HTTP/1.1\r\nHost: x\r\nX-Echo: two\r\nContent-Length: 5\r\n\r\nhello")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String[] first = readResponse(socket.getInputStream());
      assertTrue(first[0].startsWith("HTTP/1.1 200 OK\r\n"), first[0]);
      assertEquals("GET /api/v1/a b {x=[1, 2], y=[/z]} one 0", first[1]);
      String[] second = readResponse(socket.getInputStream());
      assertEquals("POST /p {} two 5", second[1]);
    }
  }

  @Test
  void answersManyRequestsWithBodiesOnKeptAliveConnections() throws Exception {
    serve(NettyBindingTest::echo, NettyOptions.defaults());
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    for (int i = 0; i < 500; i++) {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + "/n"))
                  .timeout(Duration.ofSeconds(30))
                  .POST(HttpRequest.BodyPublishers.ofString("x".repeat(i * 37)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals("POST /n {} null " + i * 37, response.body());
    }
  }

  @Test
  void readsABodyManyTimesItsBufferAsTheHandlerTakesIt() throws Exception {
    serve(NettyBindingTest::echo, NettyOptions.defaults());
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    byte[] body = new byte[20 * RequestBody.HIGH_WATER + 17];
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + "/big"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals("POST /big {} null " + body.length, response.body());
  }

  @Test
  void aRefusedBodyIsReadBeforeItsAnswerAndTheConnectionGoesOn() throws Exception {
    serve(
        request -> ApiResponse.of(413, "text/plain", "too big".getBytes(StandardCharsets.UTF_8)),
        NettyOptions.defaults());
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + "/big"))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[10 * 1024 * 1024]))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(413, response.statusCode());
      assertEquals("too big", response.body());
    }
  }

  @Test
  void aTooLongRequestLineIs414AndTooManyHeaderBytes431WithStatuses() throws Exception {
    serve(NettyBindingTest::echo, NettyOptions.defaults().withLimits(1024, 4096));
    try (Socket socket = connect()) {
      socket
          .getOutputStream()
          .write(
              ("GET /" + "a".repeat(2000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 414 Request-URI Too Long\r\n"), answer);
      assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), answer);
      assertTrue(
          answer.endsWith(
              "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                  + "\"message\":\"the request line is longer than 1024 bytes\",\"code\":414}"),
          answer);
    }
    try (Socket socket = connect()) {
      socket
          .getOutputStream()
          .write(
              ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(5000) + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"), answer);
      assertTrue(
          answer.endsWith(
              "\"message\":\"the request's header fields are longer than 4096 bytes\","
                  + "\"code\":431}"),
          answer);
    }
  }

  @Test
  void aMalformedRequestIs400() throws Exception {
    serve(NettyBindingTest::echo, NettyOptions.defaults());
    try (Socket socket = connect()) {
      socket
          .getOutputStream()
          .write("GET /a b c d\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
      assertTrue(answer.contains("\"reason\":\"BadRequest\",\"code\":400}"), answer);
    }
  }

  @Test
  void expectContinueIsAnsweredBeforeTheBodyIsSent() throws Exception {
    serve(NettyBindingTest::echo, NettyOptions.defaults());
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      out.write(
          "PUT /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      assertEquals("HTTP/1.1 100 Continue", lines.readLine());
      assertEquals("", lines.readLine());
      out.write("abc".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertEquals("HTTP/1.1 200 OK", lines.readLine());
    }
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
                  awaitOrThrow(firstRead, "the client reads the first line");
                  out.write("{\"n\":2}\n".getBytes(StandardCharsets.UTF_8));
                  out.flush();
                }),
        NettyOptions.defaults());
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<InputStream> response =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + "/w")).build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals("chunked", response.headers().firstValue("transfer-encoding").orElse(""));
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      assertEquals("{\"n\":1}", lines.readLine());
      firstRead.countDown();
      assertEquals("{\"n\":2}", lines.readLine());
      assertEquals(null, lines.readLine());
    }
  }

  @Test
  void aClientThatStopsReadingStopsTheWriterWithBoundedMemory() throws Exception {
    AtomicLong written = new AtomicLong();
    AtomicReference<Thread> writer = new AtomicReference<>();
    CountDownLatch ended = new CountDownLatch(1);
    long total = 512L * 1024 * 1024;
    serve(
        request ->
            ApiResponse.streaming(
                200,
                "application/octet-stream",
                out -> {
                  writer.set(Thread.currentThread());
                  byte[] part = new byte[64 * 1024];
                  try {
                    while (written.get() < total) {
                      out.write(part);
                      out.flush();
                      written.addAndGet(part.length);
                    }
                  } finally {
                    ended.countDown();
                  }
                }),
        NettyOptions.defaults());
    try (Socket socket = new Socket()) {
      socket.setReceiveBufferSize(4096);
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), binding.port()));
      socket.getOutputStream().write("GET /w HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      socket.getOutputStream().flush();
      // The writer ends up waiting for the client; by then it has written a bounded amount.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (writer.get() == null || writer.get().getState() != Thread.State.TIMED_WAITING) {
        assertTrue(
            System.nanoTime() < deadline,
            "the writer waits for the client within 60 s; written: " + written.get());
        Thread.sleep(5);
      }
      long before = written.get();
      assertTrue(before < 64L * 1024 * 1024, "written before the writer waited: " + before);
      assertEquals(1, ended.getCount());
    }
    assertTrue(ended.await(60, TimeUnit.SECONDS), "the writer ends once the client is gone");
  }

  @Test
  void aClientThatNeverFinishesItsHeaderFieldsIsDisconnected() throws Exception {
    serve(
        NettyBindingTest::echo,
        NettyOptions.defaults().withTimeouts(Duration.ofMillis(200), Duration.ofSeconds(90)));
    try (Socket socket = connect()) {
      socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes());
      socket.getOutputStream().flush();
      assertEquals(-1, socket.getInputStream().read());
    }
  }

  @Test
  void aClientThatStopsSendingItsBodyIsDisconnected() throws Exception {
    BlockingQueue<String> failures = new LinkedBlockingQueue<>();
    serve(
        request -> {
          try {
            request.body().readAllBytes();
          } catch (IOException e) {
            failures.add(e.getMessage());
          }
          return ApiResponse.of(200, "text/plain", new byte[0]);
        },
        NettyOptions.defaults().withTimeouts(Duration.ofSeconds(60), Duration.ofMillis(300)));
    try (Socket socket = connect()) {
      socket
          .getOutputStream()
          .write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc".getBytes());
      socket.getOutputStream().flush();
      assertEquals(-1, socket.getInputStream().read());
    }
    assertEquals(
        "the connection ended before the request body did", failures.poll(60, TimeUnit.SECONDS));
  }

  @Test
  void requestsBeyondTheThreadLimitAre429() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    serve(
        request -> {
          entered.countDown();
          try {
            awaitOrThrow(release, "the test releases the held request");
          } catch (IOException e) {
            return ApiResponse.of(
                500, "text/plain", e.getMessage().getBytes(StandardCharsets.UTF_8));
          }
          return ApiResponse.of(200, "text/plain", new byte[0]);
        },
        NettyOptions.defaults().withMaxThreads(1));
    try (Socket held = connect();
        Socket refused = connect()) {
      held.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      held.getOutputStream().flush();
      assertTrue(entered.await(60, TimeUnit.SECONDS), "the first request reaches the handler");
      refused.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      refused.getOutputStream().flush();
      String[] answer = readResponse(refused.getInputStream());
      assertTrue(answer[0].startsWith("HTTP/1.1 429 Too Many Requests\r\n"), answer[0]);
      assertTrue(
          answer[0].toLowerCase(java.util.Locale.ROOT).contains("retry-after: 1\r\n"), answer[0]);
      assertEquals(
          "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
              + "\"message\":\"the server is handling 1 requests, its most; try again later\","
              + "\"reason\":\"TooManyRequests\",\"code\":429}",
          answer[1]);
      release.countDown();
      assertTrue(readResponse(held.getInputStream())[0].startsWith("HTTP/1.1 200"));
    }
  }

  @Test
  void theRequestLogHasOneLineARequest() throws Exception {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    serve(NettyBindingTest::echo, NettyOptions.defaults().withRequestLog(lines::add));
    try (Socket socket = connect()) {
      socket
          .getOutputStream()
          .write(
              "GET /a%20b?q=1 HTTP/1.1\r\nHost: x\r\n\r\nHEAD /h HTTP/1.1\r\nHost: x\r\n\r\n"
                  .getBytes());
      String[] first = readResponse(socket.getInputStream());
      String line = lines.poll(60, TimeUnit.SECONDS);
      assertNotNull(line);
      String expected = "GET /a%20b?q=1 200 " + first[1].length() + " bytes ";
      assertTrue(
          line.startsWith(expected) && line.substring(expected.length()).matches("\\d+ ms"), line);
      String head = lines.poll(60, TimeUnit.SECONDS);
      assertNotNull(head);
      assertTrue(head.matches("HEAD /h 200 0 bytes \\d+ ms"), head);
    }
  }

  @Test
  void optionsRefuseLimitsThatAreNotPositive() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> NettyOptions.defaults().withMaxThreads(0));
    assertEquals("maxThreads must be positive, got 0", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> NettyOptions.defaults().withTimeouts(Duration.ZERO, Duration.ofSeconds(1)));
    assertEquals("requestHeaderTimeout must be positive, got PT0S", e.getMessage());
  }

  @Test
  void handsTheClientCertificateToTheHandlerOverTls(@TempDir Path dir) throws Exception {
    Certificates.require("NettyBindingTest");
    Certificates made = new Certificates(dir);
    made.authority("ca", "test-ca");
    Files.writeString(
        dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    made.signed("server", "/CN=127.0.0.1", "ca", "server.ext", "ec");
    made.signed("jane", "/O=dev/CN=jane", "ca", "client.ext", "rsa:2048");
    TlsConfig tls =
        TlsConfig.fromPemFiles(
            dir.resolve("server.crt"), dir.resolve("server.key"), dir.resolve("ca.crt"));
    serve(
        request ->
            ApiResponse.of(
                200,
                "text/plain",
                (request.peerCertificates().isEmpty()
                        ? "none"
                        : request.peerCertificates().get(0).getSubjectX500Principal().getName())
                    .getBytes(StandardCharsets.UTF_8)),
        NettyOptions.defaults().withTls(tls));
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
        TlsConfig.readCertificates(dir.resolve("jane.crt"))
            .toArray(java.security.cert.X509Certificate[]::new));
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, new char[0]);
    for (boolean withCertificate : List.of(true, false)) {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          withCertificate ? keyManagers.getKeyManagers() : null,
          trustManagers.getTrustManagers(),
          new SecureRandom());
      try (SSLSocket socket =
          (SSLSocket)
              context
                  .getSocketFactory()
                  .createSocket(InetAddress.getLoopbackAddress(), binding.port())) {
        socket.setSoTimeout(60_000);
        socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
        socket.getOutputStream().flush();
        String[] answer = readResponse(socket.getInputStream());
        assertEquals(withCertificate ? "CN=jane,O=dev" : "none", answer[1]);
        assertTrue(List.of("TLSv1.3", "TLSv1.2").contains(socket.getSession().getProtocol()));
      }
    }
  }

  /**
   * A handler whose GETs of {@code /later/...} wait without a thread: another thread completes
   * them, the rest on the executors given (records which); {@code /later/fail} fails.
   */
  private static final class Later implements ApiHandler {
    final BlockingQueue<String> threads = new LinkedBlockingQueue<>();
    final java.util.concurrent.ScheduledExecutorService timer =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor();

    @Override
    public ApiResponse handle(ApiRequest request) {
      threads.add("handle " + Thread.currentThread().getName());
      return echo(request);
    }

    @Override
    public java.util.concurrent.CompletionStage<ApiResponse> handleAsync(
        ApiRequest request,
        java.util.concurrent.Executor loop,
        java.util.concurrent.Executor workers) {
      if (!request.path().startsWith("/later/")) {
        return null;
      }
      java.util.concurrent.CompletableFuture<Boolean> waited =
          new java.util.concurrent.CompletableFuture<>();
      timer.schedule(() -> waited.complete(true), 20, TimeUnit.MILLISECONDS);
      return waited.thenCompose(
          done ->
              java.util.concurrent.CompletableFuture.supplyAsync(
                  () -> {
                    threads.add("later " + Thread.currentThread().getName());
                    if (request.path().equals("/later/fail")) {
                      throw new IllegalStateException("failed on purpose");
                    }
                    return echo(request);
                  },
                  request.path().startsWith("/later/loop") ? loop : workers));
    }
  }

  @Test
  void answersThatComeLaterAreWrittenWithoutAThreadWaitingAndAFailureClosesTheConnection()
      throws Exception {
    Later handler = new Later();
    serve(handler, NettyOptions.defaults());
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String base = "http://127.0.0.1:" + binding.port();
    HttpResponse<String> onLoop =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/later/loop")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals("GET /later/loop {} null 0", onLoop.body());
    assertTrue(handler.threads.take().startsWith("later machinery-netty-io"), "on the loop");
    HttpResponse<String> onWorker =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/later/work")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals("GET /later/work {} null 0", onWorker.body());
    assertTrue(handler.threads.take().startsWith("later machinery-apiserver-netty-"));
    HttpResponse<String> now =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/now")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals("GET /now {} null 0", now.body());
    assertTrue(handler.threads.take().startsWith("handle machinery-apiserver-netty-"));
    // Many at once on kept-alive connections, each answered.
    List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> many =
        new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add(
          client.sendAsync(
              HttpRequest.newBuilder(URI.create(base + "/later/loop/" + i)).build(),
              HttpResponse.BodyHandlers.ofString()));
    }
    for (int i = 0; i < 100; i++) {
      assertEquals(
          "GET /later/loop/" + i + " {} null 0", many.get(i).get(30, TimeUnit.SECONDS).body());
    }
    assertThrows(
        IOException.class,
        () ->
            client.send(
                HttpRequest.newBuilder(URI.create(base + "/later/fail")).build(),
                HttpResponse.BodyHandlers.ofString()));
    handler.timer.shutdownNow();
  }

  /** A handler that says it answers GETs without waiting, and records the threads it ran on. */
  private static final class NonWaiting implements ApiHandler {
    final BlockingQueue<String> threads = new LinkedBlockingQueue<>();

    @Override
    public ApiResponse handle(ApiRequest request) {
      threads.add(Thread.currentThread().getName());
      if (request.path().equals("/stream")) {
        return ApiResponse.streaming(
            200,
            "application/json",
            out -> {
              threads.add(Thread.currentThread().getName());
              out.write("{\"n\":1}\n".getBytes(StandardCharsets.UTF_8));
              out.flush();
            });
      }
      return echo(request);
    }

    @Override
    public boolean answersWithoutWaiting(ApiRequest request) {
      return request.method().equals("GET");
    }
  }

  @Test
  void requestsTheHandlerAnswersWithoutWaitingRunOnTheEventLoopAndStreamsStillOnAWorker()
      throws Exception {
    NonWaiting handler = new NonWaiting();
    serve(handler, NettyOptions.defaults());
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<String> get =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + "/one"))
                .header("X-Echo", "e")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals("GET /one {} e 0", get.body());
    assertTrue(handler.threads.take().startsWith("machinery-netty-io"), "on the event loop");
    HttpResponse<String> post =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + "/one"))
                .POST(HttpRequest.BodyPublishers.ofString("abc"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals("POST /one {} null 3", post.body());
    assertTrue(handler.threads.take().startsWith("machinery-apiserver-netty-"), "on a worker");
    HttpResponse<String> stream =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + "/stream"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals("{\"n\":1}\n", stream.body());
    assertTrue(handler.threads.take().startsWith("machinery-netty-io"));
    assertTrue(
        handler.threads.take().startsWith("machinery-apiserver-netty-"),
        "a streamed answer is written from a worker, never the event loop");
    // Many at once on kept-alive connections, answered in order.
    for (int i = 0; i < 200; i++) {
      assertEquals(
          "GET /n/" + i + " {} null 0",
          client
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + binding.port() + "/n/" + i))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body());
    }
  }
}
