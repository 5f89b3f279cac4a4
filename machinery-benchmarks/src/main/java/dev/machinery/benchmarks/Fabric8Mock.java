package dev.machinery.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's mock server ({@code machinery-benchmarks-fabric8-mock}'s {@code Fabric8MockServer}) in
 * a JVM of its own, started with the class path that module's build writes: it is built on Vert.x
 * 4.5, these benchmarks on Vert.x 5. Its directory {@code target} is looked for under the working
 * directory, or named by {@code -Dfabric8.mock=DIR}.
 */
final class Fabric8Mock implements AutoCloseable {
  private final Process process;
  private final int port;

  private Fabric8Mock(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The module's {@code target} directory. */
  static Path target() {
    return Path.of(System.getProperty("fabric8.mock", "machinery-benchmarks-fabric8-mock/target"));
  }

  /** Whether the module has been packaged (its class path written). */
  static boolean available() {
    return Files.isRegularFile(target().resolve("classpath.txt"));
  }

  /**
   * Starts the mock server on a free port of 127.0.0.1 and waits until it has created the objects.
   *
   * @param objects a file of lines {@code <path> <JSON>}, or null
   * @param log where its standard error goes
   * @param jvmOptions options of its JVM
   */
  static Fabric8Mock start(Path objects, Path log, String... jvmOptions) throws IOException {
    List<String> command = command(jvmOptions);
    if (objects != null) {
      command.add(objects.toString());
    }
    Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    String line =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    if (line == null || !line.startsWith("port ")) {
      process.destroyForcibly();
      throw new IllegalStateException("the mock server did not start: " + Files.readString(log));
    }
    return new Fabric8Mock(process, Integer.parseInt(line.substring(5).trim()));
  }

  /**
   * The command that starts the mock server on a free port with no objects: it prints {@code port
   * N} once it serves, and serves until its standard input ends.
   *
   * @param jvmOptions options of its JVM
   */
  static List<String> command(String... jvmOptions) throws IOException {
    Path target = target();
    String classPath =
        target.resolve("fabric8-mock.jar")
            + File.pathSeparator
            + Files.readString(target.resolve("classpath.txt")).trim();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmOptions));
    command.addAll(
        List.of("-cp", classPath, "dev.machinery.benchmarks.fabric8mock.Fabric8MockServer", "0"));
    return command;
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  /** Ends the mock server: its standard input closed, then its process ended if it lingers. */
  @Override
  public void close() throws IOException {
    process.getOutputStream().close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
