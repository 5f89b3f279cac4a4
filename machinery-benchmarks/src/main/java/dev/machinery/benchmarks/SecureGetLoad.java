package dev.machinery.benchmarks;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.X509Authenticator;
import dev.machinery.apiserver.certs.CertificateBuilder;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * What securing the server costs a GET of one object: the sample server on plain HTTP with no
 * authentication or authorization, against the same server over TLS with a client certificate
 * authenticated and RBAC deciding (a Role granting {@code get} on ConfigMaps, bound to the
 * certificate's user), measured with the same load generator (the JDK's HTTP client, HTTP/1.1, one
 * connection a thread, keep-alive) on the JDK binding, one after the other in one run. Not part of
 * the build: run with {@code java -cp machinery-benchmarks/target/benchmarks.jar
 * dev.machinery.benchmarks.SecureGetLoad [seconds] [threads]} (defaults 10 and 8). Prints requests
 * a second, median and p99 latency, and the ratio of the secured server to the plain one.
 */
public final class SecureGetLoad {
  private static final String PATH = "/api/v1/namespaces/default/configmaps/one";

  private SecureGetLoad() {}

  /** What one run measured. */
  private record Result(double perSecond, double p50Micros, double p99Micros) {}

  /**
   * Runs both configurations.
   *
   * @param args seconds a configuration, threads
   * @throws Exception when a part cannot start
   */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
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
    KeyPair clientKey = ecKey();
    X509Certificate clientCert =
        CertificateBuilder.forKey(clientKey.getPublic(), random)
            .commonName("reader")
            .organization("readers")
            .clientAuth()
            .signWith(ca, caKey.getPrivate());

    Result plain;
    ApiServer open = SampleServer.build(Enablement.all());
    seed(open);
    try (JdkHttpBinding binding =
        open.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      plain = run(client, "http://127.0.0.1:" + binding.port() + PATH, seconds, threads);
    }

    Result secured;
    ApiServer secure =
        SampleServer.builder(
                Enablement.all(),
                Duration.ofSeconds(60),
                null,
                new dev.machinery.apiserver.storage.MemoryStorage(),
                ApiServer.DEFAULT_WATCH_CACHE_SIZE)
            .tls(new TlsConfig(List.of(serverCert, ca), serverKey.getPrivate(), List.of(ca)))
            .authenticator(new X509Authenticator(List.of(ca)))
            .rbac()
            .build();
    seed(secure);
    grant(secure);
    try (JdkHttpBinding binding =
        secure.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      HttpClient client =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .sslContext(clientContext(ca, clientCert, clientKey))
              .build();
      secured = run(client, "https://127.0.0.1:" + binding.port() + PATH, seconds, threads);
    }

    System.out.println("| server | requests/s | p50 µs | p99 µs | ÷ plain |");
    System.out.println("| --- | ---: | ---: | ---: | ---: |");
    row("plain HTTP, no authentication or authorization", plain, plain);
    row("TLS 1.3, client certificate, RBAC", secured, plain);
  }

  private static void row(String name, Result result, Result plain) {
    System.out.printf(
        "| %s | %.0f | %.0f | %.0f | %.2f |%n",
        name,
        result.perSecond(),
        result.p50Micros(),
        result.p99Micros(),
        result.perSecond() / plain.perSecond());
  }

  private static KeyPair ecKey() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static SSLContext clientContext(X509Certificate ca, X509Certificate cert, KeyPair key)
      throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("client", key.getPrivate(), new char[0], new Certificate[] {cert, ca});
    KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    km.init(keys, new char[0]);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory tm =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tm.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(km.getKeyManagers(), tm.getTrustManagers(), new SecureRandom());
    return context;
  }

  /** The object every GET reads. */
  private static void seed(ApiServer server) {
    post(
        server,
        "/api/v1/namespaces",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"default\"}}");
    post(
        server,
        "/api/v1/namespaces/default/configmaps",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"one\"},"
            + "\"data\":{\"colour\":\"blue\"}}");
  }

  /** A Role that lets {@code reader} get ConfigMaps in default, and its binding. */
  private static void grant(ApiServer server) {
    post(
        server,
        "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
            + "\"metadata\":{\"name\":\"read-configmaps\"},\"rules\":[{\"apiGroups\":[\"\"],"
            + "\"resources\":[\"configmaps\"],\"verbs\":[\"get\"]}]}");
    post(
        server,
        "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
            + "\"metadata\":{\"name\":\"reader\"},\"roleRef\":{\"apiGroup\":"
            + "\"rbac.authorization.k8s.io\",\"kind\":\"Role\",\"name\":\"read-configmaps\"},"
            + "\"subjects\":[{\"kind\":\"User\",\"apiGroup\":\"rbac.authorization.k8s.io\","
            + "\"name\":\"reader\"}]}");
  }

  private static void post(ApiServer server, String path, String body) {
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
      throw new IllegalStateException(
          path + " answered " + response.status() + ": " + new String(response.body()));
    }
  }

  /** Threads GETting the URL for the seconds, after a second of warm-up; every answer a 200. */
  private static Result run(HttpClient client, String url, int seconds, int threads)
      throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).build();
    for (int i = 0; i < 500; i++) {
      check(client.send(request, HttpResponse.BodyHandlers.ofByteArray()));
    }
    AtomicBoolean stop = new AtomicBoolean();
    List<List<Long>> latencies = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      List<Long> mine = new ArrayList<>();
      latencies.add(mine);
      Thread worker =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    long start = System.nanoTime();
                    check(client.send(request, HttpResponse.BodyHandlers.ofByteArray()));
                    mine.add(System.nanoTime() - start);
                  }
                } catch (Exception e) {
                  failures.add(e);
                }
              });
      workers.add(worker);
    }
    long start = System.nanoTime();
    workers.forEach(Thread::start);
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    for (Thread worker : workers) {
      worker.join();
    }
    long elapsed = System.nanoTime() - start;
    if (!failures.isEmpty()) {
      throw new IllegalStateException("requests failed", failures.get(0));
    }
    List<Long> all = new ArrayList<>();
    latencies.forEach(all::addAll);
    Collections.sort(all);
    return new Result(
        all.size() / (elapsed / 1e9),
        all.get(all.size() / 2) / 1000.0,
        all.get((int) (all.size() * 0.99)) / 1000.0);
  }

  private static void check(HttpResponse<byte[]> response) {
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "answered " + response.statusCode() + ": " + new String(response.body()));
    }
  }
}
