package dev.machinery.benchmarks.fabric8mock;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts fabric8's {@code KubernetesMockServer} 7.4.0 in CRUD mode (the {@code
 * KubernetesCrudDispatcher}, as {@code @EnableKubernetesMockClient(crud = true)} sets it up) on
 * 127.0.0.1, creates the objects it is given through its own HTTP API, prints {@code port N} on one
 * line, and serves until its standard input ends.
 *
 * <p>Run by {@code HttpLoad} and {@code WatchFanOutLoad} in a JVM of its own, with this module's
 * class path: the mock server is built on Vert.x 4.5, the benchmarks on Vert.x 5 (jetcd). By hand:
 * {@code java -cp machinery-benchmarks-fabric8-mock/target/fabric8-mock.jar:$(cat
 * machinery-benchmarks-fabric8-mock/target/classpath.txt)
 * dev.machinery.benchmarks.fabric8mock.Fabric8MockServer [port] [objects]}, port 0 (the default)
 * for a free one; {@code objects} is a file of lines {@code <path> <JSON>}, each POSTed to the path
 * in order. The mock server's log of every request is turned down to warnings (the servers it is
 * measured beside log no requests).
 */
public final class Fabric8MockServer {
  /**
   * The mock server's own log, which writes a line for every request at {@code INFO}; held here so
   * that its level stays set.
   */
  private static final Logger LOG = Logger.getLogger("io.fabric8.mockwebserver");

  private Fabric8MockServer() {}

  /**
   * Starts the mock server, creates the objects, prints the port and serves until standard input
   * ends.
   *
   * @param args the port (0 for a free one) and the file of objects to create
   * @throws Exception when the server cannot start or an object is refused
   */
  public static void main(String[] args) throws Exception {
    KubernetesMockServer server =
        start(
            args.length > 0 ? Integer.parseInt(args[0]) : 0,
            args.length > 1 ? Path.of(args[1]) : null);
    try {
      System.out.println("port " + server.getPort());
      System.out.flush();
      while (System.in.read() >= 0) {
        // Serves until the parent closes standard input or ends this process.
      }
    } finally {
      server.destroy();
    }
    // The mock server leaves threads of its own running after it stops.
    System.exit(0);
  }

  /**
   * Starts the mock server on 127.0.0.1 in CRUD mode and creates the objects.
   *
   * @param port the port, 0 for a free one
   * @param objects a file of lines {@code <path> <JSON>}, each POSTed in order, or null
   * @return the running server ({@code getPort()}, {@code destroy()})
   * @throws IOException when an object cannot be sent
   * @throws InterruptedException when interrupted while creating the objects
   */
  static KubernetesMockServer start(int port, Path objects)
      throws IOException, InterruptedException {
    // No line a request: the servers it is measured beside log none either.
    LOG.setLevel(Level.WARNING);
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(List.of()),
            false);
    server.init(InetAddress.getLoopbackAddress(), port);
    if (objects != null) {
      try {
        create(server.getPort(), objects);
      } catch (IOException | InterruptedException | RuntimeException e) {
        server.destroy();
        throw e;
      }
    }
    return server;
  }

  private static void create(int port, Path objects) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    for (String line : Files.readAllLines(objects, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      int space = line.indexOf(' ');
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + line.substring(0, space)))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(line.substring(space + 1)))
              .build();
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() >= 300) {
        throw new IllegalStateException(
            "POST "
                + line.substring(0, space)
                + ": "
                + response.statusCode()
                + " "
                + response.body());
      }
    }
  }
}
