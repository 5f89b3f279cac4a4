package dev.machinery.benchmarks;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.controller.cache.CacheIndexer;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.client.ClientListerWatcher;
import dev.machinery.controller.clock.Clock;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;

/**
 * The scale run of kube's scalability thresholds and SLOs (sig-scalability's {@code slos.md} and
 * {@code thresholds.md}), at sizes given on the command line: the sample server (all group
 * versions, behind the Netty binding, in a JVM of its own so that its heap is its own) on memory or
 * on a three-member etcd started by this program; N namespaces, S Services and P Pods of about 6.3
 * KB of JSON ({@link ScalePods}, seeded; at most a given number in a namespace) loaded over HTTP;
 * the server's live heap (after full collections) measured before and after the Pods, per Pod
 * beside the Pod's JSON as a GET answers it, with the classes that grew (the JVM's class
 * histogram); K informers of Pods (machinery-controller-runtime's {@code SharedIndexInformer},
 * every namespace) started together, the server's heap sampled while they list and its live heap
 * once they are synced; then, for a fixed time, writers churn Pods (create, update, delete in turn)
 * at a steady rate while probes GET single Pods, LIST the Pods of a full namespace and LIST every
 * Pod, each call's latency recorded by class against the SLOs (p99 of mutating calls and GETs ≤ 1
 * s, namespaced LISTs ≤ 5 s, cluster-wide LISTs ≤ 30 s). At the end each informer must hold exactly
 * the Pods the server holds: nothing lost.
 *
 * <p>Not part of the build: {@code java -Xmx6g -cp machinery-benchmarks/target/benchmarks.jar
 * dev.machinery.benchmarks.ScaleRun --pods=10000 --namespaces=1000 --services=1000} (see {@link
 * Options} for every flag and its default; the defaults are kube's 10,000 namespaces, 150,000 Pods,
 * 3,000 Pods in a namespace, 10,000 Services, churn of 20 objects a second, 10 informers). Prints
 * Markdown tables.
 *
 * <p>Thread safety: a program with a static entry point only; it keeps no state between runs.
 */
public final class ScaleRun {
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  private static final String POD_NAMESPACE = "scale-%05d";

  private ScaleRun() {}

  /**
   * What a run measures, from {@code --name=value} flags.
   *
   * @param storage {@code memory}, {@code memory-deflated} (a {@code MemoryStorage} keeping its
   *     values deflated) or {@code etcd} (three members)
   * @param namespaces how many namespaces
   * @param pods how many Pods
   * @param podsPerNamespace the most Pods in one namespace
   * @param services how many Services
   * @param informers how many Pod informers start together
   * @param churnSeconds how long writers churn and probes run
   * @param churnRate objects written a second
   * @param serverHeap the server JVM's {@code -Xmx}
   * @param loaders how many threads load the objects
   * @param compactionSeconds how often the server compacts its storage, in seconds
   *     (kube-apiserver's five minutes by default; 0 for never)
   * @param storageMediaType how the server stores built-in kinds' values, as kube-apiserver's
   *     {@code --storage-media-type}: {@code application/json} (the library's default) or {@code
   *     application/vnd.kubernetes.protobuf} (kube-apiserver's)
   * @param etcdApi how the server's storage talks to etcd: {@code grpc} (etcd's gRPC API, as the
   *     sample server and kube-apiserver) or {@code gateway} (its JSON gateway)
   * @param seed the seed of the objects
   */
  record Options(
      String storage,
      int namespaces,
      int pods,
      int podsPerNamespace,
      int services,
      int informers,
      int churnSeconds,
      int churnRate,
      String serverHeap,
      int loaders,
      int compactionSeconds,
      String storageMediaType,
      String etcdApi,
      long seed) {
    static Options parse(String[] args) {
      Map<String, String> flags = new HashMap<>();
      for (String arg : args) {
        if (!arg.startsWith("--") || !arg.contains("=")) {
          throw new IllegalArgumentException("expected --name=value, got " + arg);
        }
        flags.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      }
      Options options =
          new Options(
              flags.getOrDefault("storage", "memory"),
              Integer.parseInt(flags.getOrDefault("namespaces", "10000")),
              Integer.parseInt(flags.getOrDefault("pods", "150000")),
              Integer.parseInt(flags.getOrDefault("pods-per-namespace", "3000")),
              Integer.parseInt(flags.getOrDefault("services", "10000")),
              Integer.parseInt(flags.getOrDefault("informers", "10")),
              Integer.parseInt(flags.getOrDefault("churn-seconds", "120")),
              Integer.parseInt(flags.getOrDefault("churn-rate", "20")),
              flags.getOrDefault("server-heap", "12g"),
              Integer.parseInt(flags.getOrDefault("loaders", "4")),
              Integer.parseInt(flags.getOrDefault("compaction-interval", "300")),
              flags.getOrDefault("storage-media-type", "application/json"),
              flags.getOrDefault("etcd-api", "grpc"),
              Long.parseLong(flags.getOrDefault("seed", "36")));
      for (String name : flags.keySet()) {
        if (!List.of(
                "storage",
                "namespaces",
                "pods",
                "pods-per-namespace",
                "services",
                "informers",
                "churn-seconds",
                "churn-rate",
                "server-heap",
                "loaders",
                "compaction-interval",
                "storage-media-type",
                "etcd-api",
                "seed")
            .contains(name)) {
          throw new IllegalArgumentException("unknown flag --" + name);
        }
      }
      if (!List.of("memory", "memory-deflated", "etcd").contains(options.storage)) {
        throw new IllegalArgumentException(
            "--storage must be memory, memory-deflated or etcd, got " + options.storage);
      }
      StorageMediaType.parse(options.storageMediaType);
      if (!List.of("grpc", "gateway").contains(options.etcdApi)) {
        throw new IllegalArgumentException(
            "--etcd-api must be grpc or gateway, got " + options.etcdApi);
      }
      int needed = (options.pods + options.podsPerNamespace - 1) / options.podsPerNamespace;
      if (needed > options.namespaces) {
        throw new IllegalArgumentException(
            "--pods="
                + options.pods
                + " at --pods-per-namespace="
                + options.podsPerNamespace
                + " need "
                + needed
                + " namespaces, --namespaces="
                + options.namespaces);
      }
      return options;
    }
  }

  /**
   * Runs the scale run, or (with {@code --serve}) the server it measures.
   *
   * @param args {@code --name=value} flags ({@link Options}), or {@code --serve
   *     memory|memory-deflated|ENDPOINTS COMPACTION_SECONDS MEDIA_TYPE grpc|gateway}
   * @throws Exception when the server, etcd or a client fails
   */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--serve")) {
      serve(
          args[1],
          Integer.parseInt(args[2]),
          StorageMediaType.parse(args[3]),
          args[4].equals("grpc"));
      return;
    }
    Options options = Options.parse(args);
    if (options.storage.equals("etcd")) {
      // kubeadm's etcd manifest: a snapshot every 10,000 entries (etcd 3.4 keeps 100,000 in
      // memory by default); the space quota etcd's docs give as the largest suggested, 8 GiB.
      List<EtcdProcess> members =
          EtcdProcess.cluster(
              3, List.of("--snapshot-count=10000", "--quota-backend-bytes=8589934592"));
      try {
        List<String> endpoints = new ArrayList<>();
        for (EtcdProcess member : members) {
          endpoints.add(member.endpoint().toString());
        }
        run(options, String.join(",", endpoints));
      } finally {
        for (EtcdProcess member : members) {
          member.close();
        }
      }
    } else {
      run(options, options.storage);
    }
    System.exit(0);
  }

  // ---------------------------------------------------------------- the server's JVM

  /**
   * The server: the sample server behind the Netty binding; prints its port, then answers commands
   * on standard input, one a line: {@code heap} (live heap after full collections), {@code histo}
   * (the class histogram), {@code sample} and {@code peak} (the most heap in use, sampled every 5
   * ms, since {@code sample}).
   */
  private static void serve(
      String storageSpec, int compactionSeconds, StorageMediaType mediaType, boolean grpc)
      throws Exception {
    Storage storage =
        storageSpec.equals("memory")
            ? new MemoryStorage()
            : storageSpec.equals("memory-deflated")
                ? new MemoryStorage(
                    MemoryStorage.DEFAULT_HISTORY_LIMIT,
                    MemoryStorage.DEFAULT_WATCH_QUEUE_LIMIT,
                    true)
                : EtcdStorage.builder(
                        List.of(storageSpec.split(",")).stream()
                            .map(URI::create)
                            .toArray(URI[]::new))
                    .grpc(grpc)
                    .build();
    ApiServer server =
        SampleServer.builder(
                Enablement.all(),
                Duration.ofMinutes(1),
                null,
                storage,
                ApiServer.DEFAULT_WATCH_CACHE_SIZE)
            .compactionInterval(Duration.ofSeconds(compactionSeconds))
            .storageMediaType(mediaType)
            .build();
    PrintStream out = System.out;
    try (HttpBinding binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "netty")) {
      out.println("PORT " + binding.port());
      out.flush();
      AtomicLong peak = new AtomicLong();
      AtomicBoolean sampling = new AtomicBoolean();
      Thread sampler =
          new Thread(
              () -> {
                while (true) {
                  if (sampling.get()) {
                    peak.accumulateAndGet(MEMORY.getHeapMemoryUsage().getUsed(), Math::max);
                  }
                  try {
                    Thread.sleep(5);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "heap sampler");
      sampler.setDaemon(true);
      sampler.start();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        switch (line.trim()) {
          case "heap" -> out.println("HEAP " + usedAfterGc());
          case "histo" -> {
            for (Map.Entry<String, long[]> e : histogram().entrySet()) {
              out.println("CLASS " + e.getKey() + " " + e.getValue()[0] + " " + e.getValue()[1]);
            }
            out.println("END");
          }
          case "sample" -> {
            peak.set(MEMORY.getHeapMemoryUsage().getUsed());
            sampling.set(true);
            out.println("OK");
          }
          case "peak" -> {
            sampling.set(false);
            out.println("PEAK " + peak.get());
          }
          case "quit" -> {
            out.println("BYE");
            out.flush();
            return;
          }
          default -> out.println("UNKNOWN " + line);
        }
        out.flush();
      }
    }
  }

  /** The heap in use after full collections, once it stops shrinking. */
  private static long usedAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      Thread.sleep(100);
      long now = MEMORY.getHeapMemoryUsage().getUsed();
      if (now >= used - 256 * 1024) {
        return Math.min(now, used);
      }
      used = now;
    }
    return used;
  }

  /** Live instances and bytes a class, from the JVM's class histogram (after a full collection). */
  private static Map<String, long[]> histogram() throws Exception {
    String text =
        (String)
            ManagementFactory.getPlatformMBeanServer()
                .invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram",
                    new Object[] {null},
                    new String[] {String[].class.getName()});
    Map<String, long[]> classes = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] fields = line.trim().split("\\s+");
      if (fields.length >= 4 && fields[0].endsWith(":")) {
        classes.put(fields[3], new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2])});
      }
    }
    return classes;
  }

  /** The server's JVM, driven through its standard input and output. */
  private static final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;
    final int port;

    ServerProcess(
        String heap, String storage, int compactionSeconds, String mediaType, String etcdApi)
        throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      process =
          new ProcessBuilder(
                  java,
                  "-Xmx" + heap,
                  "-Xms" + heap,
                  "-XX:+UseG1GC",
                  "-cp",
                  System.getProperty("java.class.path"),
                  ScaleRun.class.getName(),
                  "--serve",
                  storage,
                  Integer.toString(compactionSeconds),
                  mediaType,
                  etcdApi)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
      port = Integer.parseInt(expect("PORT").trim());
    }

    long pid() {
      return process.pid();
    }

    private String expect(String prefix) throws IOException {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(prefix + " ")) {
          return line.substring(prefix.length() + 1);
        }
        if (line.startsWith(prefix)) {
          return "";
        }
      }
      throw new IOException("the server ended before it answered " + prefix);
    }

    long heap() throws IOException {
      in.println("heap");
      return Long.parseLong(expect("HEAP").trim());
    }

    Map<String, long[]> histogram() throws IOException {
      in.println("histo");
      Map<String, long[]> classes = new HashMap<>();
      for (String line = out.readLine();
          line != null && !line.equals("END");
          line = out.readLine()) {
        if (line.startsWith("CLASS ")) {
          String[] f = line.split(" ");
          classes.put(f[1], new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])});
        }
      }
      return classes;
    }

    void sample() throws IOException {
      in.println("sample");
      expect("OK");
    }

    long peak() throws IOException {
      in.println("peak");
      return Long.parseLong(expect("PEAK").trim());
    }

    @Override
    public void close() throws IOException {
      in.println("quit");
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }

  // ---------------------------------------------------------------- the run

  /** The latencies of one class of calls, in nanoseconds, and the calls that failed. */
  private static final class Latencies {
    final ConcurrentLinkedDeque<Long> nanos = new ConcurrentLinkedDeque<>();
    final AtomicLong failed = new AtomicLong();
    final Map<Integer, Long> failures = Collections.synchronizedMap(new LinkedHashMap<>());

    void record(long nanos, int status) {
      if (status >= 200 && status < 300) {
        this.nanos.add(nanos);
      } else {
        failed.incrementAndGet();
        failures.merge(status, 1L, Long::sum);
      }
    }

    double percentileMillis(double p) {
      List<Long> sorted = new ArrayList<>(nanos);
      if (sorted.isEmpty()) {
        return Double.NaN;
      }
      Collections.sort(sorted);
      int index = (int) Math.ceil(p * sorted.size()) - 1;
      return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index))) / 1e6;
    }
  }

  private static void run(Options o, String storage) throws Exception {
    System.out.printf(
        Locale.ROOT,
        "scale run: %s, %,d namespaces, %,d Pods (at most %,d a namespace), %,d Services,"
            + " %d informers, churn %d/s for %d s, server -Xmx%s, compaction every %d s,"
            + " values stored as %s%n",
        o.storage.equals("etcd")
            ? "three-member etcd (" + storage + ", through its " + o.etcdApi + ")"
            : o.storage,
        o.namespaces,
        o.pods,
        o.podsPerNamespace,
        o.services,
        o.informers,
        o.churnRate,
        o.churnSeconds,
        o.serverHeap,
        o.compactionSeconds,
        o.storageMediaType);
    ScalePods objects = new ScalePods(o.seed, 300);
    try (ServerProcess server =
        new ServerProcess(
            o.serverHeap, storage, o.compactionSeconds, o.storageMediaType, o.etcdApi)) {
      String url = "http://127.0.0.1:" + server.port;
      HttpClient http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .executor(Executors.newFixedThreadPool(8))
              .build();
      Http calls = new Http(http, url);
      long empty = server.heap();
      long t0 = System.nanoTime();
      parallel(
          o.loaders,
          o.namespaces,
          i ->
              calls.expect(
                  calls.send(
                      "POST",
                      "/api/v1/namespaces",
                      "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                          + String.format(POD_NAMESPACE, i)
                          + "\"}}"),
                  201));
      parallel(
          o.loaders,
          o.services,
          i -> {
            String ns = String.format(POD_NAMESPACE, i % o.namespaces);
            calls.expect(
                calls.send(
                    "POST", "/api/v1/namespaces/" + ns + "/services", objects.service(ns, i)),
                201);
          });
      double setupSeconds = (System.nanoTime() - t0) / 1e9;
      long beforePods = server.heap();
      Map<String, long[]> classesBefore = server.histogram();
      long t1 = System.nanoTime();
      parallel(
          o.loaders,
          o.pods,
          i -> {
            String ns = namespaceOf(i, o.podsPerNamespace);
            calls.expect(
                calls.send(
                    "POST",
                    "/api/v1/namespaces/" + ns + "/pods?fieldManager=kube-controller-manager",
                    objects.pod(ns, i)),
                201);
            calls.expect(
                calls.send(
                    "PATCH",
                    "/api/v1/namespaces/"
                        + ns
                        + "/pods/"
                        + ScalePods.podName(i)
                        + "/status?fieldManager=kubelet",
                    objects.status(i)),
                200);
          });
      double podSeconds = (System.nanoTime() - t1) / 1e9;
      long afterPods = server.heap();
      Map<String, long[]> classesAfter = server.histogram();
      byte[] onePod =
          calls
              .send(
                  "GET",
                  "/api/v1/namespaces/"
                      + namespaceOf(0, o.podsPerNamespace)
                      + "/pods/"
                      + ScalePods.podName(0),
                  null)
              .body();
      java.nio.file.Path podFile =
          java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "scale-run-pod.json");
      java.nio.file.Files.write(podFile, onePod);
      // read once: every Pod listed (as an informer's first list), so the cache holds each
      // decoded, with the encodings of its answers
      long t3 = System.nanoTime();
      calls.expect(calls.send("GET", "/api/v1/pods", null), 200);
      double listSeconds = (System.nanoTime() - t3) / 1e9;
      long afterRead = server.heap();
      Map<String, long[]> classesRead = server.histogram();
      double perPod = (afterPods - beforePods) / (double) o.pods;
      double perPodRead = (afterRead - beforePods) / (double) o.pods;
      System.out.printf(
          Locale.ROOT,
          "%nloaded %,d namespaces and %,d Services in %.1f s, %,d Pods (create + status) in %.1f s"
              + " (%,.0f Pods/s); the first LIST of every Pod took %.1f s%n",
          o.namespaces,
          o.services,
          setupSeconds,
          o.pods,
          podSeconds,
          o.pods / podSeconds,
          listSeconds);
      System.out.printf(
          Locale.ROOT,
          "%n| server live heap | MiB | per Pod, bytes | ÷ the Pod's JSON (%,d bytes) |%n"
              + "| --- | ---: | ---: | ---: |%n"
              + "| started, empty | %.1f | | |%n"
              + "| with namespaces and Services | %.1f | | |%n"
              + "| with the Pods, stored | %.1f | %,.0f | %.2f |%n"
              + "| after one LIST of every Pod | %.1f | %,.0f | %.2f |%n%n",
          onePod.length,
          mib(empty),
          mib(beforePods),
          mib(afterPods),
          perPod,
          perPod / onePod.length,
          mib(afterRead),
          perPodRead,
          perPodRead / onePod.length);
      System.out.printf(
          Locale.ROOT,
          "(kube-apiserver's published figure: 10,000 ConfigMaps of 1 KiB ≈ 100 MiB in its watch"
              + " cache, about 10 KiB an object)%n%nwhat grew, per Pod, as the Pods were stored"
              + " (top 20):%n");
      printGrowth(classesBefore, classesAfter, o.pods);
      System.out.printf(
          Locale.ROOT, "%nwhat grew, per Pod, when they were listed once (top 20):%n");
      printGrowth(classesAfter, classesRead, o.pods);

      // informers starting together
      Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
      List<Client> clients = new ArrayList<>();
      List<SharedIndexInformer<Pod>> informers = new ArrayList<>();
      long beforeInformers = server.heap();
      server.sample();
      long t2 = System.nanoTime();
      for (int k = 0; k < o.informers; k++) {
        Client client =
            Client.builder(HttpTransport.builder(URI.create(url)).build())
                .scheme(scheme)
                .rateLimiter(RateLimiter.unlimited())
                .build();
        clients.add(client);
        SharedIndexInformer<Pod> informer =
            new SharedIndexInformer<>(
                "pods-" + k,
                new ClientListerWatcher<>(client.resources(Pod.class)),
                Duration.ZERO,
                CacheIndexer.namespaceIndexers(),
                Clock.system());
        informers.add(informer);
      }
      for (SharedIndexInformer<Pod> informer : informers) {
        informer.start();
      }
      for (SharedIndexInformer<Pod> informer : informers) {
        while (!informer.hasSynced()) {
          Thread.sleep(20);
        }
      }
      double syncSeconds = (System.nanoTime() - t2) / 1e9;
      long peak = server.peak();
      long settled = server.heap();
      Map<String, long[]> classesInformed = server.histogram();
      System.out.printf(
          Locale.ROOT,
          "%n%d informers of every Pod started together, synced in %.1f s; server heap: live before"
              + " %.1f MiB, most in use while they listed %.1f MiB (sampled every 5 ms, garbage"
              + " included), live once synced %.1f MiB (%.2f× before)%n",
          o.informers,
          syncSeconds,
          mib(beforeInformers),
          mib(peak),
          mib(settled),
          settled / (double) beforeInformers);
      System.out.printf(Locale.ROOT, "%nwhat grew, per Pod, once the informers synced (top 20):%n");
      printGrowth(classesRead, classesInformed, o.pods);

      // churn and probes
      Map<String, Latencies> latencies = new LinkedHashMap<>();
      for (String name :
          List.of("mutating (create, update, delete)", "GET", "LIST namespaced", "LIST all")) {
        latencies.put(name, new Latencies());
      }
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong expected = new AtomicLong(o.pods);
      ExecutorService probes = Executors.newFixedThreadPool(4);
      List<Future<?>> tasks = new ArrayList<>();
      tasks.add(
          probes.submit(
              () ->
                  churn(
                      calls,
                      objects,
                      o,
                      running,
                      expected,
                      latencies.get("mutating (create, update, delete)"))));
      tasks.add(
          probes.submit(
              () -> {
                Random random = new Random(o.seed);
                while (running.get()) {
                  int i = random.nextInt(o.pods);
                  calls.timed(
                      latencies.get("GET"),
                      "GET",
                      "/api/v1/namespaces/"
                          + namespaceOf(i, o.podsPerNamespace)
                          + "/pods/"
                          + ScalePods.podName(i),
                      null);
                  pause(100);
                }
                return null;
              }));
      tasks.add(
          probes.submit(
              () -> {
                Random random = new Random(o.seed + 1);
                int full = Math.max(1, o.pods / o.podsPerNamespace);
                while (running.get()) {
                  calls.timed(
                      latencies.get("LIST namespaced"),
                      "GET",
                      "/api/v1/namespaces/"
                          + String.format(POD_NAMESPACE, random.nextInt(full))
                          + "/pods",
                      null);
                  pause(1_000);
                }
                return null;
              }));
      tasks.add(
          probes.submit(
              () -> {
                while (running.get()) {
                  calls.timed(latencies.get("LIST all"), "GET", "/api/v1/pods", null);
                  pause(5_000);
                }
                return null;
              }));
      Thread.sleep(o.churnSeconds * 1000L);
      running.set(false);
      for (Future<?> task : tasks) {
        task.get();
      }
      probes.shutdown();
      System.out.printf(
          Locale.ROOT,
          "%n%d s of churn at %d objects/s with %d informers watching; latency in ms%n%n"
              + "| calls | count | failed | p50 | p99 | max | SLO (p99) | met |%n"
              + "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |%n",
          o.churnSeconds,
          o.churnRate,
          o.informers);
      double[] slos = {1_000, 1_000, 5_000, 30_000};
      int s = 0;
      for (Map.Entry<String, Latencies> e : latencies.entrySet()) {
        Latencies l = e.getValue();
        double p99 = l.percentileMillis(0.99);
        System.out.printf(
            Locale.ROOT,
            "| %s | %,d | %d%s | %.1f | %.1f | %.1f | %,.0f | %s |%n",
            e.getKey(),
            l.nanos.size(),
            l.failed.get(),
            l.failures.isEmpty() ? "" : " " + l.failures,
            l.percentileMillis(0.5),
            p99,
            l.percentileMillis(1.0),
            slos[s],
            p99 <= slos[s] ? "yes" : "no");
        s++;
      }

      // nothing lost: every informer holds what the server holds
      long want = expected.get();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      List<Integer> held = new ArrayList<>();
      while (true) {
        held.clear();
        for (SharedIndexInformer<Pod> informer : informers) {
          held.add(informer.indexer().list().size());
        }
        if (held.stream().allMatch(n -> n == want) || System.nanoTime() > deadline) {
          break;
        }
        Thread.sleep(200);
      }
      int listed = countPods(calls);
      System.out.printf(
          Locale.ROOT,
          "%nafter the churn: the server lists %,d Pods (the writers expect %,d); the informers hold"
              + " %s%n",
          listed,
          want,
          held);
      long end = server.heap();
      System.out.printf(Locale.ROOT, "server live heap at the end: %.1f MiB%n", mib(end));
      for (SharedIndexInformer<Pod> informer : informers) {
        informer.stop();
      }
      for (Client client : clients) {
        client.close();
      }
    }
  }

  /** Writers: Pods created, updated and deleted in turn at a steady rate, each call timed. */
  private static Void churn(
      Http calls,
      ScalePods objects,
      Options o,
      AtomicBoolean running,
      AtomicLong expected,
      Latencies latencies)
      throws Exception {
    String ns = String.format(POD_NAMESPACE, o.namespaces - 1);
    long interval = TimeUnit.SECONDS.toNanos(1) / o.churnRate;
    long next = System.nanoTime();
    int created = 0;
    int updated = 0;
    int deleted = 0;
    int index = 10_000_000;
    ExecutorService writers = Executors.newFixedThreadPool(4);
    List<Future<?>> pending = new ArrayList<>();
    for (long op = 0; running.get(); op++) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      next += interval;
      String path;
      String method;
      String body;
      int kind = (int) (op % 3);
      if (kind == 0 || created - deleted < 2) {
        int i = index + created++;
        method = "POST";
        path = "/api/v1/namespaces/" + ns + "/pods?fieldManager=kube-controller-manager";
        body = objects.pod(ns, i);
        expected.incrementAndGet();
      } else if (kind == 1) {
        int i = index + deleted + (updated++ % (created - deleted));
        method = "PATCH";
        path =
            "/api/v1/namespaces/"
                + ns
                + "/pods/"
                + ScalePods.podName(i)
                + "?fieldManager=kube-controller-manager";
        body = "{\"metadata\":{\"labels\":{\"churn\":\"u" + updated + "\"}}}";
      } else {
        int i = index + deleted++;
        method = "DELETE";
        // as a kubelet's last delete of a Pod that ran: at once
        path =
            "/api/v1/namespaces/" + ns + "/pods/" + ScalePods.podName(i) + "?gracePeriodSeconds=0";
        body = null;
        expected.decrementAndGet();
      }
      // in order for one object: a write waits for the ones before it on the same Pod
      pending.removeIf(Future::isDone);
      if (method.equals("DELETE") || method.equals("PATCH")) {
        for (Future<?> f : pending) {
          f.get();
        }
      }
      pending.add(writers.submit(() -> calls.timed(latencies, method, path, body)));
    }
    for (Future<?> f : pending) {
      f.get();
    }
    writers.shutdown();
    return null;
  }

  private static int countPods(Http calls) throws Exception {
    return new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(calls.send("GET", "/api/v1/pods", null).body())
        .path("items")
        .size();
  }

  private static String namespaceOf(int pod, int podsPerNamespace) {
    return String.format(POD_NAMESPACE, pod / podsPerNamespace);
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  private static void printGrowth(Map<String, long[]> before, Map<String, long[]> after, int n) {
    List<Map.Entry<String, long[]>> growth = new ArrayList<>();
    for (Map.Entry<String, long[]> entry : after.entrySet()) {
      long[] was = before.getOrDefault(entry.getKey(), new long[2]);
      growth.add(
          Map.entry(
              entry.getKey(),
              new long[] {entry.getValue()[0] - was[0], entry.getValue()[1] - was[1]}));
    }
    growth.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
    System.out.println("| class | instances/Pod | bytes/Pod |");
    System.out.println("| --- | ---: | ---: |");
    for (Map.Entry<String, long[]> entry : growth.subList(0, Math.min(20, growth.size()))) {
      System.out.printf(
          Locale.ROOT,
          "| `%s` | %.1f | %,.0f |%n",
          entry.getKey(),
          entry.getValue()[0] / (double) n,
          entry.getValue()[1] / (double) n);
    }
  }

  /** A task of the loaders, by index. */
  private interface IndexedTask {
    void run(int index) throws Exception;
  }

  private static void parallel(int threads, int count, IndexedTask task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicLong nextIndex = new AtomicLong();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(
          pool.submit(
              () -> {
                for (long i = nextIndex.getAndIncrement();
                    i < count;
                    i = nextIndex.getAndIncrement()) {
                  task.run((int) i);
                }
                return null;
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
  }

  /** Plain HTTP calls to the server. */
  private record Http(HttpClient client, String url) {
    HttpResponse<byte[]> send(String method, String path, String body) throws Exception {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path));
      if (body == null) {
        request.method(method, HttpRequest.BodyPublishers.noBody());
      } else {
        request
            .header(
                "Content-Type",
                method.equals("PATCH") ? "application/merge-patch+json" : "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(body));
      }
      return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    void expect(HttpResponse<byte[]> response, int status) {
      if (response.statusCode() != status) {
        throw new IllegalStateException(
            response.request().method()
                + " "
                + response.request().uri()
                + " answered "
                + response.statusCode()
                + ": "
                + new String(
                    response.body(),
                    0,
                    Math.min(600, response.body().length),
                    StandardCharsets.UTF_8));
      }
    }

    /** A call timed to its answer's last byte (read and dropped). */
    Void timed(Latencies latencies, String method, String path, String body) throws Exception {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path));
      if (body == null) {
        request.method(method, HttpRequest.BodyPublishers.noBody());
      } else {
        request
            .header(
                "Content-Type",
                method.equals("PATCH") ? "application/merge-patch+json" : "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(body));
      }
      long start = System.nanoTime();
      HttpResponse<InputStream> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = response.body()) {
        in.transferTo(java.io.OutputStream.nullOutputStream());
      }
      latencies.record(System.nanoTime() - start, response.statusCode());
      return null;
    }
  }
}
