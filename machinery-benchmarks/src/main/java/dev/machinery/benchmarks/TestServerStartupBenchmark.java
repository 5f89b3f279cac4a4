package dev.machinery.benchmarks;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The JUnit test server's start-up, from a fresh process to its first answered request, beside
 * fabric8's mock server measured the same way in the same run.
 *
 * <p>Each start is a new JVM ({@code java} of the running JDK, no options), spawned by this
 * launcher: the clock starts before the process is spawned and stops when the answer to the first
 * request has been read. The process prints {@code port N} on standard output once it serves; the
 * launcher then sends one HTTP/1.1 request on a fresh connection with a plain socket (so no
 * client's start-up is counted) and reads the whole answer, which must be a 200. The rows, run in
 * turn in every round so that the machine's load falls on all alike:
 *
 * <ul>
 *   <li>{@code jvm}: a JVM on the benchmarks' class path that prints its line and serves nothing
 *       (the floor: starting Java and reading the class path);
 *   <li>{@code emptyServer}: an {@code ApiServer} with no kinds, {@code GET /version};
 *   <li>{@code testServerNoControllers}: {@code TestApiServer} with no controllers and no nodes,
 *       {@code GET /api/v1/namespaces/default/configmaps};
 *   <li>{@code testServer}: {@code TestApiServer.start()} (every built-in kind, CRDs, Kubernetes'
 *       controllers, three simulated nodes, four namespaces), the same request;
 *   <li>{@code testServerAgain}: a test server started, asked, closed, then a second one started in
 *       the same JVM (as for a second test class); the second start's own time is reported too;
 *   <li>{@code fabric8Mock}: fabric8's {@code KubernetesMockServer} in CRUD mode, in a JVM of its
 *       own on {@code machinery-benchmarks-fabric8-mock}'s class path (Vert.x 4.5 cannot share one
 *       with these benchmarks), the same request; left out when that module is not packaged.
 * </ul>
 *
 * <p>Run with {@code java -cp machinery-benchmarks/target/benchmarks.jar
 * dev.machinery.benchmarks.TestServerStartupBenchmark [rounds] [row,...] [-- jvm options]} from the
 * repository's root (default 8 rounds, every row); JVM options after {@code --} are given to every
 * spawned JVM alike (an AppCDS archive, say). With {@code -Dbaseline=JAR} (the benchmarks jar of
 * another build, such as the commit before a change), each server row is also run from that jar in
 * the same rounds, as {@code ROW@baseline}, for a before-and-after under the same load.
 *
 * <p>With {@code -Dappcds=true}, every row (fabric8's mock too) first starts once with {@code
 * -XX:ArchiveClassesAtExit} to write an AppCDS archive of the classes it loaded (the JDK's dynamic
 * archive, JDK 13 and later), then runs its rounds with {@code -XX:SharedArchiveFile} of that
 * archive: what a test JVM given those options (by a surefire {@code argLine}) spends. Not
 * thread-safe; a command-line program.
 */
public final class TestServerStartupBenchmark {
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  private static final List<String> ROWS =
      List.of(
          "jvm",
          "emptyServer",
          "testServerNoControllers",
          "testServer",
          "testServerAgain",
          "fabric8Mock");

  private TestServerStartupBenchmark() {}

  /**
   * Runs the rounds and prints each row's times, or (with {@code serve ROW}) is one of the spawned
   * servers.
   *
   * @param args {@code [rounds] [rows] [-- jvm options]}, or {@code serve ROW}
   * @throws Exception when a start fails
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("serve")) {
      serve(args[1]);
      return;
    }
    int split = Arrays.asList(args).indexOf("--");
    List<String> own = Arrays.asList(args).subList(0, split < 0 ? args.length : split);
    List<String> jvmOptions =
        split < 0 ? List.of() : Arrays.asList(args).subList(split + 1, args.length);
    int rounds = own.isEmpty() ? 8 : Integer.parseInt(own.get(0));
    List<String> rows = own.size() > 1 ? Arrays.asList(own.get(1).split(",")) : ROWS;
    for (String row : rows) {
      if (!ROWS.contains(row)) {
        throw new IllegalArgumentException("unknown row \"" + row + "\"; rows: " + ROWS);
      }
    }
    if (rows.contains("fabric8Mock") && !Fabric8Mock.available()) {
      System.out.println(
          "fabric8Mock left out: package machinery-benchmarks-fabric8-mock first (no "
              + Fabric8Mock.target().resolve("classpath.txt")
              + ")");
      rows = rows.stream().filter(r -> !r.equals("fabric8Mock")).toList();
    }
    String baseline = System.getProperty("baseline");
    if (baseline != null) {
      List<String> withBaseline = new ArrayList<>();
      for (String row : rows) {
        withBaseline.add(row);
        if (!row.equals("jvm") && !row.equals("fabric8Mock")) {
          withBaseline.add(row + "@baseline");
        }
      }
      rows = withBaseline;
    }
    Path log = Files.createTempFile("startup-benchmark-", ".log");
    Map<String, List<String>> options = new LinkedHashMap<>();
    Path archives = null;
    if (Boolean.getBoolean("appcds")) {
      archives = Files.createTempDirectory("startup-benchmark-appcds-");
      for (String row : rows) {
        // A row's archive is written by one start of its own, then read by each of its rounds.
        Path archive = archives.resolve(row.replace('@', '-') + ".jsa");
        List<String> training = new ArrayList<>(jvmOptions);
        training.add("-XX:ArchiveClassesAtExit=" + archive);
        start(row, training, log);
        if (!Files.isRegularFile(archive)) {
          throw new IllegalStateException(
              row + " wrote no AppCDS archive:\n" + Files.readString(log));
        }
        List<String> withArchive = new ArrayList<>(jvmOptions);
        withArchive.add("-XX:SharedArchiveFile=" + archive);
        options.put(row, withArchive);
      }
    }
    Map<String, List<Long>> times = new LinkedHashMap<>();
    Map<String, List<Long>> second = new LinkedHashMap<>();
    for (int round = 0; round < rounds; round++) {
      for (String row : rows) {
        Start start = start(row, options.getOrDefault(row, jvmOptions), log);
        times.computeIfAbsent(row, r -> new ArrayList<>()).add(start.nanos());
        if (start.secondNanos() >= 0) {
          second.computeIfAbsent(row, r -> new ArrayList<>()).add(start.secondNanos());
        }
      }
    }
    Files.deleteIfExists(log);
    if (archives != null) {
      try (var written = Files.list(archives)) {
        for (Path archive : written.toList()) {
          Files.delete(archive);
        }
      }
      Files.delete(archives);
    }
    System.out.println(
        "rounds: "
            + rounds
            + ", JVM options: "
            + (jvmOptions.isEmpty() ? "none" : String.join(" ", jvmOptions))
            + (archives != null ? ", each row with an AppCDS archive of its own" : ""));
    System.out.println("| row | median ms | min–max ms | ÷ emptyServer | ÷ fabric8Mock |");
    System.out.println("| --- | ---: | ---: | ---: | ---: |");
    double empty = times.containsKey("emptyServer") ? median(times.get("emptyServer")) : 0;
    double mock = times.containsKey("fabric8Mock") ? median(times.get("fabric8Mock")) : 0;
    for (Map.Entry<String, List<Long>> row : times.entrySet()) {
      double median = median(row.getValue());
      System.out.println(
          "| "
              + row.getKey()
              + " | "
              + ms(median)
              + " | "
              + ms(row.getValue().stream().mapToLong(Long::longValue).min().orElseThrow())
              + "–"
              + ms(row.getValue().stream().mapToLong(Long::longValue).max().orElseThrow())
              + " | "
              + ratio(median, empty)
              + " | "
              + ratio(median, mock)
              + " |");
    }
    for (Map.Entry<String, List<Long>> row : second.entrySet()) {
      System.out.println(
          row.getKey() + ": the second start alone, median " + ms(median(row.getValue())) + " ms");
    }
  }

  /** One start: from spawning the process to the first answer read. */
  private record Start(long nanos, long secondNanos) {}

  private static Start start(String name, List<String> jvmOptions, Path log)
      throws IOException, InterruptedException {
    boolean fromBaseline = name.endsWith("@baseline");
    String row = fromBaseline ? name.substring(0, name.length() - "@baseline".length()) : name;
    List<String> command;
    if (row.equals("fabric8Mock")) {
      command = Fabric8Mock.command(jvmOptions.toArray(String[]::new));
    } else {
      command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmOptions);
      command.addAll(
          List.of(
              "-cp",
              fromBaseline ? System.getProperty("baseline") : System.getProperty("java.class.path"),
              TestServerStartupBenchmark.class.getName(),
              "serve",
              row));
    }
    long start = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      if (line == null || !line.startsWith("port ")) {
        throw new IllegalStateException(
            name + " did not start: " + line + "\n" + Files.readString(log));
      }
      String[] words = line.split(" ");
      int port = Integer.parseInt(words[1]);
      if (!row.equals("jvm")) {
        get(port, row.equals("emptyServer") ? "/version" : CONFIGMAPS);
      }
      long elapsed = System.nanoTime() - start;
      long secondNanos = words.length > 3 ? Long.parseLong(words[3]) : -1;
      return new Start(elapsed, secondNanos);
    } finally {
      process.getOutputStream().close();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  /**
   * One spawned server: starts the row's server, prints {@code port N} (and for {@code
   * testServerAgain} {@code second NANOS}, the second start's own time), serves until standard
   * input ends, then stops it.
   */
  private static void serve(String row) throws IOException {
    AutoCloseable server = null;
    String line;
    switch (row) {
      case "jvm" -> line = "port 0";
      case "emptyServer" -> {
        ApiServer api = ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build()).build();
        JdkHttpBinding binding =
            api.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        server =
            () -> {
              binding.close();
              api.close();
            };
        line = "port " + binding.port();
      }
      case "testServerNoControllers" -> {
        TestApiServer test = TestApiServer.builder().controllers(List.of()).nodes(0).start();
        server = test;
        line = "port " + test.url().getPort();
      }
      case "testServer" -> {
        TestApiServer test = TestApiServer.start();
        server = test;
        line = "port " + test.url().getPort();
      }
      case "testServerAgain" -> {
        try (TestApiServer first = TestApiServer.start()) {
          get(first.url().getPort(), CONFIGMAPS);
        }
        long start = System.nanoTime();
        TestApiServer test = TestApiServer.start();
        get(test.url().getPort(), CONFIGMAPS);
        long nanos = System.nanoTime() - start;
        server = test;
        line = "port " + test.url().getPort() + " second " + nanos;
      }
      default -> throw new IllegalArgumentException("unknown row \"" + row + "\"");
    }
    System.out.println(line);
    System.out.flush();
    try {
      while (System.in.read() >= 0) {
        // Serves until the launcher closes standard input.
      }
    } finally {
      if (server != null) {
        try {
          server.close();
        } catch (Exception e) {
          System.err.println(row + " did not stop cleanly: " + e);
        }
      }
    }
    System.exit(0);
  }

  /** One HTTP/1.1 request on a fresh connection; fails unless answered 200. */
  private static void get(int port, String path) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      String status = text.substring(0, Math.max(0, text.indexOf('\r')));
      if (!status.contains(" 200 ")) {
        throw new IOException("GET " + path + " was answered " + status);
      }
    }
  }

  private static double median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
  }

  private static String ms(double nanos) {
    return String.format(Locale.ROOT, "%.0f", nanos / 1e6);
  }

  private static String ratio(double value, double base) {
    return base <= 0 ? "–" : String.format(Locale.ROOT, "%.2f", value / base);
  }
}
