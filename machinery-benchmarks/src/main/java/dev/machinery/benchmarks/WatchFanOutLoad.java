package dev.machinery.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load program for the watch cache: N HTTP watchers of ConfigMaps on the sample server, then M
 * updates of one ConfigMap through HTTP at a steady rate, for each of {memory, etcd} × {watch cache
 * on (the default, 1,000 changes), off} × {100, 1,000 watchers}. Each configuration runs in a JVM
 * of its own (started by this program, killed after two minutes at most), so that heap, threads and
 * CPU are the server's in that configuration alone. Measured: the latency from the start of each
 * write to its event's arrival at every watcher (median, p99, max); events delivered against N × M
 * (lost, duplicated, out of order, error events); the server JVM's heap used after a full GC and
 * its live threads with every watch open; its CPU time over the writes (without the client's two
 * threads), and over five idle seconds with every watch open; and on etcd, etcd's watch streams and
 * watchers (its /metrics), the TCP connections to etcd and etcd's CPU. Then, when {@code
 * machinery-benchmarks-fabric8-mock} has been packaged, the same writes and 100 and 1,000 watchers
 * against fabric8's mock server 7.4.0 (CRUD mode) in a JVM of its own ({@link Fabric8Mock}): it
 * serves watches over WebSocket only, so its watchers speak WebSocket; its CPU and threads are read
 * from /proc, its heap is not measured.
 *
 * <p>The watchers are raw sockets read by one selector thread in the same JVM (one 64 KB read
 * buffer shared, a few hundred bytes each); the writer is one blocking socket with keep-alive.
 * Everything is on 127.0.0.1. Run with {@code java -cp machinery-benchmarks/target/benchmarks.jar
 * dev.machinery.benchmarks.WatchFanOutLoad [writes] [writes per second]} (defaults 200 and 50,
 * after 50 warm-up writes); the etcd configurations need an {@code etcd} binary, as the etcd
 * storage's tests do.
 */
public final class WatchFanOutLoad {
  private static final int WARM_UP = 50;
  private static final long IDLE_MILLIS = 5_000;
  private static final long CHILD_TIMEOUT_SECONDS = 120;
  private static final String RESULT = "RESULT ";

  private WatchFanOutLoad() {}

  /**
   * Runs every configuration, each in a JVM of its own, and prints the tables.
   *
   * @param args {@code [writes] [writes per second]}, or {@code --one storage cache watchers writes
   *     rate} in the child JVM
   * @throws Exception when a child cannot be started
   */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--one")) {
      Map<String, String> result =
          runOne(
              args[1],
              args[2].equals("on"),
              Integer.parseInt(args[3]),
              Integer.parseInt(args[4]),
              Integer.parseInt(args[5]));
      StringBuilder line = new StringBuilder(RESULT);
      result.forEach((k, v) -> line.append(k).append('=').append(v).append(' '));
      System.out.println(line.toString().trim());
      System.out.flush();
      System.exit(0);
      return;
    }
    int writes = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int rate = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    System.out.printf(
        Locale.ROOT,
        "%d writes at %d/s after %d warm-up writes; %d cores; load average %s%n",
        writes,
        rate,
        WARM_UP,
        Runtime.getRuntime().availableProcessors(),
        loadAverage());
    Map<String, Map<String, String>> results = new LinkedHashMap<>();
    for (String storage : List.of("memory", "etcd")) {
      for (int watchers : List.of(100, 1000)) {
        for (String cache : List.of("on", "off")) {
          String name = storage + " cache=" + cache + " watchers=" + watchers;
          System.out.println("== " + name + " (load average " + loadAverage() + ")");
          results.put(name, child(storage, cache, watchers, writes, rate));
        }
      }
    }
    if (Fabric8Mock.available()) {
      for (int watchers : List.of(100, 1000)) {
        String name = "fabric8-mock watchers=" + watchers;
        System.out.println("== " + name + " (load average " + loadAverage() + ")");
        results.put(name, child("fabric8-mock", "-", watchers, writes, rate));
      }
    } else {
      System.out.println(
          "fabric8 mock server left out: no "
              + Fabric8Mock.target().resolve("classpath.txt")
              + " (package machinery-benchmarks-fabric8-mock)");
    }
    System.out.println("load average at the end: " + loadAverage());
    String[] keys = {
      "open_ms",
      "delivered",
      "expected",
      "lost",
      "duplicates",
      "out_of_order",
      "errors",
      "latency_median_ms",
      "latency_p99_ms",
      "latency_max_ms",
      "drain_ms",
      "heap_mb",
      "heap_baseline_mb",
      "threads",
      "threads_baseline",
      "write_ms",
      "server_cpu_ms",
      "etcd_cpu_ms",
      "idle_cpu_ms_per_s",
      "etcd_idle_cpu_ms_per_s",
      "etcd_watch_streams",
      "etcd_watchers",
      "etcd_connections",
      "failure"
    };
    for (String storage : List.of("memory", "etcd")) {
      for (int watchers : List.of(100, 1000)) {
        Map<String, String> on = results.get(storage + " cache=on watchers=" + watchers);
        Map<String, String> off = results.get(storage + " cache=off watchers=" + watchers);
        System.out.printf(
            Locale.ROOT,
            "%n%s, %d watchers%n%-22s %14s %14s %10s%n",
            storage,
            watchers,
            "",
            "cache on",
            "cache off",
            "off÷on");
        for (String key : keys) {
          String a = on.getOrDefault(key, "-");
          String b = off.getOrDefault(key, "-");
          System.out.printf(Locale.ROOT, "%-22s %14s %14s %10s%n", key, a, b, ratio(a, b));
        }
      }
    }
    for (int watchers : List.of(100, 1000)) {
      Map<String, String> mock = results.get("fabric8-mock watchers=" + watchers);
      if (mock == null) {
        continue;
      }
      Map<String, String> memory = results.get("memory cache=on watchers=" + watchers);
      System.out.printf(
          Locale.ROOT,
          "%nfabric8 mock (WebSocket watches) beside memory, cache on (HTTP watches), %d watchers"
              + "%n%-22s %14s %14s %10s%n",
          watchers,
          "",
          "memory",
          "fabric8 mock",
          "mock÷mem");
      for (String key : keys) {
        String a = memory.getOrDefault(key, "-");
        String b = mock.getOrDefault(key, "-");
        System.out.printf(Locale.ROOT, "%-22s %14s %14s %10s%n", key, a, b, ratio(a, b));
      }
    }
  }

  private static String ratio(String on, String off) {
    try {
      double a = Double.parseDouble(on);
      double b = Double.parseDouble(off);
      return a == 0 ? "-" : String.format(Locale.ROOT, "%.2f", b / a);
    } catch (NumberFormatException e) {
      return "-";
    }
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "?";
    }
  }

  /** Runs one configuration in a JVM of its own; its output is echoed, its result parsed. */
  private static Map<String, String> child(
      String storage, String cache, int watchers, int writes, int rate) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx1g",
            "-Dfabric8.mock=" + Fabric8Mock.target().toAbsolutePath(),
            "-cp",
            System.getProperty("java.class.path"),
            WatchFanOutLoad.class.getName(),
            "--one",
            storage,
            cache,
            Integer.toString(watchers),
            Integer.toString(writes),
            Integer.toString(rate));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Map<String, String> result = new LinkedHashMap<>();
    Thread reader =
        new Thread(
            () -> {
              try (var lines = process.inputReader(StandardCharsets.UTF_8)) {
                String line;
                while ((line = lines.readLine()) != null) {
                  System.out.println("  " + line);
                  if (line.startsWith(RESULT)) {
                    for (String pair : line.substring(RESULT.length()).split(" ")) {
                      int eq = pair.indexOf('=');
                      if (eq > 0) {
                        synchronized (result) {
                          result.put(pair.substring(0, eq), pair.substring(eq + 1));
                        }
                      }
                    }
                  }
                }
              } catch (IOException e) {
                System.out.println("  (output: " + e + ")");
              }
            });
    reader.start();
    if (!process.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      synchronized (result) {
        result.put("failure", "timed-out-after-" + CHILD_TIMEOUT_SECONDS + "s");
      }
    } else if (process.exitValue() != 0) {
      synchronized (result) {
        result.putIfAbsent("failure", "exit-" + process.exitValue());
      }
    }
    reader.join(10_000);
    synchronized (result) {
      return new LinkedHashMap<>(result);
    }
  }

  /** One configuration, in this JVM. */
  private static Map<String, String> runOne(
      String storageKind, boolean cache, int watchers, int writes, int rate) throws Exception {
    if (storageKind.equals("fabric8-mock")) {
      return runMock(watchers, writes, rate);
    }
    Map<String, String> out = new LinkedHashMap<>();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long heapBaseline = heapAfterGc();
    int threadsBaseline = threads.getThreadCount();
    out.put("heap_baseline_mb", mb(heapBaseline));
    out.put("threads_baseline", Integer.toString(threadsBaseline));
    EtcdProcess etcd = null;
    Storage storage;
    long etcdPid = -1;
    if (storageKind.equals("etcd")) {
      etcd = EtcdProcess.start();
      etcdPid = etcdPid();
      storage =
          EtcdStorage.builder(etcd.endpoint())
              .prefix("/watchload-" + System.nanoTime() + "/")
              .build();
    } else {
      storage = new MemoryStorage();
    }
    ApiServer server =
        SampleServer.build(
            Enablement.all(),
            Duration.ofMinutes(1),
            null,
            storage,
            cache ? ApiServer.DEFAULT_WATCH_CACHE_SIZE : 0);
    SampleServer.loadSamples(server);
    JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    int port = binding.port();
    Writer writer = new Writer(port);
    Watchers clients = null;
    try {
      String rv = writer.create();
      clients = new Watchers(port, watchers, rv, WARM_UP + writes, false);
      clients.start();
      long openStart = System.nanoTime();
      boolean opened = clients.awaitOpen(TimeUnit.SECONDS.toNanos(40));
      out.put("open_ms", Long.toString((System.nanoTime() - openStart) / 1_000_000));
      out.put("open", clients.open.get() + "/" + watchers);
      System.out.printf(
          Locale.ROOT,
          "%d of %d watches open (%d refused or closed) in %s ms%n",
          clients.open.get(),
          watchers,
          clients.failed.get(),
          out.get("open_ms"));
      if (!opened) {
        out.put("failure", "only-" + clients.open.get() + "-of-" + watchers + "-watches-opened");
      }
      // Warm-up: the code paths compiled, every watcher past its first events.
      long[] warmUpStarts = new long[WARM_UP];
      writer.writeAtRate(0, WARM_UP, rate, warmUpStarts);
      clients.awaitDelivered((long) clients.open.get() * WARM_UP, TimeUnit.SECONDS.toNanos(30));
      Thread.sleep(500);
      long heap = heapAfterGc();
      out.put("heap_mb", mb(heap));
      out.put("threads", Integer.toString(threads.getThreadCount()));
      if (etcd != null) {
        Map<String, String> metrics = etcdMetrics(etcd.endpoint());
        out.put(
            "etcd_watch_streams",
            metrics.getOrDefault("etcd_debugging_mvcc_watch_stream_total", "?"));
        out.put("etcd_watchers", metrics.getOrDefault("etcd_debugging_mvcc_watcher_total", "?"));
        out.put("etcd_connections", Long.toString(connectionsTo(etcd.endpoint().getPort())));
      }
      // Idle: every watch open, no change to deliver.
      long idle0 = os.getProcessCpuTime() - clientCpu(threads, clients.thread);
      long etcdIdle0 = etcdPid > 0 ? processCpuNanos(etcdPid) : 0;
      Thread.sleep(IDLE_MILLIS);
      long idle1 = os.getProcessCpuTime() - clientCpu(threads, clients.thread);
      out.put("idle_cpu_ms_per_s", Long.toString((idle1 - idle0) / 1_000_000 * 1000 / IDLE_MILLIS));
      if (etcdPid > 0) {
        out.put(
            "etcd_idle_cpu_ms_per_s",
            Long.toString((processCpuNanos(etcdPid) - etcdIdle0) / 1_000_000 * 1000 / IDLE_MILLIS));
      }
      // The measurement.
      long[] starts = new long[writes];
      clients.measureFrom(WARM_UP, starts);
      long cpu0 = os.getProcessCpuTime();
      long client0 = clientCpu(threads, clients.thread);
      long etcd0 = etcdPid > 0 ? processCpuNanos(etcdPid) : 0;
      long writeStart = System.nanoTime();
      writer.writeAtRate(WARM_UP, writes, rate, starts);
      long writeEnd = System.nanoTime();
      long expected = (long) watchers * (WARM_UP + writes);
      boolean complete = clients.awaitDelivered(expected, TimeUnit.SECONDS.toNanos(30));
      long drained = System.nanoTime();
      long cpu1 = os.getProcessCpuTime();
      long client1 = clientCpu(threads, clients.thread);
      long etcd1 = etcdPid > 0 ? processCpuNanos(etcdPid) : 0;
      out.put("write_ms", Long.toString((writeEnd - writeStart) / 1_000_000));
      out.put("drain_ms", Long.toString((drained - writeEnd) / 1_000_000));
      out.put("server_cpu_ms", Long.toString(((cpu1 - cpu0) - (client1 - client0)) / 1_000_000));
      out.put("client_cpu_ms", Long.toString((client1 - client0) / 1_000_000));
      if (etcdPid > 0) {
        out.put("etcd_cpu_ms", Long.toString((etcd1 - etcd0) / 1_000_000));
      }
      clients.summarize(watchers, writes, out);
      out.put("ended_streams", Integer.toString(clients.ended.get()));
      if (!complete && !out.containsKey("failure")) {
        out.put("failure", "incomplete-after-30s");
      }
    } catch (Exception e) {
      out.put("failure", e.getClass().getSimpleName());
      e.printStackTrace(System.out);
    } finally {
      if (clients != null) {
        clients.close();
      }
      writer.close();
      binding.close();
      storage.close();
      if (etcd != null) {
        etcd.close();
      }
    }
    return out;
  }

  /**
   * The same writes and watchers against fabric8's mock server in a JVM of its own (its watches are
   * WebSocket streams; it serves none over plain HTTP): the server's CPU and threads are that
   * process's, from /proc; its heap is not measured.
   */
  private static Map<String, String> runMock(int watchers, int writes, int rate) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    Path log = Files.createTempFile("fabric8-mock", ".log");
    try (Fabric8Mock mock = Fabric8Mock.start(null, log, "-Xmx1g")) {
      long pid = mock.pid();
      out.put("threads_baseline", Long.toString(processThreads(pid)));
      Writer writer = new Writer(mock.port());
      Watchers clients = null;
      try {
        String rv = writer.create();
        clients = new Watchers(mock.port(), watchers, rv, WARM_UP + writes, true);
        clients.start();
        long openStart = System.nanoTime();
        boolean opened = clients.awaitOpen(TimeUnit.SECONDS.toNanos(40));
        out.put("open_ms", Long.toString((System.nanoTime() - openStart) / 1_000_000));
        System.out.printf(
            Locale.ROOT,
            "%d of %d watches open (%d refused or closed) in %s ms%n",
            clients.open.get(),
            watchers,
            clients.failed.get(),
            out.get("open_ms"));
        if (!opened) {
          out.put("failure", "only-" + clients.open.get() + "-of-" + watchers + "-watches-opened");
        }
        long[] warmUpStarts = new long[WARM_UP];
        writer.writeAtRate(0, WARM_UP, rate, warmUpStarts);
        clients.awaitDelivered((long) clients.open.get() * WARM_UP, TimeUnit.SECONDS.toNanos(30));
        Thread.sleep(500);
        out.put("threads", Long.toString(processThreads(pid)));
        long idle0 = processCpuNanos(pid);
        Thread.sleep(IDLE_MILLIS);
        out.put(
            "idle_cpu_ms_per_s",
            Long.toString((processCpuNanos(pid) - idle0) / 1_000_000 * 1000 / IDLE_MILLIS));
        long[] starts = new long[writes];
        clients.measureFrom(WARM_UP, starts);
        long cpu0 = processCpuNanos(pid);
        long writeStart = System.nanoTime();
        writer.writeAtRate(WARM_UP, writes, rate, starts);
        long writeEnd = System.nanoTime();
        long expected = (long) watchers * (WARM_UP + writes);
        boolean complete = clients.awaitDelivered(expected, TimeUnit.SECONDS.toNanos(30));
        long drained = System.nanoTime();
        long cpu1 = processCpuNanos(pid);
        out.put("write_ms", Long.toString((writeEnd - writeStart) / 1_000_000));
        out.put("drain_ms", Long.toString((drained - writeEnd) / 1_000_000));
        out.put("server_cpu_ms", Long.toString((cpu1 - cpu0) / 1_000_000));
        clients.summarize(watchers, writes, out);
        out.put("ended_streams", Integer.toString(clients.ended.get()));
        if (!complete && !out.containsKey("failure")) {
          out.put("failure", "incomplete-after-30s");
        }
      } catch (Exception e) {
        out.put("failure", e.getClass().getSimpleName());
        e.printStackTrace(System.out);
      } finally {
        if (clients != null) {
          clients.close();
        }
        writer.close();
      }
    }
    return out;
  }

  /** The live threads of a process (/proc). */
  private static long processThreads(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("Threads:")) {
        return Long.parseLong(line.substring(8).trim());
      }
    }
    return -1;
  }

  private static long clientCpu(ThreadMXBean threads, Thread selector) {
    // The selector thread reading every watch, and this (the writing) thread.
    return threads.getThreadCpuTime(selector.getId())
        + threads.getThreadCpuTime(Thread.currentThread().getId());
  }

  private static long heapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
  }

  private static long etcdPid() {
    return ProcessHandle.current()
        .children()
        .filter(p -> p.info().command().orElse("").endsWith("etcd"))
        .mapToLong(ProcessHandle::pid)
        .findFirst()
        .orElse(-1);
  }

  /** CPU time of a process (user and system, from /proc; clock ticks of 10 ms). */
  private static long processCpuNanos(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L;
  }

  /** Established TCP connections whose remote port is etcd's (the server's, on loopback). */
  private static long connectionsTo(int port) throws IOException {
    String hex = String.format(Locale.ROOT, ":%04X", port);
    long count = 0;
    for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path path = Path.of(file);
      if (!Files.exists(path)) {
        continue;
      }
      for (String line : Files.readAllLines(path)) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 3 && f[2].endsWith(hex) && f[3].equals("01")) {
          count++;
        }
      }
    }
    return count;
  }

  private static Map<String, String> etcdMetrics(URI endpoint) {
    Map<String, String> metrics = new LinkedHashMap<>();
    try {
      HttpClient client = HttpClient.newHttpClient();
      String body =
          client
              .send(
                  HttpRequest.newBuilder(endpoint.resolve("/metrics")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      for (String line : body.split("\n")) {
        if (line.startsWith("etcd_debugging_mvcc_watch")) {
          String[] f = line.split(" ");
          metrics.put(f[0], f[1]);
        }
      }
    } catch (IOException e) {
      metrics.put("error", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return metrics;
  }

  private static String configMap(int seq, String resourceVersion) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"fan-out\""
        + (resourceVersion == null ? "" : ",\"resourceVersion\":\"" + resourceVersion + "\"")
        + "},\"data\":{\"seq\":\""
        + seq
        + "\"}}";
  }

  /** One kept-alive connection making guarded updates of the ConfigMap "fan-out". */
  private static final class Writer implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private String resourceVersion;

    Writer(int port) throws IOException {
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(30_000);
      in = socket.getInputStream();
      out = socket.getOutputStream();
    }

    /** Creates the ConfigMap; returns its resourceVersion, from which the watchers start. */
    String create() throws IOException {
      String body = send("POST", "/api/v1/namespaces/default/configmaps", configMap(-1, null));
      resourceVersion = field(body, "resourceVersion");
      return resourceVersion;
    }

    /** Updates seq first..first+count-1, each at its slot of the rate, noting when it began. */
    void writeAtRate(int first, int count, int rate, long[] starts)
        throws IOException, InterruptedException {
      long interval = TimeUnit.SECONDS.toNanos(1) / rate;
      long begin = System.nanoTime();
      for (int i = 0; i < count; i++) {
        long slot = begin + i * interval;
        long wait = slot - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        starts[i] = System.nanoTime();
        String body =
            send(
                "PUT",
                "/api/v1/namespaces/default/configmaps/fan-out",
                configMap(first + i, resourceVersion));
        resourceVersion = field(body, "resourceVersion");
      }
    }

    private String send(String method, String path, String body) throws IOException {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      String head =
          method
              + " "
              + path
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              + "Accept: application/json\r\nContent-Length: "
              + bytes.length
              + "\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      String status = readLine();
      int contentLength = -1;
      boolean chunked = false;
      String line;
      while (!(line = readLine()).isEmpty()) {
        String lower = line.toLowerCase(Locale.ROOT);
        if (lower.startsWith("content-length:")) {
          contentLength = Integer.parseInt(lower.substring(15).trim());
        } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
          chunked = true;
        }
      }
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      if (chunked) {
        while (true) {
          int size = Integer.parseInt(readLine().split(";")[0].trim(), 16);
          if (size == 0) {
            readLine();
            break;
          }
          answer.write(in.readNBytes(size));
          readLine();
        }
      } else if (contentLength >= 0) {
        answer.write(in.readNBytes(contentLength));
      }
      String text = answer.toString(StandardCharsets.UTF_8);
      if (!status.contains(" 200 ") && !status.contains(" 201 ")) {
        throw new IOException(method + " " + path + ": " + status + " " + text);
      }
      return text;
    }

    private String readLine() throws IOException {
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) != -1 && c != '\n') {
        if (c != '\r') {
          line.append((char) c);
        }
      }
      if (c == -1 && line.length() == 0) {
        throw new IOException("connection closed");
      }
      return line.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  private static String field(String json, String name) {
    String marker = "\"" + name + "\":\"";
    int at = json.indexOf(marker);
    if (at < 0) {
      throw new IllegalStateException("no " + name + " in " + json);
    }
    int from = at + marker.length();
    return json.substring(from, json.indexOf('"', from));
  }

  /** N watch connections read by one selector thread: chunked decoding, one event a line. */
  private static final class Watchers implements AutoCloseable {
    private final int port;
    private final int count;
    private final String resourceVersion;
    private final int totalWrites;
    private final boolean webSocket;
    private final Selector selector;
    private final Connection[] connections;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    final AtomicLong open = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();
    final java.util.concurrent.atomic.AtomicInteger ended =
        new java.util.concurrent.atomic.AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean(true);
    final Thread thread;
    private volatile int measureFrom = Integer.MAX_VALUE;
    private volatile long[] starts;
    private volatile long[][] arrivals;
    private long duplicates;
    private long outOfOrder;
    private long errors;
    private String firstError;

    Watchers(int port, int count, String resourceVersion, int totalWrites, boolean webSocket)
        throws IOException {
      this.port = port;
      this.count = count;
      this.resourceVersion = resourceVersion;
      this.totalWrites = totalWrites;
      this.webSocket = webSocket;
      this.selector = Selector.open();
      this.connections = new Connection[count];
      this.thread = new Thread(this::loop, "watch-clients");
      thread.setDaemon(true);
    }

    void start() throws IOException {
      byte[] request =
          ("GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion="
                  + resourceVersion
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
                  + (webSocket
                      ? "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                          + "Sec-WebSocket-Key: bWFjaGluZXJ5LXdhdGNoZQ==\r\n"
                      : "")
                  + "\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < count; i++) {
        SocketChannel channel =
            SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        channel.socket().setTcpNoDelay(true);
        ByteBuffer out = ByteBuffer.wrap(request);
        while (out.hasRemaining()) {
          channel.write(out);
        }
        channel.configureBlocking(false);
        connections[i] = new Connection(i, channel, totalWrites);
      }
      for (Connection c : connections) {
        c.channel.register(selector, SelectionKey.OP_READ, c);
      }
      thread.start();
    }

    boolean awaitOpen(long nanos) throws InterruptedException {
      long deadline = System.nanoTime() + nanos;
      while (open.get() + failed.get() < count && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      return open.get() == count;
    }

    boolean awaitDelivered(long expected, long nanos) throws InterruptedException {
      long deadline = System.nanoTime() + nanos;
      while (delivered.get() < expected && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      return delivered.get() >= expected;
    }

    void measureFrom(int firstSeq, long[] starts) {
      long[][] a = new long[count][starts.length];
      this.starts = starts;
      this.arrivals = a;
      this.measureFrom = firstSeq;
    }

    private void loop() {
      try {
        while (running.get()) {
          selector.select(100);
          Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
          while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            Connection c = (Connection) key.attachment();
            buffer.clear();
            int n;
            try {
              n = c.channel.read(buffer);
            } catch (IOException e) {
              n = -1;
            }
            if (n < 0) {
              key.cancel();
              c.channel.close();
              if (c.open) {
                ended.incrementAndGet();
              } else {
                failed.incrementAndGet();
              }
              continue;
            }
            long now = System.nanoTime();
            buffer.flip();
            while (buffer.hasRemaining()) {
              c.feed(buffer.get(), now);
            }
          }
        }
      } catch (IOException e) {
        e.printStackTrace(System.out);
      }
    }

    /**
     * A watch line or WebSocket message arrived (one event; the type first from the sample server,
     * last from the mock).
     */
    private void event(Connection c, String line, long now) {
      if (!line.startsWith("{\"type\":\"MODIFIED\"") && !line.endsWith(",\"type\":\"MODIFIED\"}")) {
        if (line.startsWith("{\"type\":\"ERROR\"") || line.endsWith(",\"type\":\"ERROR\"}")) {
          errors++;
          if (firstError == null) {
            firstError = line.length() > 300 ? line.substring(0, 300) : line;
          }
        }
        return;
      }
      int seq = Integer.parseInt(field(line, "seq"));
      if (seq < 0) {
        return;
      }
      if (seq <= c.last) {
        if (seq == c.last || c.seen[seq]) {
          duplicates++;
          return;
        }
        outOfOrder++;
      }
      c.last = Math.max(c.last, seq);
      c.seen[seq] = true;
      delivered.incrementAndGet();
      int from = measureFrom;
      if (seq >= from) {
        arrivals[c.index][seq - from] = now;
      }
    }

    void summarize(int watchers, int writes, Map<String, String> out) {
      long[][] a = arrivals;
      long[] s = starts;
      long[] latencies = new long[watchers * writes];
      int n = 0;
      long lost = 0;
      for (int w = 0; w < watchers; w++) {
        for (int i = 0; i < writes; i++) {
          if (a[w][i] == 0) {
            lost++;
          } else {
            latencies[n++] = a[w][i] - s[i];
          }
        }
      }
      long[] sorted = Arrays.copyOf(latencies, n);
      Arrays.sort(sorted);
      out.put("expected", Long.toString((long) watchers * writes));
      out.put("delivered", Integer.toString(n));
      out.put("lost", Long.toString(lost));
      out.put("duplicates", Long.toString(duplicates));
      out.put("out_of_order", Long.toString(outOfOrder));
      out.put("errors", Long.toString(errors));
      if (firstError != null) {
        System.out.println("first error event: " + firstError);
      }
      if (n > 0) {
        out.put("latency_median_ms", ms(sorted[n / 2]));
        out.put("latency_p99_ms", ms(sorted[(int) Math.min(n - 1, (long) n * 99 / 100)]));
        out.put("latency_max_ms", ms(sorted[n - 1]));
      }
    }

    private static String ms(long nanos) {
      return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    @Override
    public void close() throws IOException {
      running.set(false);
      try {
        thread.join(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      for (Connection c : connections) {
        if (c != null) {
          c.channel.close();
        }
      }
      selector.close();
    }

    /**
     * One watch connection: the response head, then chunks, their data split into lines; or, for a
     * WebSocket watch, frames (unmasked from the server), each whole text message one event.
     */
    private final class Connection {
      final int index;
      final SocketChannel channel;
      final boolean[] seen;
      int last = -1;
      boolean open;
      // 0: head, 1: chunk size line (or the CRLF ending a chunk), 2: chunk data, 4: refused;
      // WebSocket: 5: a frame's first byte, 6: its length byte, 7: extended length, 8: payload
      private int state;
      private int chunkLeft;
      private int opcode;
      private boolean fin;
      private long payloadLeft;
      private int lengthBytesLeft;
      private final ByteArrayOutputStream head = new ByteArrayOutputStream();
      private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
      private final StringBuilder size = new StringBuilder();

      /** A WebSocket frame ended: a whole text message is one event. */
      private void frameEnd(long now) {
        state = 5;
        if (opcode == 1 && fin) {
          if (line.size() > 0) {
            String text = line.toString(StandardCharsets.UTF_8);
            try {
              event(this, text, now);
            } catch (RuntimeException e) {
              errors++;
              if (firstError == null) {
                firstError = e + " on " + text;
              }
            }
          }
          line.reset();
        }
      }

      Connection(int index, SocketChannel channel, int totalWrites) {
        this.index = index;
        this.channel = channel;
        this.seen = new boolean[totalWrites];
      }

      void feed(byte b, long now) {
        switch (state) {
          case 0 -> {
            head.write(b);
            byte[] h = head.toByteArray();
            int len = h.length;
            if (len >= 4
                && h[len - 4] == '\r'
                && h[len - 3] == '\n'
                && h[len - 2] == '\r'
                && h[len - 1] == '\n') {
              String text = head.toString(StandardCharsets.US_ASCII);
              if (text.startsWith(webSocket ? "HTTP/1.1 101" : "HTTP/1.1 200")) {
                open = true;
                WatchFanOutLoad.Watchers.this.open.incrementAndGet();
              } else {
                failed.incrementAndGet();
                System.out.println("watch refused: " + text.lines().findFirst().orElse(""));
              }
              state = open ? (webSocket ? 5 : 1) : 4;
            }
          }
          case 1 -> {
            if (b == '\n') {
              String hex = size.toString().trim();
              size.setLength(0);
              if (hex.isEmpty()) {
                return;
              }
              chunkLeft = Integer.parseInt(hex.split(";")[0], 16);
              state = chunkLeft == 0 ? 1 : 2;
            } else if (b != '\r') {
              size.append((char) b);
            }
          }
          case 2 -> {
            if (b == '\n') {
              if (line.size() > 0) {
                String text = line.toString(StandardCharsets.UTF_8);
                try {
                  event(this, text, now);
                } catch (RuntimeException e) {
                  errors++;
                  if (firstError == null) {
                    firstError = e + " on " + text;
                  }
                }
              }
              line.reset();
            } else {
              line.write(b);
            }
            if (--chunkLeft == 0) {
              state = 1;
            }
          }
          case 5 -> {
            fin = (b & 0x80) != 0;
            int code = b & 0x0F;
            if (code != 0) {
              opcode = code;
            }
            state = 6;
          }
          case 6 -> {
            int length = b & 0x7F;
            if (length == 126 || length == 127) {
              lengthBytesLeft = length == 126 ? 2 : 8;
              payloadLeft = 0;
              state = 7;
            } else {
              payloadLeft = length;
              state = 8;
              if (payloadLeft == 0) {
                frameEnd(now);
              }
            }
          }
          case 7 -> {
            payloadLeft = (payloadLeft << 8) | (b & 0xFF);
            if (--lengthBytesLeft == 0) {
              state = 8;
              if (payloadLeft == 0) {
                frameEnd(now);
              }
            }
          }
          case 8 -> {
            if (opcode == 1) {
              line.write(b);
            }
            if (--payloadLeft == 0) {
              frameEnd(now);
            }
          }
          default -> {}
        }
      }
    }
  }
}
