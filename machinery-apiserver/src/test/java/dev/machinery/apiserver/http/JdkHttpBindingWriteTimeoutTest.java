package dev.machinery.apiserver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client that stops reading a streamed response (a watch) is dropped once a write has been
 * blocked for the binding's write timeout, over HTTP and HTTPS: the connection is closed and the
 * thread that wrote is freed. No time is asserted beyond a generous bound; a client that keeps
 * reading a response longer than the timeout is not dropped.
 */
class JdkHttpBindingWriteTimeoutTest {
  private static final byte[] CHUNK = new byte[64 * 1024];

  private static TlsConfig tls;
  private static SSLContext client;

  @BeforeAll
  static void certificates() throws Exception {
    SelfSignedCertificates.CertKey made =
        SelfSignedCertificates.generate("127.0.0.1", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    tls = new TlsConfig(List.of(made.certificate()), made.privateKey(), List.of());
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    trusted.setCertificateEntry("ca", made.caCertificate());
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    client = SSLContext.getInstance("TLS");
    client.init(null, trust.getTrustManagers(), null);
  }

  @ParameterizedTest(name = "tls={0}")
  @ValueSource(booleans = {false, true})
  void aWatcherThatStopsReadingIsDroppedAndTheWritingThreadFreed(boolean https) throws Exception {
    AtomicLong written = new AtomicLong();
    AtomicReference<Throwable> ended = new AtomicReference<>();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch freed = new CountDownLatch(1);
    ApiHandler handler =
        request ->
            ApiResponse.streaming(
                200,
                "application/json",
                out -> {
                  started.countDown();
                  try {
                    while (true) {
                      out.write(CHUNK);
                      out.flush();
                      written.addAndGet(CHUNK.length);
                    }
                  } catch (IOException | RuntimeException e) {
                    ended.set(e);
                    throw e;
                  } finally {
                    freed.countDown();
                  }
                });
    try (JdkHttpBinding binding =
            JdkHttpBinding.start(
                handler,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                4,
                null,
                https ? tls : null,
                Duration.ofSeconds(1));
        Socket plain = new Socket()) {
      plain.setReceiveBufferSize(4096);
      plain.connect(binding.address());
      Socket socket = plain;
      if (https) {
        SSLSocket secure =
            (SSLSocket)
                client.getSocketFactory().createSocket(plain, "127.0.0.1", binding.port(), true);
        secure.startHandshake();
        socket = secure;
      }
      OutputStream request = socket.getOutputStream();
      request.write(
          "GET /apis/x/v1/things?watch=true HTTP/1.1\r\nHost: localhost\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      request.flush();
      // Never read: the server writes until the socket's buffers are full, then blocks.
      assertTrue(started.await(30, TimeUnit.SECONDS), "the watch never started");
      assertTrue(freed.await(60, TimeUnit.SECONDS), "the writing thread was not freed");
      assertTrue(written.get() > 0, "nothing was written before the client stopped reading");
      assertNotNull(ended.get());
      assertTrue(ended.get() instanceof IOException, ended.get()::toString);

      // What the socket buffered is there to read, then the connection ends.
      socket.setSoTimeout(30_000);
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[64 * 1024];
      boolean closed;
      try {
        while (in.read(buffer) >= 0) {
          // drain
        }
        closed = true;
      } catch (SocketTimeoutException e) {
        closed = false;
      } catch (IOException e) {
        closed = true; // reset
      }
      assertTrue(closed, "the connection was left open");
    }
  }

  @Test
  void aWatcherThatKeepsReadingLongerThanTheTimeoutIsNotDropped() throws Exception {
    ApiHandler handler =
        request ->
            ApiResponse.streaming(
                200,
                "application/json",
                out -> {
                  for (int i = 0; i < 25; i++) {
                    out.write("{\"n\":1}\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    try {
                      Thread.sleep(100);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                      throw new IOException("interrupted", e);
                    }
                  }
                });
    try (JdkHttpBinding binding =
            JdkHttpBinding.start(
                handler,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                4,
                null,
                null,
                Duration.ofSeconds(1));
        Socket socket = new Socket()) {
      socket.connect(binding.address());
      socket.setSoTimeout(30_000);
      socket
          .getOutputStream()
          .write(
              "GET /w HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
      int events = answer.split("\\{\"n\":1}", -1).length - 1;
      assertEquals(25, events, answer);
      assertTrue(answer.endsWith("0\r\n\r\n"), "the response did not end normally: " + answer);
    }
  }
}
