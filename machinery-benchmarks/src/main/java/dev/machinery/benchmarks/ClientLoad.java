package dev.machinery.benchmarks;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.KubernetesProtobuf;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.CertificateBuilder;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Machinery's client against fabric8's {@code KubernetesClient} 7.4.0 (on the JDK's HTTP client),
 * both talking to the same sample server on the JDK binding in this JVM, over plain HTTP or (with
 * {@code https}) over TLS with a certificate of a CA both trust: a GET of one ConfigMap, a CREATE
 * of a new one, and a LIST of a namespace holding 1,000. Machinery's client reads and writes the
 * typed {@code dev.machinery.api.core.v1.ConfigMap} of machinery-api through a Scheme made by
 * {@code KubernetesApi.addToScheme}, in JSON, with no rate limit; fabric8's its own {@code
 * io.fabric8.kubernetes.api.model.ConfigMap}. The server stores machinery-builtins' ConfigMap (the
 * sample server's kinds). Every answer is checked (the GET's data, the LIST's 1,000 items), so no
 * client is timed doing less than the other.
 *
 * <p>After a warm-up of every operation on both clients, each round measures each operation on both
 * clients one after the other, the order swapped every round; the table gives the mean of the
 * rounds and their spread. Not part of the build: run with {@code java -cp
 * machinery-benchmarks/target/benchmarks.jar dev.machinery.benchmarks.ClientLoad [seconds]
 * [threads] [rounds] [http|https] [json|protobuf]} (defaults 5, 4, 3, http and json; with protobuf,
 * Machinery's client sends and reads single ConfigMaps in Kubernetes' protobuf through
 * machinery-api's {@code KubernetesProtobuf}, lists stay JSON).
 */
public final class ClientLoad {
  private static final int LISTED = 1_000;

  private ClientLoad() {}

  /** One operation of one client, run by one of several threads. */
  @FunctionalInterface
  private interface Op {
    void run(int thread, long sequence) throws Exception;
  }

  /** What one measurement gave. */
  private record Result(double perSecond, double p50Micros, double p99Micros) {}

  /**
   * Runs the comparison and prints a Markdown table.
   *
   * @param args seconds a measurement, threads, rounds
   * @throws Exception when the server or a client cannot start, or an answer is wrong
   */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    boolean https = args.length > 3 && args[3].equals("https");
    boolean protobuf = args.length > 4 && args[4].equals("protobuf");

    SecureRandom random = new SecureRandom();
    KeyPair caKey = ecKey();
    X509Certificate ca =
        CertificateBuilder.forKey(caKey.getPublic(), random)
            .commonName("load-ca")
            .ca(true)
            .selfSign(caKey.getPrivate());
    KeyPair serverKey = ecKey();
    X509Certificate serverCert =
        CertificateBuilder.forKey(serverKey.getPublic(), random)
            .commonName("127.0.0.1")
            .serverAuth()
            .ipAddress(InetAddress.getLoopbackAddress())
            .signWith(ca, caKey.getPrivate());
    ApiServer server =
        https
            ? SampleServer.builder(
                    Enablement.all(),
                    Duration.ofSeconds(60),
                    null,
                    new MemoryStorage(),
                    ApiServer.DEFAULT_WATCH_CACHE_SIZE)
                .tls(new TlsConfig(List.of(serverCert, ca), serverKey.getPrivate(), List.of()))
                .build()
            : SampleServer.build(Enablement.all());
    seed(server);
    Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
    KubernetesProtobuf kubernetesProtobuf = KubernetesProtobuf.create(CodecFactory.create(scheme));
    System.out.println(
        "protobuf for machinery-api's ConfigMap: "
            + (protobuf
                && kubernetesProtobuf.canEncode(dev.machinery.api.core.v1.ConfigMap.class)));
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      String url = (https ? "https" : "http") + "://127.0.0.1:" + binding.port();
      HttpTransport.Builder transport = HttpTransport.builder(URI.create(url));
      ConfigBuilder config = new ConfigBuilder(Config.empty()).withMasterUrl(url);
      if (https) {
        transport.sslContext(trusting(ca));
        config.withCaCertData(
            Base64.getEncoder()
                .encodeToString(
                    ("-----BEGIN CERTIFICATE-----\n"
                            + Base64.getMimeEncoder(64, new byte[] {'\n'})
                                .encodeToString(ca.getEncoded())
                            + "\n-----END CERTIFICATE-----\n")
                        .getBytes(StandardCharsets.US_ASCII)));
      }
      System.out.println("server: " + url);
      Client.Builder machineryBuilder =
          Client.builder(transport.build()).scheme(scheme).rateLimiter(RateLimiter.unlimited());
      if (protobuf) {
        machineryBuilder.protobuf(kubernetesProtobuf);
      }
      try (Client machinery = machineryBuilder.build();
          KubernetesClient fabric8 =
              new KubernetesClientBuilder().withConfig(config.build()).build()) {
        ResourceClient<dev.machinery.api.core.v1.ConfigMap> configMaps =
            machinery.resources(dev.machinery.api.core.v1.ConfigMap.class);
        ResourceClient<dev.machinery.api.core.v1.ConfigMap> inDefault =
            configMaps.inNamespace("default");
        ResourceClient<dev.machinery.api.core.v1.ConfigMap> inCreate =
            configMaps.inNamespace("create");
        ResourceClient<dev.machinery.api.core.v1.ConfigMap> inList = configMaps.inNamespace("list");
        AtomicLong epoch = new AtomicLong();

        Map<String, Op[]> ops = new LinkedHashMap<>();
        ops.put(
            "GET one ConfigMap",
            new Op[] {
              (t, i) -> check(inDefault.get("one").getData().get("colour")),
              (t, i) ->
                  check(
                      fabric8
                          .configMaps()
                          .inNamespace("default")
                          .withName("one")
                          .get()
                          .getData()
                          .get("colour"))
            });
        ops.put(
            "CREATE a ConfigMap",
            new Op[] {
              (t, i) -> {
                dev.machinery.api.core.v1.ConfigMap created =
                    inCreate.create(machineryConfigMap("m-" + epoch.get() + "-" + t + "-" + i));
                check(created.getMetadata().getResourceVersion());
              },
              (t, i) ->
                  check(
                      fabric8
                          .configMaps()
                          .inNamespace("create")
                          .resource(
                              new ConfigMapBuilder()
                                  .withNewMetadata()
                                  .withName("f-" + epoch.get() + "-" + t + "-" + i)
                                  .withLabels(Map.of("app", "load", "tier", "bench"))
                                  .endMetadata()
                                  .withData(data())
                                  .build())
                          .create()
                          .getMetadata()
                          .getResourceVersion())
            });
        ops.put(
            "LIST 1,000 ConfigMaps",
            new Op[] {
              (t, i) -> count(inList.list(new ListOptions()).items().size()),
              (t, i) -> count(fabric8.configMaps().inNamespace("list").list().getItems().size())
            });
        String[] clients = {
          protobuf ? "Machinery (typed, protobuf; lists JSON)" : "Machinery (typed, JSON)",
          "fabric8 7.4.0"
        };

        for (Op[] pair : ops.values()) {
          for (Op op : pair) {
            epoch.incrementAndGet();
            measure(op, Math.max(2, seconds / 2), threads);
          }
        }
        Map<String, List<List<Result>>> results = new LinkedHashMap<>();
        for (String name : ops.keySet()) {
          results.put(name, List.of(new ArrayList<>(), new ArrayList<>()));
        }
        for (int round = 0; round < rounds; round++) {
          for (Map.Entry<String, Op[]> entry : ops.entrySet()) {
            for (int k = 0; k < 2; k++) {
              int which = round % 2 == 0 ? k : 1 - k;
              epoch.incrementAndGet();
              results
                  .get(entry.getKey())
                  .get(which)
                  .add(measure(entry.getValue()[which], seconds, threads));
            }
          }
        }

        System.out.printf(
            "%n%d threads, %d s a measurement, %d rounds; mean (min–max of the rounds)%n%n",
            threads, seconds, rounds);
        System.out.println("| operation | client | ops/s | p50 µs | p99 µs | × fabric8 (ops/s) |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: |");
        for (Map.Entry<String, List<List<Result>>> entry : results.entrySet()) {
          double fabric8PerSecond = mean(entry.getValue().get(1), Result::perSecond);
          for (int which = 0; which < 2; which++) {
            List<Result> rs = entry.getValue().get(which);
            System.out.printf(
                "| %s | %s | %,.0f (%,.0f–%,.0f) | %,.0f | %,.0f | %.2f |%n",
                entry.getKey(),
                clients[which],
                mean(rs, Result::perSecond),
                rs.stream().mapToDouble(Result::perSecond).min().orElse(0),
                rs.stream().mapToDouble(Result::perSecond).max().orElse(0),
                mean(rs, Result::p50Micros),
                mean(rs, Result::p99Micros),
                mean(rs, Result::perSecond) / fabric8PerSecond);
          }
        }
      }
    }
  }

  private static KeyPair ecKey() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  /** A TLS context that trusts the one CA. */
  private static SSLContext trusting(X509Certificate ca) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), new SecureRandom());
    return context;
  }

  private static double mean(
      List<Result> results, java.util.function.ToDoubleFunction<Result> value) {
    return results.stream().mapToDouble(value).average().orElse(0);
  }

  private static void check(String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException("an answer lacks the value it should carry");
    }
  }

  private static void count(int items) {
    if (items != LISTED) {
      throw new IllegalStateException("listed " + items + " ConfigMaps, not " + LISTED);
    }
  }

  private static Map<String, String> data() {
    Map<String, String> data = new LinkedHashMap<>();
    data.put("colour", "blue");
    data.put("size", "large");
    data.put("config.yaml", "replicas: 3\nimage: registry.example/app:1.2.3\nport: 8080\n");
    return data;
  }

  private static dev.machinery.api.core.v1.ConfigMap machineryConfigMap(String name) {
    dev.machinery.api.core.v1.ConfigMap configMap = new dev.machinery.api.core.v1.ConfigMap();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName(name);
    metadata.setLabels(Map.of("app", "load", "tier", "bench"));
    configMap.setMetadata(metadata);
    configMap.setData(data());
    return configMap;
  }

  /** Runs one operation on {@code threads} threads for {@code seconds}. */
  private static Result measure(Op op, int seconds, int threads) throws Exception {
    long[][] latencies = new long[threads][];
    int[] counts = new int[threads];
    Throwable[] failures = new Throwable[threads];
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int thread = t;
      workers[t] =
          new Thread(
              () -> {
                long[] mine = new long[1 << 12];
                int n = 0;
                try {
                  long now = System.nanoTime();
                  while (now < end) {
                    op.run(thread, n);
                    long after = System.nanoTime();
                    if (n == mine.length) {
                      mine = Arrays.copyOf(mine, n * 2);
                    }
                    mine[n++] = after - now;
                    now = after;
                  }
                } catch (Throwable e) {
                  failures[thread] = e;
                }
                latencies[thread] = mine;
                counts[thread] = n;
              },
              "load-" + t);
      workers[t].start();
    }
    for (Thread worker : workers) {
      worker.join();
    }
    for (Throwable failure : failures) {
      if (failure != null) {
        throw new IllegalStateException("an operation failed", failure);
      }
    }
    int total = Arrays.stream(counts).sum();
    long[] all = new long[total];
    int at = 0;
    for (int t = 0; t < threads; t++) {
      System.arraycopy(latencies[t], 0, all, at, counts[t]);
      at += counts[t];
    }
    Arrays.sort(all);
    if (total == 0) {
      return new Result(0, 0, 0);
    }
    return new Result(
        total / (double) seconds, all[total / 2] / 1_000.0, all[(int) (total * 0.99)] / 1_000.0);
  }

  /** The namespaces, the ConfigMap every GET reads, and the 1,000 every LIST reads. */
  private static void seed(ApiServer server) {
    for (String namespace : List.of("default", "create", "list")) {
      post(
          server,
          "/api/v1/namespaces",
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
              + namespace
              + "\"}}");
    }
    post(server, "/api/v1/namespaces/default/configmaps", configMapJson("one"));
    for (int i = 0; i < LISTED; i++) {
      post(
          server, "/api/v1/namespaces/list/configmaps", configMapJson(String.format("cm-%04d", i)));
    }
  }

  static String configMapJson(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\",\"labels\":{\"app\":\"load\",\"tier\":\"bench\"}},\"data\":{\"colour\":\"blue\","
        + "\"size\":\"large\",\"config.yaml\":\"replicas: 3\\nimage: registry.example/app:1.2.3"
        + "\\nport: 8080\\n\"}}";
  }

  static void post(ApiServer server, String path, String body) {
    ApiResponse response =
        server.handleAs(
            ApiServer.LOOPBACK_USER,
            new ApiRequest(
                "POST",
                path,
                Map.of(),
                Map.of("Content-Type", List.of("application/json")),
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
    if (response.status() != 201 && response.status() != 409) {
      throw new IllegalStateException("POST " + path + " answered " + response.status());
    }
  }
}
