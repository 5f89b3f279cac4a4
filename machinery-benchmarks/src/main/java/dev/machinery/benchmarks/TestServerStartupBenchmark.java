package dev.machinery.benchmarks;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JUnit test server's start-up in a fresh JVM: one start per fork, class loading included,
 * until the first request over HTTP is answered (read with a plain socket, so that no client's own
 * start-up is counted). The baseline is an API server with no kinds at all, answering {@code
 * /version} the same way; {@code testServerAgain} is a second start in a JVM that has started one.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(10)
public class TestServerStartupBenchmark {
  /** Creates the benchmark state. */
  public TestServerStartupBenchmark() {}

  /**
   * An API server with no kinds, started and answering {@code GET /version}.
   *
   * @return the status line
   * @throws IOException when the request fails
   */
  @Benchmark
  public String emptyServer() throws IOException {
    ApiServer server = ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build()).build();
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      return get(binding.port(), "/version");
    }
  }

  /**
   * The test server (every built-in kind, CustomResourceDefinitions, its four namespaces), started
   * and answering {@code GET /api/v1/namespaces/default}.
   *
   * @return the status line
   * @throws IOException when the request fails
   */
  @Benchmark
  public String testServer() throws IOException {
    try (TestApiServer server = TestApiServer.start()) {
      return get(server.url().getPort(), "/api/v1/namespaces/default");
    }
  }

  /**
   * A second test server in a JVM that has started and stopped one, as for a second test class.
   *
   * @return the status line
   * @throws IOException when the request fails
   */
  @Benchmark
  public String testServerAgain() throws IOException {
    try (TestApiServer first = TestApiServer.start()) {
      get(first.url().getPort(), "/api/v1/namespaces/default");
    }
    long start = System.nanoTime();
    try (TestApiServer server = TestApiServer.start()) {
      String status = get(server.url().getPort(), "/api/v1/namespaces/default");
      return status + " in " + (System.nanoTime() - start) / 1_000_000 + " ms";
    }
  }

  /** One HTTP/1.1 request on a fresh connection; returns the status line. */
  private static String get(int port, String path) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] answer = in.readAllBytes();
      String text = new String(answer, StandardCharsets.UTF_8);
      String status = text.substring(0, Math.max(0, text.indexOf('\r')));
      if (!status.contains(" 200 ")) {
        throw new IOException("the server answered " + status);
      }
      return status;
    }
  }
}
