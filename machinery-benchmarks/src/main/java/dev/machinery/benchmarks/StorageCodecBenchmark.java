package dev.machinery.benchmarks;

import dev.machinery.apiserver.registry.StorageCodec;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A stored value of the server, read and written by the API server's storage codec in each storage
 * media type ({@code --storage-media-type}): the benchmark Deployment (2.1 KB of JSON) as the
 * server holds a built-in kind, an {@code Unstructured} tree, decoded from its JSON value and from
 * its protobuf value ({@code k8s\0} envelope, Kubernetes' apps/v1 message; read into the JSON tree
 * of its kind, then decoded as JSON is), and encoded into each.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StorageCodecBenchmark {
  private static final GroupVersionKind DEPLOYMENT =
      GroupVersionKind.of("apps", "v1", "Deployment");

  private StorageCodec json;
  private StorageCodec protobuf;
  private byte[] jsonValue;
  private byte[] protobufValue;
  private Unstructured object;

  /** Creates the benchmark state. */
  public StorageCodecBenchmark() {}

  /** Builds both codecs and both stored values of the Deployment once. */
  @Setup
  public void setUp() {
    Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
    Codec codec = CodecFactory.create(scheme).json();
    json = StorageCodec.of(StorageMediaType.JSON, codec, DEPLOYMENT);
    protobuf = StorageCodec.of(StorageMediaType.PROTOBUF, codec, DEPLOYMENT);
    object = codec.decode(BenchmarkData.deploymentJson(), Unstructured.class).object();
    jsonValue = json.encode(object);
    protobufValue = protobuf.encode(object);
  }

  /**
   * Measures the four operations interleaved, in thread CPU time, for a machine shared with other
   * work (where JMH's wall-clock intervals grow as wide as the values): 30 rounds, each running
   * every operation 2,000 times in turn; prints each one's median ns per operation over the rounds
   * and its ratio to the JSON baseline.
   *
   * @param args unused
   */
  public static void main(String[] args) {
    StorageCodecBenchmark b = new StorageCodecBenchmark();
    b.setUp();
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    String[] names = {
      "decodeJsonValue", "decodeProtobufValue", "encodeJsonValue", "encodeProtobufValue"
    };
    java.util.List<java.util.function.Supplier<Object>> ops =
        java.util.List.of(
            b::decodeJsonValue, b::decodeProtobufValue, b::encodeJsonValue, b::encodeProtobufValue);
    int rounds = 30;
    int perRound = 2_000;
    double[][] nanos = new double[ops.size()][rounds];
    Object sink = null;
    for (int round = -10; round < rounds; round++) {
      for (int op = 0; op < ops.size(); op++) {
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < perRound; i++) {
          sink = ops.get(op).get();
        }
        long spent = threads.getCurrentThreadCpuTime() - start;
        if (round >= 0) {
          nanos[op][round] = (double) spent / perRound;
        }
      }
    }
    double[] medians = new double[ops.size()];
    for (int op = 0; op < ops.size(); op++) {
      java.util.Arrays.sort(nanos[op]);
      medians[op] = nanos[op][rounds / 2];
    }
    for (int op = 0; op < ops.size(); op++) {
      double baseline = medians[op < 2 ? 0 : 2];
      System.out.printf(
          java.util.Locale.ROOT,
          "%-20s %,10.0f ns/op (CPU, median of %d rounds; %.2f of JSON)%n",
          names[op],
          medians[op],
          rounds,
          medians[op] / baseline);
    }
    System.out.println(sink == null ? "" : "(" + sink.getClass().getSimpleName() + ")");
  }

  /**
   * Baseline: a JSON value decoded into the tree the server holds.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeJsonValue() {
    return json.decode(jsonValue, Unstructured.class);
  }

  /**
   * The protobuf value of the same object decoded into the same tree.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeProtobufValue() {
    return protobuf.decode(protobufValue, Unstructured.class);
  }

  /**
   * Baseline: the object encoded as its JSON value.
   *
   * @return the bytes
   */
  @Benchmark
  public byte[] encodeJsonValue() {
    return json.encode(object);
  }

  /**
   * The object encoded as its protobuf value.
   *
   * @return the bytes
   */
  @Benchmark
  public byte[] encodeProtobufValue() {
    return protobuf.encode(object);
  }
}
