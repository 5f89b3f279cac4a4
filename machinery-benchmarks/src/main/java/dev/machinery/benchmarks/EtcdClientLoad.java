package dev.machinery.benchmarks;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A load program for the etcd client choice: {@code EtcdStorage} (etcd's JSON gateway on HTTP/1.1
 * connections of its own), {@code EtcdStorage} with its unary calls over etcd's gRPC API ({@code
 * grpc(true)}), and the same operations written with jetcd ({@link JetcdStorage}), on one real etcd
 * in one run. Measured, for each client in turn within every round: a get of one key; a create (a
 * transaction on {@code create_revision == 0} with a put); a guarded update (a transaction on
 * {@code mod_revision} with a put and {@code prev_kv}); a range read of a page of 100 keys of 1 KB
 * under a prefix of 1,000; the latency from the start of a guarded update to its event's arrival on
 * a watch of the prefix; the reading of a watch that replays the 1,000 keys' creation (µs, and the
 * client's CPU, per event); and the throughput of two threads doing guarded updates at once. Then,
 * each client alone in a fresh JVM: the time to its first answer, the classes it loads, the threads
 * it starts (idle, and with 10 watches open) and the heap it keeps.
 *
 * <p>Run with {@code java -cp machinery-benchmarks/target/benchmarks.jar
 * dev.machinery.benchmarks.EtcdClientLoad [seconds per measurement] [rounds]} (defaults 2 and 5,
 * after one warm-up round); it needs an {@code etcd} binary as the etcd storage's tests do. {@code
 * -Detcdload.cases=get,watch-replay} runs only the cases named; {@code
 * -Detcdload.skipFootprint=true} leaves out the fresh JVMs.
 */
public final class EtcdClientLoad {
  private static final int KEYS = 1_000;
  private static final int PAGE = 100;
  private static final int VALUE_BYTES = 1_024;
  private static final int WATCHES = 10;

  private EtcdClientLoad() {}

  /**
   * Runs the measurements and prints the tables.
   *
   * @param args seconds per measurement (default 2) and rounds (default 5); or {@code --footprint
   *     gateway|grpc|jetcd endpoint}, the child JVM's mode
   * @throws Exception when etcd cannot be started or a call fails
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("--footprint")) {
      footprint(args[1], URI.create(args[2]));
      return;
    }
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    try (EtcdProcess etcd = EtcdProcess.start()) {
      System.out.println("etcd at " + etcd.endpoint());
      long etcdPid =
          ProcessHandle.current()
              .children()
              .filter(p -> p.info().command().orElse("").endsWith("etcd"))
              .findFirst()
              .orElseThrow()
              .pid();
      Map<String, Storage> clients = new LinkedHashMap<>();
      clients.put("gateway", EtcdStorage.builder(etcd.endpoint()).prefix("/gateway/").build());
      clients.put("grpc", EtcdStorage.builder(etcd.endpoint()).grpc(true).prefix("/grpc/").build());
      clients.put("jetcd", new JetcdStorage(etcd.endpoint(), "/jetcd/"));
      Map<String, Fixture> fixtures = new LinkedHashMap<>();
      for (Map.Entry<String, Storage> client : clients.entrySet()) {
        fixtures.put(client.getKey(), Fixture.seed(client.getValue()));
      }
      List<String> all =
          List.of(
              "get",
              "create",
              "update",
              "list-100",
              "watch-latency",
              "watch-replay",
              "update-2-threads",
              "get HTTP only",
              "list-100 HTTP only");
      String only = System.getProperty("etcdload.cases", "");
      List<String> cases =
          only.isEmpty() ? all : all.stream().filter(List.of(only.split(","))::contains).toList();
      RawGateway raw = new RawGateway(etcd.endpoint());
      Map<String, Map<String, List<Double>>> results = new LinkedHashMap<>();
      for (int round = 0; round <= rounds; round++) {
        boolean warmup = round == 0;
        System.out.println(warmup ? "warm-up" : "round " + round);
        for (String name : cases) {
          // Rotate which client goes first, so that drift of the machine falls on all.
          List<String> order = new ArrayList<>(clients.keySet());
          Collections.rotate(order, round);
          for (String client : order) {
            if (name.endsWith(" HTTP only") && !client.equals("gateway")) {
              continue;
            }
            Fixture fixture = fixtures.get(client);
            long jvm0 = jvmCpuNanos();
            long etcd0 = etcdCpuNanos(etcdPid);
            int time = warmup ? Math.max(seconds, 3) : seconds;
            double[] result =
                name.endsWith(" HTTP only")
                    ? raw.measure(name, time)
                    : measure(name, fixture, time);
            double jvmCpu = (jvmCpuNanos() - jvm0) / 1e3 / result[1];
            double etcdCpu = (etcdCpuNanos(etcdPid) - etcd0) / 1e3 / result[1];
            System.out.printf(
                Locale.ROOT,
                "  %-18s %-8s %10.1f   cpu µs/op: JVM %7.1f, etcd %7.1f%n",
                name,
                client,
                result[0],
                jvmCpu,
                etcdCpu);
            if (!warmup) {
              record(results, name, client, result[0]);
              record(results, name + " jvm-cpu", client, jvmCpu);
              record(results, name + " etcd-cpu", client, etcdCpu);
            }
          }
        }
      }
      for (Fixture fixture : fixtures.values()) {
        fixture.close();
      }
      for (Storage client : clients.values()) {
        client.close();
      }
      System.out.println();
      System.out.printf(
          Locale.ROOT,
          "%-27s %-6s %22s %22s %22s %9s %9s%n",
          "case",
          "unit",
          "gateway median (range)",
          "grpc median (range)",
          "jetcd median (range)",
          "grpc÷gw",
          "jetcd÷gw");
      for (String name : results.keySet()) {
        List<Double> gateway = results.get(name).get("gateway");
        List<Double> grpc = results.get(name).get("grpc");
        List<Double> jetcd = results.get(name).get("jetcd");
        System.out.printf(
            Locale.ROOT,
            "%-27s %-6s %22s %22s %22s %9s %9s%n",
            name,
            name.equals("update-2-threads") ? "op/s" : "µs/op",
            summary(gateway),
            grpc == null ? "-" : summary(grpc),
            jetcd == null ? "-" : summary(jetcd),
            grpc == null ? "-" : String.format(Locale.ROOT, "%.2f", median(grpc) / median(gateway)),
            jetcd == null
                ? "-"
                : String.format(Locale.ROOT, "%.2f", median(jetcd) / median(gateway)));
      }
      System.out.println();
      if (Boolean.getBoolean("etcdload.skipFootprint")) {
        return;
      }
      System.out.println("each client alone in a fresh JVM:");
      for (String client : clients.keySet()) {
        System.out.println("  " + client + ": " + child(client, etcd.endpoint()));
      }
    }
  }

  /**
   * One client's keys: 1,000 under {@code pods/default/} to read pages of, {@code updated/1} and
   * {@code updated/2} to update (revisions 1 and 2), {@code watched/key} under a watch (revision
   * 0).
   */
  private static final class Fixture implements AutoCloseable {
    final Storage storage;
    final byte[] value;
    final AtomicLong names = new AtomicLong();
    final long[] revisions = new long[3];
    final StorageWatch watch;
    final LinkedBlockingQueue<long[]> arrivals = new LinkedBlockingQueue<>();
    final Thread consumer;

    /** The revision before the first of the 1,000 keys was created. */
    final long beforeKeys;

    private Fixture(Storage storage, byte[] value, long beforeKeys) {
      this.storage = storage;
      this.value = value;
      this.beforeKeys = beforeKeys;
      for (int i = 1; i < revisions.length; i++) {
        revisions[i] = storage.create("updated/" + i, value).modRevision();
      }
      this.watch = storage.watch("watched/", 0);
      revisions[0] = storage.create("watched/key", value).modRevision();
      this.consumer =
          new Thread(
              () -> {
                try {
                  while (!Thread.currentThread().isInterrupted()) {
                    StorageEvent event = watch.poll(1, TimeUnit.SECONDS);
                    if (event != null) {
                      arrivals.add(new long[] {System.nanoTime(), event.revision()});
                    } else if (watch.isDone()) {
                      return;
                    }
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "watch consumer");
      consumer.setDaemon(true);
      consumer.start();
    }

    static Fixture seed(Storage storage) {
      byte[] value = new byte[VALUE_BYTES];
      Random random = new Random(42);
      for (int i = 0; i < value.length; i++) {
        value[i] = (byte) ('a' + random.nextInt(26));
      }
      long before = storage.currentRevision();
      for (int i = 0; i < KEYS; i++) {
        storage.create(String.format(Locale.ROOT, "pods/default/pod-%04d", i), value);
      }
      return new Fixture(storage, value, before);
    }

    @Override
    public void close() {
      consumer.interrupt();
      watch.close();
    }
  }

  /** Runs one case: its figure (µs per call, or calls per second) and how many calls it made. */
  private static double[] measure(String name, Fixture f, int seconds) throws Exception {
    Storage s = f.storage;
    return switch (name) {
      case "get" ->
          microsPerOp(
              seconds,
              () -> {
                if (s.get("pods/default/pod-0500").isEmpty()) {
                  throw new IllegalStateException("missing key");
                }
              });
      case "create" ->
          microsPerOp(seconds, () -> s.create("created/c-" + f.names.incrementAndGet(), f.value));
      case "update" ->
          microsPerOp(seconds, () -> f.revisions[1] = update(s, "updated/1", f.revisions[1], f));
      case "list-100" ->
          microsPerOp(
              seconds,
              () -> {
                ListResult page = s.list("pods/default/", 0, null, PAGE);
                if (page.items().size() != PAGE || !page.more()) {
                  throw new IllegalStateException("a page of " + page.items().size());
                }
              });
      case "watch-latency" -> watchLatency(f, seconds);
      case "watch-replay" -> watchReplay(f, seconds);
      case "update-2-threads" -> twoThreads(f, seconds);
      default -> throw new IllegalArgumentException(name);
    };
  }

  private static long update(Storage s, String key, long revision, Fixture f) {
    KeyValue updated = s.update(key, revision, f.value);
    return updated.modRevision();
  }

  /** Mean µs per call of an operation repeated for a time on this thread, and the calls. */
  private static double[] microsPerOp(int seconds, ThrowingRunnable operation) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    long start = System.nanoTime();
    long count = 0;
    long now;
    do {
      operation.run();
      count++;
      now = System.nanoTime();
    } while (now < end);
    return new double[] {(now - start) / 1e3 / count, count};
  }

  /**
   * Median µs from the start of a guarded update to the arrival of its event at the watch's
   * consumer (a thread polling it, as the server's watch cache does).
   */
  private static double[] watchLatency(Fixture f, int seconds) throws Exception {
    f.arrivals.clear();
    List<Long> latencies = new ArrayList<>();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < end) {
      long start = System.nanoTime();
      f.revisions[0] = update(f.storage, "watched/key", f.revisions[0], f);
      while (true) {
        long[] arrival = f.arrivals.poll(10, TimeUnit.SECONDS);
        if (arrival == null) {
          throw new IllegalStateException("no event within 10 s");
        }
        if (arrival[1] == f.revisions[0]) {
          latencies.add(arrival[0] - start);
          break;
        }
      }
    }
    long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    return new double[] {sorted[sorted.length / 2] / 1e3, sorted.length};
  }

  /**
   * Mean µs per event of watches that each replay the creation of the 1,000 keys, from opening the
   * watch to its last creation polled; the count is of events.
   */
  private static double[] watchReplay(Fixture f, int seconds) throws Exception {
    double[] replays =
        microsPerOp(
            seconds,
            () -> {
              try (StorageWatch replay = f.storage.watch("pods/default/", f.beforeKeys)) {
                for (int seen = 0; seen < KEYS; seen++) {
                  StorageEvent event = replay.poll(10, TimeUnit.SECONDS);
                  if (event == null || event.type() != StorageEvent.Type.PUT) {
                    throw new IllegalStateException("event " + seen + " of the replay: " + event);
                  }
                }
              }
            });
    return new double[] {replays[0] / KEYS, replays[1] * KEYS};
  }

  /** Guarded updates per second from two threads, each on its own key. */
  private static double[] twoThreads(Fixture f, int seconds) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      long start = System.nanoTime();
      List<Future<Long>> done = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        String key = "updated/" + (t + 1);
        int slot = t + 1;
        done.add(
            pool.submit(
                () -> {
                  long count = 0;
                  long revision = f.storage.get(key).orElseThrow().modRevision();
                  while (System.nanoTime() < end) {
                    revision = update(f.storage, key, revision, f);
                    count++;
                  }
                  f.revisions[slot] = revision;
                  return count;
                }));
      }
      long total = 0;
      for (Future<Long> d : done) {
        total += d.get();
      }
      return new double[] {total / ((System.nanoTime() - start) / 1e9), total};
    } finally {
      pool.shutdownNow();
    }
  }

  private static void record(
      Map<String, Map<String, List<Double>>> results, String name, String client, double value) {
    results
        .computeIfAbsent(name, n -> new LinkedHashMap<>())
        .computeIfAbsent(client, c -> new ArrayList<>())
        .add(value);
  }

  /** CPU time of this JVM, every thread. */
  private static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** CPU time of the etcd process (user and system, from /proc; clock ticks of 10 ms). */
  private static long etcdCpuNanos(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // After the command: state is field 3, utime 14 and stime 15 (1-based, of the whole line).
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    return ticks * 10_000_000L;
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static String summary(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return String.format(
        Locale.ROOT, "%.0f (%.0f–%.0f)", median(values), sorted[0], sorted[sorted.length - 1]);
  }

  /**
   * The gateway's floor for the JDK client: the bytes {@code EtcdStorage} sends for a get and for a
   * page, written once, posted, and the answer read as bytes and not parsed; what is left of {@code
   * EtcdStorage}'s time is building and parsing JSON and base64.
   */
  private static final class RawGateway {
    private final HttpClient http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final HttpRequest get;
    private final HttpRequest page;

    RawGateway(URI endpoint) {
      Base64.Encoder base64 = Base64.getEncoder();
      byte[] prefix = "/gateway/pods/default/".getBytes(StandardCharsets.UTF_8);
      this.get =
          request(
              endpoint,
              "{\"key\":\""
                  + base64.encodeToString(
                      "/gateway/pods/default/pod-0500".getBytes(StandardCharsets.UTF_8))
                  + "\"}");
      this.page =
          request(
              endpoint,
              "{\"key\":\""
                  + base64.encodeToString(prefix)
                  + "\",\"range_end\":\""
                  + base64.encodeToString(JetcdStorage.prefixEnd(prefix))
                  + "\",\"limit\":\""
                  + (PAGE + 1)
                  + "\"}");
    }

    private static HttpRequest request(URI endpoint, String body) {
      return HttpRequest.newBuilder(endpoint.resolve("/v3/kv/range"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body))
          .build();
    }

    double[] measure(String name, int seconds) throws Exception {
      HttpRequest request = name.startsWith("get") ? get : page;
      int least = name.startsWith("get") ? 100 : PAGE * VALUE_BYTES;
      return microsPerOp(
          seconds,
          () -> {
            byte[] body = http.send(request, HttpResponse.BodyHandlers.ofByteArray()).body();
            if (body.length < least) {
              throw new IllegalStateException("a short answer: " + body.length + " bytes");
            }
          });
    }
  }

  // ---- each client alone in a fresh JVM

  private static String child(String client, URI endpoint) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                EtcdClientLoad.class.getName(),
                "--footprint",
                client,
                endpoint.toString())
            .redirectErrorStream(true)
            .start();
    String last = "";
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        last = line;
      }
    }
    if (process.waitFor() != 0) {
      throw new IllegalStateException("the footprint of " + client + " failed: " + last);
    }
    return last;
  }

  /**
   * In a fresh JVM: the time to a client's first answer, and the classes, threads and heap it adds
   * (threads also with {@value #WATCHES} watches open).
   */
  private static void footprint(String client, URI endpoint) throws Exception {
    Function<URI, Storage> build =
        switch (client) {
          case "jetcd" -> e -> new JetcdStorage(e, "/jetcd/");
          case "grpc" -> e -> EtcdStorage.builder(e).grpc(true).prefix("/grpc/").build();
          default -> e -> EtcdStorage.builder(e).prefix("/gateway/").build();
        };
    var classes = ManagementFactory.getClassLoadingMXBean();
    var threads = ManagementFactory.getThreadMXBean();
    long heap0 = usedHeap();
    int classes0 = classes.getLoadedClassCount();
    int threads0 = threads.getThreadCount();
    long start = System.nanoTime();
    Storage storage = build.apply(endpoint);
    storage.get("pods/default/pod-0000");
    double firstMillis = (System.nanoTime() - start) / 1e6;
    for (int i = 0; i < 50; i++) {
      storage.get("pods/default/pod-0000");
    }
    int idleThreads = threads.getThreadCount() - threads0;
    int loaded = classes.getLoadedClassCount() - classes0;
    long heap = usedHeap() - heap0;
    List<StorageWatch> watches = new ArrayList<>();
    for (int i = 0; i < WATCHES; i++) {
      watches.add(storage.watch("watched-" + i + "/", 0));
    }
    Thread.sleep(500);
    int watchThreads = threads.getThreadCount() - threads0;
    for (StorageWatch watch : watches) {
      watch.close();
    }
    storage.close();
    System.out.printf(
        Locale.ROOT,
        "first answer %.0f ms, +%d classes, +%d threads (+%d with %d watches), +%d KB heap%n",
        firstMillis,
        loaded,
        idleThreads,
        watchThreads,
        WATCHES,
        heap / 1024);
    System.exit(0);
  }

  private static long usedHeap() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
    Runtime runtime = Runtime.getRuntime();
    return runtime.totalMemory() - runtime.freeMemory();
  }

  @FunctionalInterface
  private interface ThrowingRunnable {
    void run() throws Exception;
  }
}
