package dev.machinery.benchmarks;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.builtins.BuiltinKinds;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What a create of a Pod costs the server of the built-in kinds with kube-apiserver's default
 * admission plugins, on memory: each create is a Pod of two containers (arguments, environment,
 * ports, requests and limits, probes, volume mounts), two volumes, a node selector and a toleration
 * (1.7 KB of JSON), {@code POST}ed in process ({@code ApiServer.handle}, no HTTP) on one thread:
 * decoding, the values written as Go writes them, defaults, admission, validation, managed fields,
 * storage and the answer. With {@code -Dpodcreate.storage=etcd}, on a single etcd member started
 * for the run (an {@code etcd} binary on the path), over its gRPC API, values stored in Kubernetes'
 * protobuf as kube-apiserver stores them. To compare two builds, run it from each one's jar in
 * turn.
 *
 * <p>Not part of the build: run with {@code java -cp machinery-benchmarks/target/benchmarks.jar
 * dev.machinery.benchmarks.PodCreateLoad [seconds a round] [rounds]} (defaults 5 and 5; a first
 * round of the same length warms up and is not counted). Prints creates a second of each round and
 * their median. Not thread-safe; a command-line program.
 */
public final class PodCreateLoad {
  private static final String CONTAINER =
      "{\"name\":\"c%d\",\"image\":\"registry.example.com/app:v1.2.3\","
          + "\"args\":[\"--port=8080\",\"--verbose\"],"
          + "\"env\":[{\"name\":\"A\",\"value\":\"1\"},"
          + "{\"name\":\"B\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\"}}}],"
          + "\"ports\":[{\"name\":\"http\",\"containerPort\":8080,\"protocol\":\"TCP\"},"
          + "{\"name\":\"metrics\",\"containerPort\":9090}],"
          + "\"resources\":{\"requests\":{\"cpu\":\"250m\",\"memory\":\"256Mi\"},"
          + "\"limits\":{\"cpu\":\"1\",\"memory\":\"512Mi\"}},"
          + "\"readinessProbe\":{\"httpGet\":{\"path\":\"/ready\",\"port\":\"http\"},"
          + "\"periodSeconds\":10},"
          + "\"livenessProbe\":{\"tcpSocket\":{\"port\":8080},\"initialDelaySeconds\":5},"
          + "\"volumeMounts\":[{\"name\":\"data\",\"mountPath\":\"/data\"},"
          + "{\"name\":\"config\",\"mountPath\":\"/etc/app\",\"readOnly\":true}]}";

  private static final String POD =
      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"pod-%d\","
          + "\"labels\":{\"app\":\"web\",\"tier\":\"frontend\",\"release\":\"stable\"},"
          + "\"annotations\":{\"example.com/owner\":\"team-a\"}},\"spec\":{\"containers\":["
          + CONTAINER.formatted(1)
          + ","
          + CONTAINER.formatted(2)
          + "],\"volumes\":[{\"name\":\"data\",\"emptyDir\":{}},"
          + "{\"name\":\"config\",\"configMap\":{\"name\":\"app-config\"}}],"
          + "\"nodeSelector\":{\"disktype\":\"ssd\"},"
          + "\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]}}";

  private PodCreateLoad() {}

  /**
   * Runs the rounds.
   *
   * @param args seconds a round, rounds
   * @throws IllegalStateException when a create is refused
   * @throws IOException when etcd cannot be started or stopped
   */
  public static void main(String[] args) throws IOException {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    boolean onEtcd = System.getProperty("podcreate.storage", "memory").equals("etcd");
    try (EtcdProcess etcd = onEtcd ? EtcdProcess.start() : null;
        ApiServer server = server(etcd)) {
      post(
          server,
          "/api/v1/namespaces",
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"load\"}}");
      List<Long> rates = new ArrayList<>();
      long name = 0;
      for (int round = 0; round <= rounds; round++) {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long creates = 0;
        while (System.nanoTime() < end) {
          post(server, "/api/v1/namespaces/load/pods", String.format(POD, name++));
          creates++;
        }
        if (round > 0) {
          rates.add(creates / seconds);
          System.out.println("round " + round + ": " + creates / seconds + " creates a second");
        }
      }
      Collections.sort(rates);
      System.out.println("median: " + rates.get(rates.size() / 2) + " creates a second");
    }
  }

  private static ApiServer server(EtcdProcess etcd) {
    ApiServer.Builder builder = BuiltinKinds.apiServer();
    if (etcd != null) {
      builder
          .storage(EtcdStorage.builder(etcd.endpoint()).grpc(true).build())
          .storageMediaType(StorageMediaType.PROTOBUF);
    }
    return builder.build();
  }

  private static void post(ApiServer server, String path, String body) {
    ApiResponse response =
        server.handle(
            new ApiRequest(
                "POST",
                path,
                Map.of(),
                Map.of(
                    "Content-Type", List.of("application/json"),
                    "Accept", List.of("application/json")),
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
    if (response.status() != 201) {
      throw new IllegalStateException(
          "create refused: " + new String(response.body(), StandardCharsets.UTF_8));
    }
  }
}
