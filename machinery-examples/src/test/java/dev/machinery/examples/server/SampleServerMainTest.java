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

/**
 * The sample server's {@code main} in a JVM of its own, on this module's class path: it starts with
 * a logging binding (no SLF4J warning) and {@code --request-log} prints one line a request.
 */
class SampleServerMainTest {
  private static final Pattern SERVING =
      Pattern.compile("Serving on (http://127\\.0\\.0\\.1:\\d+)");

  @Test
  void mainLogsThroughItsBindingAndTheRequestLogIsOneFlag() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                // What "mvn -q" sets in Maven's JVM, where exec:java runs the server.
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-cp",
                System.getProperty("java.class.path"),
                SampleServer.class.getName(),
                "--port",
                "0",
                "--request-log")
            .start();
    try {
      BlockingQueue<String> out = lines(process.getInputStream());
      BlockingQueue<String> err = lines(process.getErrorStream());
      String base = null;
      for (String line = out.poll(60, TimeUnit.SECONDS);
          line != null;
          line = out.poll(60, TimeUnit.SECONDS)) {
        Matcher serving = SERVING.matcher(line);
        if (serving.find()) {
          base = serving.group(1);
          break;
        }
      }
      assertNotNull(base, "the server did not say where it serves");
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

  @Test
  void securePortWithACertDirGeneratesTheCertificateAndSaysWhereTheCaIs(@TempDir Path dir)
      throws Exception {
    Path certDir = dir.resolve("certs");
    List<String> first = startAndReadUntilKubectlHint(certDir);
    assertTrue(first.get(0).matches("Serving on https://127\\.0\\.0\\.1:\\d+"), first.toString());
    String url = first.get(0).substring("Serving on ".length());
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
        first.subList(1, first.size()));
    List<String> second = startAndReadUntilKubectlHint(certDir);
    assertTrue(second.get(1).startsWith("Using self-signed cert ("), second.toString());
  }

  /** Starts main with --secure-port 0 and the cert dir, returns its lines from "Serving on". */
  private static List<String> startAndReadUntilKubectlHint(Path certDir) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-cp",
                System.getProperty("java.class.path"),
                SampleServer.class.getName(),
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
