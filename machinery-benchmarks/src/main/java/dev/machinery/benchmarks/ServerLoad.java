package dev.machinery.benchmarks;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load generator for the HTTP server choice: the sample API server behind the shipped JDK binding
 * and behind Jetty 12, against the same handler called in-process (the baseline, measured in the
 * same run). Reads (GET of one object), writes (POST), lists as Table, and a watch fan-out. Run
 * with {@code java -cp machinery-benchmarks/target/benchmarks.jar
 * dev.machinery.benchmarks.ServerLoad [seconds]}.
 */
public final class ServerLoad {
  private static final int CLIENTS = 8;

  private ServerLoad() {}

  /**
   * Runs the measurements and prints a table.
   *
   * @param args the seconds to measure each case (default 10)
   * @throws Exception when a server cannot start
   */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    System.out.printf(
        Locale.ROOT, "%-28s %14s %14s %14s%n", "case", "in-process/s", "JDK/s", "Jetty/s");
    for (String scenario : List.of("get", "create", "list-table")) {
      double inProcess = inProcess(scenario, seconds);
      double jdk = overHttp(scenario, seconds, false);
      double jetty = overHttp(scenario, seconds, true);
      System.out.printf(
          Locale.ROOT, "%-28s %14.0f %14.0f %14.0f%n", scenario, inProcess, jdk, jetty);
    }
    System.out.printf(
        Locale.ROOT,
        "%-28s %14s %14.0f %14.0f%n",
        "watch fan-out events/s",
        "-",
        fanOut(false),
        fanOut(true));
  }

  private static ApiServer server() {
    ApiServer server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    for (int i = 0; i < 100; i++) {
      ApiResponse created =
          server.handle(
              request("POST", "/api/v1/namespaces/default/configmaps", configMap("seed-" + i)));
      if (created.status() != 201) {
        throw new IllegalStateException(new String(created.body(), StandardCharsets.UTF_8));
      }
    }
    return server;
  }

  private static String configMap(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\",\"labels\":{\"app\":\"load\"}},\"data\":{\"k\":\"value\"}}";
  }

  private static ApiRequest request(String method, String path, String body) {
    return new ApiRequest(
        method,
        path,
        Map.of(),
        Map.of("Content-Type", List.of("application/json"), "Accept", List.of("application/json")),
        new ByteArrayInputStream(
            body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8)));
  }

  private static final AtomicLong NAMES = new AtomicLong();

  private static double inProcess(String scenario, int seconds) throws Exception {
    ApiServer server = server();
    return run(
        seconds,
        thread -> {
          ApiResponse response =
              switch (scenario) {
                case "get" ->
                    server.handle(
                        request("GET", "/api/v1/namespaces/default/configmaps/greeting", null));
                case "create" ->
                    server.handle(
                        request(
                            "POST",
                            "/api/v1/namespaces/default/configmaps",
                            configMap("c-" + NAMES.incrementAndGet())));
                default ->
                    server.handle(
                        new ApiRequest(
                            "GET",
                            "/api/v1/namespaces/default/configmaps",
                            Map.of(),
                            Map.of(
                                "Accept", List.of("application/json;as=Table;v=v1;g=meta.k8s.io")),
                            InputStream.nullInputStream()));
              };
          return response.status() < 300;
        });
  }

  private static double overHttp(String scenario, int seconds, boolean jetty) throws Exception {
    ApiServer server = server();
    AutoCloseable binding;
    int port;
    if (jetty) {
      JettyBinding j = JettyBinding.start(server);
      binding = j;
      port = j.port();
    } else {
      JdkHttpBinding j = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      binding = j;
      port = j.port();
    }
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(CLIENTS))
            .build();
    String base = "http://127.0.0.1:" + port;
    try {
      return run(
          seconds,
          thread -> {
            HttpRequest.Builder builder =
                switch (scenario) {
                  case "get" ->
                      HttpRequest.newBuilder(
                              URI.create(base + "/api/v1/namespaces/default/configmaps/greeting"))
                          .GET();
                  case "create" ->
                      HttpRequest.newBuilder(
                              URI.create(base + "/api/v1/namespaces/default/configmaps"))
                          .header("Content-Type", "application/json")
                          .POST(
                              HttpRequest.BodyPublishers.ofString(
                                  configMap("c-" + NAMES.incrementAndGet())));
                  default ->
                      HttpRequest.newBuilder(
                              URI.create(base + "/api/v1/namespaces/default/configmaps"))
                          .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
                          .GET();
                };
            HttpResponse<byte[]> response =
                client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
            return response.statusCode() < 300;
          });
    } finally {
      binding.close();
    }
  }

  /** Runs one operation per thread in a loop for a time; returns operations per second. */
  private static double run(int seconds, ThrowingOperation operation) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    try {
      long warmupEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(2, seconds / 3));
      loop(pool, operation, warmupEnd);
      long start = System.nanoTime();
      long count = loop(pool, operation, start + TimeUnit.SECONDS.toNanos(seconds));
      return count / ((System.nanoTime() - start) / 1e9);
    } finally {
      pool.shutdownNow();
    }
  }

  private static long loop(ExecutorService pool, ThrowingOperation operation, long end)
      throws Exception {
    List<Future<Long>> futures = new ArrayList<>();
    for (int t = 0; t < CLIENTS; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                long done = 0;
                while (System.nanoTime() < end) {
                  if (!operation.run(thread)) {
                    throw new IllegalStateException("a request failed");
                  }
                  done++;
                }
                return done;
              }));
    }
    long total = 0;
    for (Future<Long> f : futures) {
      total += f.get();
    }
    return total;
  }

  /** 100 watchers, 200 writes: events delivered per second until every watcher has them all. */
  private static double fanOut(boolean jetty) throws Exception {
    ApiServer server = server();
    AutoCloseable binding;
    int port;
    if (jetty) {
      JettyBinding j = JettyBinding.start(server);
      binding = j;
      port = j.port();
    } else {
      JdkHttpBinding j = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      binding = j;
      port = j.port();
    }
    int watchers = 100;
    int writes = 200;
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String base = "http://127.0.0.1:" + port;
    try {
      String rv =
          new String(
                  server
                      .handle(request("GET", "/api/v1/namespaces/default/configmaps", null))
                      .body(),
                  StandardCharsets.UTF_8)
              .replaceAll("(?s).*?\"resourceVersion\"\\s*:\\s*\"(\\d+)\".*", "$1");
      CountDownLatch done = new CountDownLatch(watchers);
      CountDownLatch ready = new CountDownLatch(watchers);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < watchers; w++) {
        Thread thread =
            new Thread(
                () -> {
                  try {
                    HttpResponse<InputStream> response =
                        client.send(
                            HttpRequest.newBuilder(
                                    URI.create(
                                        base
                                            + "/api/v1/namespaces/load/configmaps?watch=true&timeoutSeconds=120&resourceVersion="
                                            + rv))
                                .build(),
                            HttpResponse.BodyHandlers.ofInputStream());
                    ready.countDown();
                    BufferedReader lines =
                        new BufferedReader(
                            new InputStreamReader(response.body(), StandardCharsets.UTF_8));
                    int seen = 0;
                    while (seen < writes && lines.readLine() != null) {
                      seen++;
                    }
                    lines.close();
                    done.countDown();
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
      }
      ready.await(60, TimeUnit.SECONDS);
      server.handle(
          request(
              "POST",
              "/api/v1/namespaces",
              "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"load\"}}"));
      long start = System.nanoTime();
      for (int i = 0; i < writes; i++) {
        server.handle(request("POST", "/api/v1/namespaces/load/configmaps", configMap("w-" + i)));
      }
      if (!done.await(120, TimeUnit.SECONDS)) {
        throw new IllegalStateException("watchers did not receive every event");
      }
      return (double) watchers * writes / ((System.nanoTime() - start) / 1e9);
    } finally {
      binding.close();
    }
  }

  @FunctionalInterface
  private interface ThrowingOperation {
    boolean run(int thread) throws Exception;
  }
}
