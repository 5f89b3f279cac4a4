package dev.machinery.apiserver.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real kubectl builds on this machine: the {@code kubectl} on the PATH (a dispatcher that runs
 * the build matching the server's minor version) and the versioned builds {@code kubectl.1.27} …
 * {@code kubectl.1.33} beside its real target. Runs one against a server with its own cache
 * directory.
 */
public final class Kubectl {
  public final String name;
  public final Path binary;
  public final Path cache;
  public final String server;

  private Kubectl(String name, Path binary, Path cache, String server) {
    this.name = name;
    this.binary = binary;
    this.cache = cache;
    this.server = server;
  }

  /** Every kubectl found, by name: the versioned builds, then the dispatcher. */
  public static Map<String, Path> installed() throws IOException {
    Map<String, Path> found = new LinkedHashMap<>();
    String path = System.getenv("PATH");
    if (path == null) {
      return found;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path kubectl = Path.of(dir, "kubectl");
      if (Files.isExecutable(kubectl)) {
        Path real = kubectl.toRealPath();
        for (int minor = 27; minor <= 33; minor++) {
          Path versioned = real.resolveSibling("kubectl.1." + minor);
          if (Files.isExecutable(versioned)) {
            found.put("kubectl.1." + minor, versioned);
          }
        }
        found.put("kubectl", kubectl);
        return found;
      }
    }
    return found;
  }

  /**
   * The kubectl builds on the machine; when there is none, the calling test fails, saying what to
   * install (the suite is named in the message).
   */
  public static Map<String, Path> requireInstalled(String suite) throws IOException {
    Map<String, Path> installed = installed();
    RequiredTools.require(!installed.isEmpty(), RequiredTools.KUBECTL, suite);
    return installed;
  }

  public static Kubectl of(String name, Path binary, int port) throws IOException {
    return new Kubectl(
        name, binary, Files.createTempDirectory("kubectl-cache"), "http://127.0.0.1:" + port);
  }

  public static Kubectl of(String name, Path binary, String serverUrl) throws IOException {
    return new Kubectl(name, binary, Files.createTempDirectory("kubectl-cache"), serverUrl);
  }

  /** The outcome of one run. */
  public record Result(int exitCode, String out, String err) {
    public String all() {
      return out + err;
    }
  }

  public Result run(Map<String, String> env, String stdin, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.add("--server=" + server);
    command.add("--cache-dir=" + cache);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("KUBECONFIG", cache.resolve("no-kubeconfig").toString());
    builder.environment().putAll(env);
    Path out = Files.createTempFile("kubectl", ".out");
    Path err = Files.createTempFile("kubectl", ".err");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    if (stdin != null) {
      process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    process.getOutputStream().close();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return new Result(
          -1, Files.readString(out), "timed out after 60 s\n" + Files.readString(err));
    }
    Result result = new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    Files.delete(out);
    Files.delete(err);
    return result;
  }

  /**
   * Runs with a kubeconfig file in one of its contexts; the result's output starts with the build,
   * server and arguments, so a failure says which run it was.
   */
  public Result runIn(Path kubeconfig, String context, String... args)
      throws IOException, InterruptedException {
    List<String> all = new ArrayList<>();
    all.add("--context=" + context);
    all.addAll(List.of(args));
    Result result =
        run(Map.of("KUBECONFIG", kubeconfig.toString()), null, all.toArray(String[]::new));
    return new Result(
        result.exitCode(),
        "[" + name + " " + server + " " + String.join(" ", all) + "]\n" + result.out(),
        result.err());
  }

  public Result run(String... args) throws IOException, InterruptedException {
    return run(Map.of(), null, args);
  }

  public Process start(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.add("--server=" + server);
    command.add("--cache-dir=" + cache);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("KUBECONFIG", cache.resolve("no-kubeconfig").toString());
    return builder.start();
  }
}
