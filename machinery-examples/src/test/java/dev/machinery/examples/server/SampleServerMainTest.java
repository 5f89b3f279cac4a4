package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sample server's {@code main} in a JVM of its own, on this module's class path: it starts with
 * a logging binding (no SLF4J warning), {@code --request-log} prints one line a request, on either
 * HTTP binding ({@code --http-binding}), and kube-apiserver's audit flags write the audit log to
 * standard output.
 */
class SampleServerMainTest {
  private static final Pattern SERVING =
      Pattern.compile("Serving on (http://127\\.0\\.0\\.1:\\d+)");

  @ParameterizedTest
  @ValueSource(strings = {"jdk", "netty"})
  void mainLogsThroughItsBindingAndTheRequestLogIsOneFlag(String httpBinding) throws Exception {
    Process process =
        sampleServer(
                // What "mvn -q" sets in Maven's JVM, where exec:java runs the server.
                List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=error"),
                "--port",
                "0",
                "--request-log",
                "--http-binding=" + httpBinding)
            .start();
    try {
      BlockingQueue<String> out = lines(process.getInputStream());
      BlockingQueue<String> err = lines(process.getErrorStream());
      String servingLine = awaitServing(out);
      assertTrue(servingLine.endsWith(" with the " + httpBinding + " HTTP binding"), servingLine);
      String base = baseOf(servingLine);
      HttpResponse<String> api =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(base + "/api?x=1"))
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, api.statusCode());
      List<String> logged = new ArrayList<>();
      String request = null;
      for (String line = err.poll(30, TimeUnit.SECONDS);
          line != null;
          line = err.poll(30, TimeUnit.SECONDS)) {
        logged.add(line);
        if (line.contains("GET /api?x=1 ")) {
          request = line;
          break;
        }
      }
      assertNotNull(request, "no request log line in " + logged);
      String expected =
          "INFO dev.machinery.apiserver.requests - GET /api?x=1 200 "
              + api.body().getBytes(StandardCharsets.UTF_8).length
              + " bytes ";
      // The line begins with the time of day, which is not asserted.
      int at = request.indexOf(expected);
      assertTrue(at > 0, request);
      assertTrue(request.substring(at + expected.length()).matches("[0-9]+ ms"), request);
      assertFalse(logged.stream().anyMatch(line -> line.contains("SLF4J")), logged.toString());
    } finally {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  /**
   * A slow-loris client, one that never finishes its request's headers, is disconnected at the read
   * timeout (here 2 s by the JDK server's {@code sun.net.httpserver.maxReqTime}; 32 s, as
   * kube-apiserver's {@code ReadHeaderTimeout}, by default), while a whole request is answered.
   */
  @Test
  void aSlowLorisConnectionIsDroppedAtTheReadTimeout() throws Exception {
    Process process =
        sampleServer(
                List.of(
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                    "-Dsun.net.httpserver.maxReqTime=2"),
                "--port",
                "0",
                "--http-binding=jdk")
            .start();
    try {
      BlockingQueue<String> out = lines(process.getInputStream());
      lines(process.getErrorStream());
      String base = baseOf(awaitServing(out));
      URI uri = URI.create(base);
      try (java.net.Socket slow = new java.net.Socket(uri.getHost(), uri.getPort())) {
        slow.setSoTimeout(30_000);
        slow.getOutputStream()
            .write(
                "GET /api HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        slow.getOutputStream().flush();
        HttpResponse<String> whole =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create(base + "/api"))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertEquals(200, whole.statusCode(), "a whole request is answered meanwhile");
        long start = System.nanoTime();
        int read;
        try {
          read = slow.getInputStream().read();
        } catch (java.net.SocketException reset) {
          read = -1;
        }
        long waited = (System.nanoTime() - start) / 1_000_000;
        assertEquals(-1, read, "the slow connection is closed, not answered");
        assertTrue(
            waited < 25_000, "closed by the read timeout, not the test's: " + waited + " ms");
      }
    } finally {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  /** A command line the server cannot read ends it with status 2, the message naming the flag. */
  @Test
  void anUnreadableCommandLineEndsWithStatusTwoNamingTheFlag() throws Exception {
    Process process =
        sampleServer(List.of(), "--max-requests-inflight=many").redirectErrorStream(true).start();
    try {
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "main did not end");
      assertEquals(2, process.exitValue(), out);
      assertEquals("--max-requests-inflight: expected a number, got \"many\"\n", out);
    } finally {
      process.destroyForcibly();
    }
  }

  /**
   * kube-apiserver's etcd TLS flags through main: the server stores on an etcd that serves TLS only
   * and asks for a client certificate, and answers from it; a key that is not the certificate's
   * ends main with status 1, naming the file.
   */
  @Test
  void mainStoresOnAnEtcdOverTlsWithKubeApiserversThreeFlags(@TempDir Path dir) throws Exception {
    dev.machinery.storage.etcd.testing.EtcdTlsFiles tls =
        dev.machinery.storage.etcd.testing.EtcdTlsFiles.generate(dir);
    try (dev.machinery.storage.etcd.testing.EtcdProcess etcd =
        dev.machinery.storage.etcd.testing.EtcdProcess.startWithTls(tls)) {
      Process wrongKey =
          sampleServer(
                  List.of(),
                  "--port=0",
                  "--etcd-servers=" + etcd.endpoint(),
                  "--etcd-cafile=" + tls.ca(),
                  "--etcd-certfile=" + tls.clientCert(),
                  "--etcd-keyfile=" + tls.serverKey())
              .redirectErrorStream(true)
              .start();
      try {
        String out = new String(wrongKey.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(wrongKey.waitFor(60, TimeUnit.SECONDS), "main did not end");
        assertEquals(1, wrongKey.exitValue(), out);
        assertTrue(
            out.contains(
                "the etcd client key file "
                    + tls.serverKey()
                    + " does not hold the key of the certificate in "
                    + tls.clientCert()),
            out);
      } finally {
        wrongKey.destroyForcibly();
      }
      Process process =
          sampleServer(
                  List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=error"),
                  "--port=0",
                  "--controllers=",
                  "--nodes=0",
                  "--etcd-servers",
                  etcd.endpoint().toString(),
                  "--etcd-cafile",
                  tls.ca().toString(),
                  "--etcd-certfile",
                  tls.clientCert().toString(),
                  "--etcd-keyfile",
                  tls.clientKey().toString())
              .start();
      try {
        BlockingQueue<String> out = lines(process.getInputStream());
        lines(process.getErrorStream());
        String base = baseOf(awaitServing(out));
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> created =
            http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/namespaces/default/configmaps"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
                                + "{\"name\":\"over-tls\"},\"data\":{\"a\":\"b\"}}"))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        // The value is in etcd, under kube-apiserver's key, in the k8s protobuf envelope.
        try (dev.machinery.storage.etcd.EtcdStorage raw =
            dev.machinery.storage.etcd.EtcdStorage.builder(etcd.endpoint())
                .tls(tls.ca(), tls.clientCert(), tls.clientKey())
                .build()) {
          byte[] value = raw.get("configmaps/default/over-tls").orElseThrow().value();
          assertEquals("k8s\0", new String(value, 0, 4, StandardCharsets.ISO_8859_1));
        }
        HttpResponse<String> read =
            http.send(
                HttpRequest.newBuilder(
                        URI.create(base + "/api/v1/namespaces/default/configmaps/over-tls"))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, read.statusCode(), read.body());
        assertTrue(read.body().contains("\"a\":\"b\""), read.body());
      } finally {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    }
  }

  /** kube-apiserver's audit flags through main, with the log on standard output. */
  @Test
  void mainWritesTheAuditLogToStandardOutput(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path policy = dir.resolve("policy.yaml");
    java.nio.file.Files.writeString(
        policy,
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n"
            + "- level: Metadata\n  resources: [{group: '', resources: [configmaps]}]\n");
    Process process =
        sampleServer(
                List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=error"),
                "--port=0",
                "--audit-policy-file",
                policy.toString(),
                "--audit-log-path=-")
            .start();
    try {
      BlockingQueue<String> out = lines(process.getInputStream());
      lines(process.getErrorStream());
      String base = baseOf(awaitServing(out));
      HttpResponse<String> list =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(base + "/api/v1/namespaces/default/configmaps"))
                      .header("Audit-ID", "main-test")
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, list.statusCode());
      assertEquals("main-test", list.headers().firstValue("Audit-ID").orElse(null));
      List<String> stages = new ArrayList<>();
      while (stages.size() < 2) {
        String line = out.poll(30, TimeUnit.SECONDS);
        if (line == null) {
          break;
        }
        if (line.contains("\"auditID\":\"main-test\"")) {
          com.fasterxml.jackson.databind.JsonNode event =
              new com.fasterxml.jackson.databind.ObjectMapper().readTree(line);
          assertEquals("list", event.get("verb").asText());
          assertEquals("configmaps", event.at("/objectRef/resource").asText());
          stages.add(event.get("stage").asText());
        }
      }
      assertEquals(List.of("RequestReceived", "ResponseComplete"), stages);
    } finally {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  @Test
  void securePortWithACertDirGeneratesTheCertificateAndSaysWhereTheCaIs(@TempDir Path dir)
      throws Exception {
    Path certDir = dir.resolve("certs");
    List<String> first = startAndReadUntilKubectlHint(certDir);
    assertTrue(
        first.get(0).matches("Serving on https://127\\.0\\.0\\.1:\\d+ with the netty HTTP binding"),
        first.toString());
    String url = first.get(0).substring("Serving on ".length()).split(" ")[0];
    assertEquals(
        List.of(
            "Generated self-signed cert ("
                + certDir.resolve("apiserver.crt")
                + ", "
                + certDir.resolve("apiserver.key")
                + "); its CA is in "
                + certDir.resolve("apiserver-ca.crt"),
            "In another terminal: kubectl --server "
                + url
                + " --certificate-authority "
                + certDir.resolve("apiserver-ca.crt")
                + " get all"),
        first.subList(1, first.size()).stream()
            .filter(line -> !line.startsWith("Controllers: "))
            .toList());
    assertTrue(
        first.stream()
            .anyMatch(
                line -> line.startsWith("Controllers: ") && line.endsWith("simulated nodes: 3")),
        first.toString());
    List<String> second = startAndReadUntilKubectlHint(certDir);
    assertTrue(second.get(1).startsWith("Using self-signed cert ("), second.toString());
  }

  /** Starts main with --secure-port 0 and the cert dir, returns its lines from "Serving on". */
  private static List<String> startAndReadUntilKubectlHint(Path certDir) throws Exception {
    Process process =
        sampleServer(
                List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=error"),
                "--secure-port",
                "0",
                "--cert-dir",
                certDir.toString())
            .redirectErrorStream(true)
            .start();
    try {
      BlockingQueue<String> out = lines(process.getInputStream());
      List<String> seen = new ArrayList<>();
      boolean serving = false;
      for (String line = out.poll(60, TimeUnit.SECONDS);
          line != null;
          line = out.poll(60, TimeUnit.SECONDS)) {
        serving |= line.startsWith("Serving on ");
        if (serving) {
          seen.add(line);
        }
        if (line.startsWith("In another terminal")) {
          return seen;
        }
      }
      throw new AssertionError("the server did not print its kubectl hint: " + seen);
    } finally {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  /** Reads a stream's lines on a daemon thread into a queue. */
  /** A process running the sample server's {@code main} on this JVM's class path. */
  private static ProcessBuilder sampleServer(List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SampleServer.class.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }

  /** The line in which the server says where it serves, waited for (a minute between lines). */
  private static String awaitServing(BlockingQueue<String> out) throws InterruptedException {
    for (String line = out.poll(60, TimeUnit.SECONDS);
        line != null;
        line = out.poll(60, TimeUnit.SECONDS)) {
      if (SERVING.matcher(line).find()) {
        return line;
      }
    }
    throw new AssertionError("the server did not say where it serves");
  }

  /** The URL of the server a "Serving on" line names. */
  private static String baseOf(String line) {
    Matcher serving = SERVING.matcher(line);
    assertTrue(serving.find(), line);
    return serving.group(1);
  }

  private static BlockingQueue<String> lines(InputStream stream) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  lines.add(line);
                }
              } catch (java.io.IOException e) {
                // The process ended.
              }
            });
    reader.setDaemon(true);
    reader.start();
    return lines;
  }
}
