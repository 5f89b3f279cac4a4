package dev.machinery.benchmarks;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.netty.NettyBinding;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample server under HTTP load from Debian's {@code wrk} on loopback, beside the limits
 * measured in the same run: GET one ConfigMap, LIST 1,000 (JSON, and as a Table), CREATE, and
 * UPDATE of one object by every connection at once (the server retries its compare-and-swap), each
 * for a number of seconds with {@code wrk --latency}, against:
 *
 * <ul>
 *   <li>nginx (Debian) serving the same bytes as files: the HTTP limit of the machine;
 *   <li>the server's two shipped HTTP bindings (the JDK's and Netty's, {@code
 *       machinery-apiserver-netty}) answering pre-encoded bytes (no decoding, no storage): the
 *       limit of each binding; and Jetty answering the same (measurement only);
 *   <li>the sample server on memory (behind the JDK binding, Jetty and the Netty binding), and on
 *       etcd (one member started by this program, behind the JDK binding and the Netty binding, and
 *       behind the Netty binding with the storage's calls over etcd's gRPC API, without and with
 *       RBAC deciding every request: wrk's requests come from {@code system:anonymous}, whose group
 *       is granted what the cases do to ConfigMaps);
 *   <li>fabric8's mock server 7.4.0 in CRUD mode, loaded with the same objects, in a JVM of its own
 *       ({@code machinery-benchmarks-fabric8-mock}: it is built on Vert.x 4.5, these benchmarks on
 *       Vert.x 5), for the operations it supports: each is tried once first, and an operation it
 *       does not support (a Table, a watch over HTTP) is reported, not measured.
 * </ul>
 *
 * Watchers are {@link WatchFanOutLoad}'s. Not part of the build: run with {@code java -cp
 * machinery-benchmarks/target/benchmarks.jar dev.machinery.benchmarks.HttpLoad [seconds]
 * [connections]} (defaults 10 and 16), with {@code wrk}, {@code nginx} and {@code etcd} on the
 * PATH, after packaging {@code machinery-benchmarks-fabric8-mock} too (its directory {@code target}
 * is looked for under the working directory, or named by {@code -Dfabric8.mock=DIR}; the mock's row
 * is left out when it is missing). {@code -Dhttpload.rows=etcd;Netty} runs only the rows whose name
 * holds one of the words given, beside nginx's; {@code -Dhttpload.cases=get} only the cases named
 * (of {@code get}, {@code list}, {@code table}, {@code create}, {@code update}); {@code
 * -Dhttpload.warmup=S} puts S seconds of the same load, not counted, before each read case (get,
 * list, table), so that no row gains from the JIT warm-up of the row before it. Prints one Markdown
 * table of requests a second, median and p99 latency, and the ratio of each server's requests a
 * second to nginx's and to the pre-encoded binding's.
 */
public final class HttpLoad {
  private static final String NS = "/api/v1/namespaces/load/configmaps";
  private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
  private static final String MOCK = "fabric8 mock server (CRUD), 7.4.0";

  private HttpLoad() {}

  /** Whether a row is to run: {@code -Dhttpload.rows}, words of which its name holds one. */
  private static boolean wanted(String row) {
    String rows = System.getProperty("httpload.rows", "");
    return rows.isEmpty() || Arrays.stream(rows.split(";")).anyMatch(row::contains);
  }

  /** Whether a case is to run: {@code -Dhttpload.cases=get,list}, every case by default. */
  private static boolean wantedCase(String name) {
    String cases = System.getProperty("httpload.cases", "");
    return cases.isEmpty() || List.of(cases.split(",")).contains(name);
  }

  /** What one wrk run measured. */
  private record Result(double perSecond, String p50, String p99, long failed) {}

  /**
   * Runs the load.
   *
   * @param args seconds a case, connections
   * @throws Exception when a part cannot start
   */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int connections = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    String loadAtStart = loadAverage();
    Path work = Files.createTempDirectory("http-load");
    Path scripts = scripts(work);
    Map<String, Map<String, Result>> results = new LinkedHashMap<>();

    ApiServer memory = loaded(new MemoryStorage());
    byte[] one = body(memory.handle(get(NS + "/one", "application/json")));
    byte[] list = body(memory.handle(get(NS, "application/json")));
    byte[] table = body(memory.handle(get(NS, TABLE)));

    Process nginx = nginx(work, one, list, table);
    try {
      int nginxPort = nginxPort(work);
      Map<String, Result> row = new LinkedHashMap<>();
      String base = "http://127.0.0.1:" + nginxPort;
      if (wantedCase("get")) {
        row.put("get", wrk(base + NS + "/one", null, null, seconds, connections));
      }
      if (wantedCase("list")) {
        row.put("list", wrk(base + NS, null, null, seconds, connections));
      }
      if (wantedCase("table")) {
        row.put("table", wrk(base + "/table", null, null, seconds, connections));
      }
      results.put("nginx (files)", row);
    } finally {
      nginx.destroy();
      nginx.waitFor(10, TimeUnit.SECONDS);
    }

    if (wanted("JDK binding, pre-encoded bytes")) {
      try (JdkHttpBinding fixed =
          JdkHttpBinding.start(
              request -> fixed(request, one, list, table),
              new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
              2048)) {
        results.put(
            "JDK binding, pre-encoded bytes", cases(fixed.port(), scripts, seconds, connections));
      }
    }

    if (wanted("Jetty binding, pre-encoded bytes")) {
      try (JettyBinding fixed = JettyBinding.start(request -> fixed(request, one, list, table))) {
        results.put(
            "Jetty binding, pre-encoded bytes", cases(fixed.port(), scripts, seconds, connections));
      }
    }

    // Its GETs answered on the event loop, as the sample server on memory has its answered.
    ApiHandler fixedNoWaiting =
        new ApiHandler() {
          @Override
          public ApiResponse handle(ApiRequest request) {
            return fixed(request, one, list, table);
          }

          @Override
          public boolean answersWithoutWaiting(ApiRequest request) {
            return request.method().equals("GET");
          }
        };
    if (wanted("Netty binding, pre-encoded bytes")) {
      try (NettyBinding fixed =
          NettyBinding.start(
              fixedNoWaiting, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
        results.put(
            "Netty binding, pre-encoded bytes", cases(fixed.port(), scripts, seconds, connections));
      }
    }

    // Each server row starts from the same 1,002 objects: the CREATE case of a row adds thousands,
    // which a later row's LIST would otherwise read too.
    if (wanted("sample server, memory")) {
      try (JdkHttpBinding binding =
          loaded(new MemoryStorage())
              .serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
        results.put("sample server, memory", cases(binding.port(), scripts, seconds, connections));
      }
    }

    if (wanted("sample server, memory, behind Netty")) {
      try (NettyBinding binding =
          NettyBinding.start(
              loaded(new MemoryStorage()),
              new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
        results.put(
            "sample server, memory, behind Netty",
            cases(binding.port(), scripts, seconds, connections));
      }
    }

    if (wanted("sample server, memory, behind Jetty")) {
      try (JettyBinding binding = JettyBinding.start(loaded(new MemoryStorage()))) {
        results.put(
            "sample server, memory, behind Jetty",
            cases(binding.port(), scripts, seconds, connections));
      }
    }

    if (wanted("sample server, etcd")) {
      // Closed in turn: the binding, the server (its controllers), the storage, etcd.
      try (EtcdProcess etcd = EtcdProcess.start();
          EtcdStorage storage = EtcdStorage.builder(etcd.endpoint()).build();
          ApiServer onEtcd = loaded(storage);
          JdkHttpBinding binding =
              onEtcd.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
        results.put("sample server, etcd", cases(binding.port(), scripts, seconds, connections));
      }
    }

    // Each on a fresh etcd: the row before it created thousands of objects there.
    String netty = "sample server, etcd, behind Netty";
    if (wanted(netty)) {
      results.put(netty, onEtcdBehindNetty(false, HttpLoad::loaded, scripts, seconds, connections));
    }
    String grpc = "sample server, etcd over gRPC, behind Netty";
    if (wanted(grpc)) {
      results.put(grpc, onEtcdBehindNetty(true, HttpLoad::loaded, scripts, seconds, connections));
    }
    // RBAC deciding every request: wrk's requests come from system:anonymous, whose group is
    // granted what the cases do on ConfigMaps.
    String rbac = "sample server, etcd over gRPC, RBAC, behind Netty";
    if (wanted(rbac)) {
      results.put(
          rbac, onEtcdBehindNetty(true, HttpLoad::loadedWithRbac, scripts, seconds, connections));
    }

    List<String> notes = new ArrayList<>();
    if (!wanted(MOCK)) {
      notes.add("fabric8 mock server left out: not among -Dhttpload.rows");
    } else if (Fabric8Mock.available()) {
      results.put(MOCK, fabric8Mock(work, scripts, seconds, connections, list, notes));
    } else {
      notes.add(
          "fabric8 mock server left out: no "
              + Fabric8Mock.target().resolve("classpath.txt")
              + " (package machinery-benchmarks-fabric8-mock)");
    }
    print(results, seconds, connections);
    System.out.println();
    System.out.println(
        "- load average (1, 5, 15 minutes): "
            + loadAtStart
            + " at the start, "
            + loadAverage()
            + " at the end");
    for (String note : notes) {
      System.out.println("- " + note);
    }
  }

  /**
   * fabric8's mock server in a JVM of its own, with the same objects as the sample server's rows:
   * each operation is tried once, and measured only when the mock answers it as Kubernetes does.
   */
  private static Map<String, Result> fabric8Mock(
      Path work, Path scripts, int seconds, int connections, byte[] sampleList, List<String> notes)
      throws IOException, InterruptedException {
    Path objects = work.resolve("mock-objects.txt");
    StringBuilder lines = new StringBuilder();
    for (String[] object : objects()) {
      lines.append(object[0]).append(' ').append(object[1]).append('\n');
    }
    Files.writeString(objects, lines);
    try (Fabric8Mock child = Fabric8Mock.start(objects, work.resolve("mock.err"))) {
      int port = child.port();
      String base = "http://127.0.0.1:" + port;
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      Map<String, Result> row = new LinkedHashMap<>();

      HttpResponse<String> one = send(client, "GET", base + NS + "/one", "application/json", null);
      if (one.statusCode() == 200 && one.body().contains("\"name\":\"one\"")) {
        row.put("get", wrk(base + NS + "/one", null, null, seconds, connections));
      } else {
        notes.add("fabric8 mock, GET: " + one.statusCode() + " " + one.body());
      }

      HttpResponse<String> list = send(client, "GET", base + NS, "application/json", null);
      int items = count(list.body(), "\"kind\":\"ConfigMap\"");
      notes.add(
          String.format(
              Locale.ROOT,
              "fabric8 mock, LIST: %d, kind %s, %d ConfigMaps, %,d bytes (the sample server's: %,d bytes)",
              list.statusCode(),
              text(list.body(), "\"kind\":\"(\\w+)\""),
              items,
              list.body().getBytes(StandardCharsets.UTF_8).length,
              sampleList.length));
      if (list.statusCode() == 200 && items == 1_002) {
        row.put("list", wrk(base + NS, null, null, seconds, connections));
      }

      HttpResponse<String> table = send(client, "GET", base + NS, TABLE, null);
      if (table.statusCode() == 200 && table.body().contains("\"kind\":\"Table\"")) {
        row.put("table", wrk(base + NS, null, TABLE, seconds, connections));
      } else {
        notes.add(
            "fabric8 mock, LIST as a Table: not supported, not measured: "
                + table.statusCode()
                + ", kind "
                + text(table.body(), "\"kind\":\"(\\w+)\""));
      }

      HttpResponse<String> created =
          send(
              client,
              "POST",
              base + NS,
              "application/json",
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"probe\"},"
                  + "\"data\":{\"k\":\"v\"}}");
      if (created.statusCode() == 201) {
        row.put(
            "create", wrk(base + NS, scripts.resolve("create.lua"), null, seconds, connections));
      } else {
        notes.add("fabric8 mock, CREATE: " + created.statusCode() + " " + created.body());
      }

      HttpResponse<String> stale =
          send(
              client,
              "PUT",
              base + NS + "/hot",
              "application/json",
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"hot\","
                  + "\"resourceVersion\":\"1\"},\"data\":{\"n\":\"stale\"}}");
      HttpResponse<String> updated =
          send(
              client,
              "PUT",
              base + NS + "/hot",
              "application/json",
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"hot\"},"
                  + "\"data\":{\"n\":\"0\"}}");
      notes.add(
          "fabric8 mock, UPDATE: with a stale resourceVersion "
              + stale.statusCode()
              + ", without one "
              + updated.statusCode());
      if (updated.statusCode() == 200) {
        row.put(
            "update",
            wrk(base + NS + "/hot", scripts.resolve("update.lua"), null, seconds, connections));
      }

      HttpResponse<InputStream> watch =
          client.send(
              HttpRequest.newBuilder(URI.create(base + NS + "?watch=true"))
                  .timeout(Duration.ofSeconds(10))
                  .header("Accept", "application/json")
                  .build(),
              HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = watch.body()) {
        notes.add(
            "fabric8 mock, watch over HTTP (as WatchFanOutLoad's watchers and client-go watch): "
                + watch.statusCode()
                + (watch.statusCode() == 200
                    ? ""
                    : " "
                        + new String(in.readNBytes(200), StandardCharsets.UTF_8).trim()
                        + " (not measured)"));
      }
      return row;
    }
  }

  private static HttpResponse<String> send(
      HttpClient client, String method, String url, String accept, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(10))
            .header("Accept", accept)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "?";
    }
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
      n++;
    }
    return n;
  }

  /**
   * One row: the sample server, made by {@code server}, on a fresh etcd member (through its
   * gateway, or over gRPC), behind the Netty binding; closed in turn: the binding, the server, the
   * storage, etcd.
   */
  private static Map<String, Result> onEtcdBehindNetty(
      boolean grpc, Function<Storage, ApiServer> server, Path scripts, int seconds, int connections)
      throws IOException, InterruptedException {
    try (EtcdProcess etcd = EtcdProcess.start();
        EtcdStorage storage = EtcdStorage.builder(etcd.endpoint()).grpc(grpc).build();
        ApiServer onEtcd = server.apply(storage);
        NettyBinding binding =
            NettyBinding.start(
                onEtcd, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      return cases(binding.port(), scripts, seconds, connections);
    }
  }

  private static Map<String, Result> cases(int port, Path scripts, int seconds, int connections)
      throws IOException, InterruptedException {
    String base = "http://127.0.0.1:" + port;
    Map<String, Result> row = new LinkedHashMap<>();
    if (wantedCase("get")) {
      row.put("get", warmedWrk(base + NS + "/one", null, seconds, connections));
    }
    if (wantedCase("list")) {
      row.put("list", warmedWrk(base + NS, null, seconds, connections));
    }
    if (wantedCase("table")) {
      row.put("table", warmedWrk(base + NS, TABLE, seconds, connections));
    }
    if (wantedCase("create")) {
      row.put("create", wrk(base + NS, scripts.resolve("create.lua"), null, seconds, connections));
    }
    if (wantedCase("update")) {
      row.put(
          "update",
          wrk(base + NS + "/hot", scripts.resolve("update.lua"), null, seconds, connections));
    }
    return row;
  }

  /**
   * The sample server with RBAC, loaded as {@link #loaded} loads it: the objects are written as the
   * server's own user.
   */
  private static ApiServer loadedWithRbac(Storage storage) {
    ApiServer server =
        SampleServer.builder(
                Enablement.all(),
                Duration.ofSeconds(60),
                null,
                storage,
                ApiServer.DEFAULT_WATCH_CACHE_SIZE)
            .rbac()
            .build();
    grantConfigMapsToAnonymous(server);
    SampleServer.loadSamples(server);
    for (String[] object : objects()) {
      check(server.handleAs(ApiServer.LOOPBACK_USER, request("POST", object[0], object[1])));
    }
    return server;
  }

  /**
   * A ClusterRole of what the cases do to ConfigMaps, bound to {@code system:unauthenticated}, the
   * group of wrk's requests.
   */
  private static void grantConfigMapsToAnonymous(ApiServer server) {
    String rbac = "/apis/rbac.authorization.k8s.io/v1";
    check(
        server.handleAs(
            ApiServer.LOOPBACK_USER,
            request(
                "POST",
                rbac + "/clusterroles",
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                    + "\"metadata\":{\"name\":\"load\"},\"rules\":[{\"apiGroups\":[\"\"],"
                    + "\"resources\":[\"configmaps\"],"
                    + "\"verbs\":[\"get\",\"list\",\"create\",\"update\"]}]}")));
    check(
        server.handleAs(
            ApiServer.LOOPBACK_USER,
            request(
                "POST",
                rbac + "/clusterrolebindings",
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRoleBinding\","
                    + "\"metadata\":{\"name\":\"load\"},\"roleRef\":{\"apiGroup\":"
                    + "\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\",\"name\":\"load\"},"
                    + "\"subjects\":[{\"kind\":\"Group\",\"apiGroup\":"
                    + "\"rbac.authorization.k8s.io\",\"name\":\"system:unauthenticated\"}]}")));
  }

  /** The sample server with 1,000 ConfigMaps in namespace {@code load}, and two more. */
  private static ApiServer loaded(Storage storage) {
    ApiServer server = SampleServer.build(Enablement.all(), Duration.ofSeconds(60), null, storage);
    SampleServer.loadSamples(server);
    for (String[] object : objects()) {
      check(server.handle(request("POST", object[0], object[1])));
    }
    return server;
  }

  /**
   * What every server is loaded with, in order, as (path, JSON): namespace {@code load}, 1,000
   * ConfigMaps in it, and {@code one} (read) and {@code hot} (updated).
   */
  private static List<String[]> objects() {
    List<String[]> objects = new ArrayList<>();
    objects.add(
        new String[] {
          "/api/v1/namespaces",
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"load\"}}"
        });
    for (int i = 0; i < 1_000; i++) {
      objects.add(new String[] {NS, configMap(String.format(Locale.ROOT, "cm-%04d", i))});
    }
    objects.add(new String[] {NS, configMap("one")});
    objects.add(new String[] {NS, configMap("hot")});
    return objects;
  }

  private static String configMap(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\",\"labels\":{\"app\":\"load\",\"tier\":\"web\"}},\"data\":{\"config.yaml\":\""
        + "replicas: 3\\nimage: nginx:1.27\\nport: 8080\\n\",\"mode\":\"production\"}}";
  }

  private static ApiRequest request(String method, String path, String body) {
    return new ApiRequest(
        method,
        path,
        Map.of(),
        Map.of("Content-Type", List.of("application/json"), "Accept", List.of("application/json")),
        new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
  }

  private static ApiRequest get(String path, String accept) {
    return new ApiRequest(
        "GET", path, Map.of(), Map.of("Accept", List.of(accept)), InputStream.nullInputStream());
  }

  private static ApiResponse check(ApiResponse response) {
    if (response.status() >= 300) {
      throw new IllegalStateException(new String(response.body(), StandardCharsets.UTF_8));
    }
    return response;
  }

  private static byte[] body(ApiResponse response) {
    return check(response).body();
  }

  /** The pre-encoded answers: the bytes the server would write, with nothing computed. */
  private static ApiResponse fixed(ApiRequest request, byte[] one, byte[] list, byte[] table) {
    String accept = request.header("Accept");
    byte[] body =
        request.path().endsWith("/one") || request.path().endsWith("/hot")
            ? one
            : accept != null && accept.contains("as=Table") ? table : list;
    int code = request.method().equals("POST") ? 201 : 200;
    try {
      request.body().readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return ApiResponse.of(code, "application/json", body);
  }

  private static Path scripts(Path work) throws IOException {
    Path dir = Files.createDirectories(work.resolve("scripts"));
    Files.writeString(
        dir.resolve("create.lua"),
        """
        local threads = 0
        function setup(thread)
          thread:set("id", threads)
          threads = threads + 1
        end
        function init(args)
          n = 0
          run = tostring(os.time())
        end
        function request()
          n = n + 1
          local body = string.format('{"apiVersion":"v1","kind":"ConfigMap","metadata":'
            .. '{"name":"new-%s-%d-%d"},"data":{"k":"v"}}', run, id, n)
          return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, body)
        end
        """);
    Files.writeString(
        dir.resolve("update.lua"),
        """
        function init(args)
          n = 0
        end
        function request()
          n = n + 1
          local body = string.format('{"apiVersion":"v1","kind":"ConfigMap","metadata":'
            .. '{"name":"hot"},"data":{"n":"%d"}}', n)
          return wrk.format("PUT", nil, {["Content-Type"] = "application/json"}, body)
        end
        """);
    return dir;
  }

  /**
   * A read case, after {@code -Dhttpload.warmup} seconds of the same load whose figures are thrown
   * away (none by default): the JIT compilers have then met the server's code, whichever row ran
   * before.
   */
  private static Result warmedWrk(String url, String accept, int seconds, int connections)
      throws IOException, InterruptedException {
    int warmUp = Integer.getInteger("httpload.warmup", 0);
    if (warmUp > 0) {
      wrk(url, null, accept, warmUp, connections);
    }
    return wrk(url, null, accept, seconds, connections);
  }

  private static Result wrk(String url, Path script, String accept, int seconds, int connections)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of("wrk", "-t2", "-c" + connections, "-d" + seconds + "s", "--latency"));
    if (script != null) {
      command.add("-s");
      command.add(script.toString());
    }
    command.add("-H");
    command.add("Accept: " + (accept == null ? "application/json" : accept));
    command.add(url);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor();
    double perSecond = number(out, "Requests/sec:\\s+([0-9.]+)");
    long failed = (long) number(out, "Non-2xx or 3xx responses:\\s+([0-9]+)");
    return new Result(
        perSecond, text(out, "\\s50%\\s+(\\S+)"), text(out, "\\s99%\\s+(\\S+)"), failed);
  }

  private static double number(String out, String pattern) {
    Matcher m = Pattern.compile(pattern).matcher(out);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  private static String text(String out, String pattern) {
    Matcher m = Pattern.compile(pattern).matcher(out);
    return m.find() ? m.group(1) : "-";
  }

  private static Process nginx(Path work, byte[] one, byte[] list, byte[] table)
      throws IOException {
    Path root = Files.createDirectories(work.resolve("root" + NS));
    Files.write(root.resolve("one"), one);
    Files.write(work.resolve("list.json"), list);
    Files.write(work.resolve("root").resolve("table"), table);
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Files.writeString(work.resolve("nginx.port"), Integer.toString(port));
    Files.writeString(
        work.resolve("nginx.conf"),
        "worker_processes 2;\ndaemon off;\npid "
            + work.resolve("nginx.pid")
            + ";\nerror_log "
            + work.resolve("error.log")
            + ";\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n"
            + "  default_type application/json;\n  server {\n    listen 127.0.0.1:"
            + port
            + ";\n    root "
            + work.resolve("root")
            + ";\n    location = "
            + NS
            + " { alias "
            + work.resolve("list.json")
            + "; }\n  }\n}\n");
    try (var paths = Files.walk(work)) {
      for (Path p : paths.toList()) {
        Files.setPosixFilePermissions(
            p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
      }
    }
    Process process =
        new ProcessBuilder(
                "nginx", "-c", work.resolve("nginx.conf").toString(), "-p", work.toString())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("nginx.out").toFile())
            .start();
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return process;
  }

  private static int nginxPort(Path work) throws IOException {
    return Integer.parseInt(Files.readString(work.resolve("nginx.port")).trim());
  }

  private static void print(
      Map<String, Map<String, Result>> results, int seconds, int connections) {
    System.out.printf(
        Locale.ROOT,
        "%nwrk -t2 -c%d -d%ds --latency on 127.0.0.1; requests/s (median / p99 latency)%n%n",
        connections,
        seconds);
    List<String> cases = List.of("get", "list", "table", "create", "update");
    StringBuilder header = new StringBuilder("| server |");
    StringBuilder rule = new StringBuilder("| --- |");
    for (String c : cases) {
      header.append(' ').append(c).append(" |");
      rule.append(" ---: |");
    }
    System.out.println(header);
    System.out.println(rule);
    for (var e : results.entrySet()) {
      StringBuilder line = new StringBuilder("| ").append(e.getKey()).append(" |");
      for (String c : cases) {
        Result r = e.getValue().get(c);
        line.append(' ')
            .append(
                r == null
                    ? "–"
                    : String.format(
                        Locale.ROOT,
                        "%,.0f (%s / %s)%s",
                        r.perSecond(),
                        r.p50(),
                        r.p99(),
                        r.failed() > 0 ? ", " + r.failed() + " non-2xx" : ""))
            .append(" |");
      }
      System.out.println(line);
    }
    Map<String, Result> nginx = results.get("nginx (files)");
    Map<String, Result> fixed = results.get("JDK binding, pre-encoded bytes");
    System.out.println();
    System.out.println(
        "| server | get ÷ nginx | list ÷ nginx | get ÷ pre-encoded | list ÷ pre-encoded | table ÷ pre-encoded | create ÷ pre-encoded | update ÷ pre-encoded |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (var e : results.entrySet()) {
      if (e.getValue() == nginx) {
        continue;
      }
      Map<String, Result> row = e.getValue();
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n",
          e.getKey(),
          ratio(row, nginx, "get", "get"),
          ratio(row, nginx, "list", "list"),
          ratio(row, fixed, "get", "get"),
          ratio(row, fixed, "list", "list"),
          ratio(row, fixed, "table", "table"),
          ratio(row, fixed, "create", "create"),
          ratio(row, fixed, "update", "update"));
    }
  }

  private static double ratio(
      Map<String, Result> row, Map<String, Result> base, String a, String b) {
    Result x = row.get(a);
    Result y = base == null ? null : base.get(b);
    return x == null || y == null || y.perSecond() == 0
        ? Double.NaN
        : x.perSecond() / y.perSecond();
  }
}
