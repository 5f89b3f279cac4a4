package dev.machinery.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.typed.JavaSchemas;
import dev.machinery.examples.apps.AppsV1;
import dev.machinery.examples.apps.Deployment;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.managedfields.FieldManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Server-side apply against the other writes, in process through {@link ApiServer#handle}: an apply
 * of a Deployment against a strategic merge patch making the same change, an ordinary update (which
 * records managed fields, as kube-apiserver's does), and the recording alone (the JSON trees and
 * {@link FieldManager#update} the update pays for), so the share of the update that tracking costs
 * can be told. Each write changes the replicas and the image, alternating between two values, so
 * every one stores a new object.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ApplyBenchmark {
  private static final String PATH = "/apis/apps/v1/namespaces/default/deployments/bench";
  private static final ObjectMapper TREES = new ObjectMapper();

  private ApiServer server;
  private Codec json;
  private FieldManager fields;
  private byte[][] applies;
  private byte[][] patches;
  private byte[][] updates;
  private Deployment[] objects;
  private int turn;

  /** Starts the sample server in memory and creates the Deployment by an apply. */
  @Setup
  public void setUp() throws IOException {
    server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    // The Java model of apps/v1 Deployment, for the in-memory rows; the server's is Kubernetes'.
    json = CodecFactory.create(AppsV1.addToScheme(Scheme.builder()).build()).json();
    fields =
        FieldManager.builder(JavaSchemas.of(Deployment.class), "apps/v1", "Deployment").build();
    applies = new byte[2][];
    patches = new byte[2][];
    updates = new byte[2][];
    objects = new Deployment[2];
    for (int i = 0; i < 2; i++) {
      applies[i] = bytes(deployment(2 + i, "nginx:1.2" + i));
      patches[i] =
          bytes(
              "{\"spec\":{\"replicas\":"
                  + (2 + i)
                  + ",\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:1.2"
                  + i
                  + "\"}]}}}}");
      updates[i] = applies[i];
      objects[i] = json.decode(applies[i], Deployment.class).object();
    }
    check(send("PATCH", PATH, "application/apply-patch+yaml", applies[0], "fieldManager", "bench"));
  }

  private static String deployment(int replicas, String image) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"bench\","
        + "\"namespace\":\"default\",\"labels\":{\"app\":\"bench\"}},\"spec\":{\"replicas\":"
        + replicas
        + ",\"selector\":{\"matchLabels\":{\"app\":\"bench\"}},\"template\":{\"metadata\":"
        + "{\"labels\":{\"app\":\"bench\"}},\"spec\":{\"containers\":[{\"name\":\"web\","
        + "\"image\":\""
        + image
        + "\",\"ports\":[{\"containerPort\":80,\"protocol\":\"TCP\"}],"
        + "\"env\":[{\"name\":\"MODE\",\"value\":\"bench\"}]}]}}}}";
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private ApiResponse send(String method, String path, String type, byte[] body, String... query) {
    Map<String, List<String>> parameters =
        query.length == 0 ? Map.of() : Map.of(query[0], List.of(query[1]));
    return server.handle(
        new ApiRequest(
            method,
            path,
            parameters,
            Map.of(
                "Content-Type", List.of(type),
                "Accept", List.of("application/json"),
                "User-Agent", List.of("bench/1.0")),
            new ByteArrayInputStream(body)));
  }

  private static ApiResponse check(ApiResponse response) {
    if (response.status() >= 300) {
      throw new IllegalStateException(new String(response.body(), StandardCharsets.UTF_8));
    }
    return response;
  }

  /**
   * A strategic merge patch changing replicas and image.
   *
   * @return the response
   */
  @Benchmark
  public ApiResponse strategicMergePatch() {
    turn ^= 1;
    return check(send("PATCH", PATH, "application/strategic-merge-patch+json", patches[turn]));
  }

  /**
   * A server-side apply of the whole configuration, changing replicas and image.
   *
   * @return the response
   */
  @Benchmark
  public ApiResponse serverSideApply() {
    turn ^= 1;
    return check(
        send(
            "PATCH", PATH, "application/apply-patch+yaml", applies[turn], "fieldManager", "bench"));
  }

  /**
   * An update replacing the object, changing replicas and image; managed fields recorded.
   *
   * @return the response
   */
  @Benchmark
  public ApiResponse update() {
    turn ^= 1;
    return check(send("PUT", PATH, "application/json", updates[turn]));
  }

  /**
   * What recording managed fields adds to that update: the new and the live object to JSON trees,
   * the field manager's update, and the tree back to an object.
   *
   * @return the recorded object
   */
  @Benchmark
  public Object trackingOnly() throws IOException {
    turn ^= 1;
    ObjectNode live = (ObjectNode) TREES.readTree(json.encode(objects[turn ^ 1]));
    ObjectNode tree = (ObjectNode) TREES.readTree(json.encode(objects[turn]));
    fields.update(live, tree, "bench");
    return json.decode(TREES.writeValueAsBytes(tree), Deployment.class).object();
  }
}
