package dev.machinery.benchmarks;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.builtins.BuiltinKinds;
import dev.machinery.builtins.DefaultAdmission;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one validating admission webhook and one ValidatingAdmissionPolicy cost a create: one server
 * with the built-in kinds (no default admission plugins) and three namespaces, {@code plain},
 * {@code webhook} and {@code policy}; a ValidatingWebhookConfiguration whose webhook (a JDK HTTPS
 * server in this JVM, on loopback, that allows everything) is selected by the namespace label
 * {@code admission=webhook}, and a ValidatingAdmissionPolicy ({@code size(object.data) <= 10},
 * {@code Deny}) whose binding selects {@code admission=policy}. Each create is a ConfigMap {@code
 * POST}ed in process ({@code ApiServer.handle}, so no HTTP for the API server itself), in one of
 * the namespaces; the configurations are taken in turn, round after round, so that the machine's
 * load falls on all three alike. Every create in {@code plain} pays the same look-ups of webhook
 * configurations and policies (and the namespace's labels) as the others but calls nothing: the
 * ratios are what the webhook call and the policy's evaluation add.
 *
 * <p>Not part of the build: run with {@code java -cp machinery-benchmarks/target/benchmarks.jar
 * dev.machinery.benchmarks.AdmissionLoad [seconds a turn] [rounds]} (defaults 2 and 5). Prints
 * creates a second, median and p99 latency of each configuration and the ratios of the medians to
 * {@code plain}'s.
 */
public final class AdmissionLoad {
  private static final Pattern UID = Pattern.compile("\"uid\"\\s*:\\s*\"([^\"]+)\"");

  private AdmissionLoad() {}

  /**
   * Runs the three configurations.
   *
   * @param args seconds a turn, rounds
   * @throws Exception when a part cannot start or a create is refused
   */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    SelfSignedCertificates.CertKey certs =
        SelfSignedCertificates.generate(
            "127.0.0.1", List.of(), List.of("localhost"), KeyAlgorithm.ECDSA_P256);
    // The JDK's HTTP server leaves Nagle's algorithm on by default: its answers would wait for
    // the client's delayed acknowledgement (about 40 ms), which no real webhook server does.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    AtomicLong reviews = new AtomicLong();
    HttpsServer webhook =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ExecutorService webhookThreads = Executors.newFixedThreadPool(2);
    webhook.setExecutor(webhookThreads);
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    webhook.createContext(
        "/allow",
        exchange -> {
          String review;
          try (InputStream in = exchange.getRequestBody()) {
            review = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          }
          Matcher uid = UID.matcher(review.substring(review.indexOf("\"request\"")));
          if (!uid.find()) {
            throw new IOException("a review without a request uid");
          }
          reviews.incrementAndGet();
          byte[] answer =
              ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                      + "\"response\":{\"uid\":\""
                      + uid.group(1)
                      + "\",\"allowed\":true}}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, answer.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
          }
        });
    webhook.start();
    ApiServer server = BuiltinKinds.apiServer(DefaultAdmission.none()).build();
    try {
      for (String ns : List.of("plain", "webhook", "policy")) {
        expect(
            201,
            post(
                server,
                "/api/v1/namespaces",
                "{\"metadata\":{\"name\":\""
                    + ns
                    + "\",\"labels\":{\"admission\":\""
                    + ns
                    + "\"}}}"));
      }
      String caBundle =
          Base64.getEncoder().encodeToString(certs.caPem().getBytes(StandardCharsets.US_ASCII));
      expect(
          201,
          post(
              server,
              "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
              "{\"metadata\":{\"name\":\"allow\"},\"webhooks\":[{\"name\":\"allow.example.com\","
                  + "\"clientConfig\":{\"url\":\"https://localhost:"
                  + webhook.getAddress().getPort()
                  + "/allow\",\"caBundle\":\""
                  + caBundle
                  + "\"},\"rules\":[{\"operations\":[\"CREATE\"],\"apiGroups\":[\"\"],"
                  + "\"apiVersions\":[\"v1\"],\"resources\":[\"configmaps\"]}],"
                  + "\"namespaceSelector\":{\"matchLabels\":{\"admission\":\"webhook\"}},"
                  + "\"failurePolicy\":\"Fail\",\"sideEffects\":\"None\","
                  + "\"admissionReviewVersions\":[\"v1\"]}]}"));
      expect(
          201,
          post(
              server,
              "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
              "{\"metadata\":{\"name\":\"ten-keys\"},\"spec\":{\"failurePolicy\":\"Fail\","
                  + "\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"\"],"
                  + "\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],"
                  + "\"resources\":[\"configmaps\"]}]},"
                  + "\"validations\":[{\"expression\":\"size(object.data) <= 10\"}]}}"));
      expect(
          201,
          post(
              server,
              "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
              "{\"metadata\":{\"name\":\"ten-keys\"},\"spec\":{\"policyName\":\"ten-keys\","
                  + "\"validationActions\":[\"Deny\"],\"matchResources\":{\"namespaceSelector\":"
                  + "{\"matchLabels\":{\"admission\":\"policy\"}}}}}"));
      // Both are in force: the policy refuses eleven keys, the webhook is called.
      StringBuilder eleven = new StringBuilder("{");
      for (int i = 0; i < 11; i++) {
        eleven.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
      }
      expect(422, create(server, "policy", "too-many", eleven + "}"));
      expect(201, create(server, "webhook", "first", "{\"a\":\"b\"}"));
      if (reviews.get() != 1) {
        throw new IllegalStateException("the webhook was called " + reviews.get() + " times");
      }
      expect(201, create(server, "plain", "first", "{\"a\":\"b\"}"));
      expect(201, create(server, "policy", "first", "{\"a\":\"b\"}"));
      if (reviews.get() != 1) {
        throw new IllegalStateException("the webhook was called outside its namespace");
      }

      Map<String, List<Long>> nanos = new LinkedHashMap<>();
      Map<String, Long> counts = new LinkedHashMap<>();
      Map<String, Long> elapsed = new LinkedHashMap<>();
      List<String> configurations = List.of("plain", "webhook", "policy");
      long[] serial = {0};
      // A warm-up round, not counted.
      for (String ns : configurations) {
        turn(server, ns, seconds, serial, new ArrayList<>());
      }
      long webhookBefore = reviews.get();
      long webhookCreates = 0;
      for (int round = 0; round < rounds; round++) {
        for (String ns : configurations) {
          List<Long> times = nanos.computeIfAbsent(ns, k -> new ArrayList<>());
          int before = times.size();
          long start = System.nanoTime();
          turn(server, ns, seconds, serial, times);
          elapsed.merge(ns, System.nanoTime() - start, Long::sum);
          counts.merge(ns, (long) (times.size() - before), Long::sum);
          if (ns.equals("webhook")) {
            webhookCreates += times.size() - before;
          }
        }
      }
      if (reviews.get() - webhookBefore != webhookCreates) {
        throw new IllegalStateException(
            "webhook reviews " + (reviews.get() - webhookBefore) + " for " + webhookCreates);
      }
      double plainMedian = percentile(nanos.get("plain"), 0.5);
      System.out.printf(
          "%-8s %10s %10s %10s %10s%n", "config", "creates/s", "p50 µs", "p99 µs", "÷ plain");
      for (String ns : configurations) {
        List<Long> times = nanos.get(ns);
        double p50 = percentile(times, 0.5);
        System.out.printf(
            "%-8s %10.0f %10.1f %10.1f %10.2f%n",
            ns,
            counts.get(ns) / (elapsed.get(ns) / 1e9),
            p50 / 1e3,
            percentile(times, 0.99) / 1e3,
            p50 / plainMedian);
      }
    } finally {
      server.close();
      webhook.stop(0);
      webhookThreads.shutdownNow();
    }
  }

  /** Creates ConfigMaps in one namespace for the given seconds, one thread, keeping each time. */
  private static void turn(
      ApiServer server, String ns, int seconds, long[] serial, List<Long> times) {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < end) {
      String name = "cm-" + serial[0]++;
      long start = System.nanoTime();
      ApiResponse response = create(server, ns, name, "{\"a\":\"b\",\"c\":\"d\"}");
      times.add(System.nanoTime() - start);
      expect(201, response);
    }
  }

  private static ApiResponse create(ApiServer server, String ns, String name, String data) {
    return post(
        server,
        "/api/v1/namespaces/" + ns + "/configmaps",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
            + name
            + "\"},\"data\":"
            + data
            + "}");
  }

  private static ApiResponse post(ApiServer server, String path, String body) {
    return server.handle(
        new ApiRequest(
            "POST",
            path,
            Map.of(),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  private static void expect(int status, ApiResponse response) {
    if (response.status() != status) {
      throw new IllegalStateException(
          "expected "
              + status
              + ", got "
              + response.status()
              + ": "
              + new String(response.body(), StandardCharsets.UTF_8));
    }
  }

  private static double percentile(List<Long> values, double p) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(p * sorted.size())));
  }
}
