package dev.machinery.benchmarks;

import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.protobuf.KubeProtos;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.protobuf.SchemaProtobufCodec;
import java.util.Map;
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
 * The benchmark Deployment in Kubernetes' protobuf encoding against the JSON path, in the same run:
 * decode (strict JSON, with kind detection) and encode; and the same bytes read and written as a
 * JSON tree by {@link SchemaProtobufCodec} from Kubernetes' 1.33 {@code .proto} files.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ProtobufBenchmark {
  private Codec json;
  private ProtobufCodec protobuf;
  private byte[] jsonBytes;
  private byte[] protobufBytes;
  private Deployment deployment;
  private SchemaProtobufCodec trees;
  private Map<String, Object> tree;
  private static final GroupVersionKind DEPLOYMENT =
      GroupVersionKind.of("apps", "v1", "Deployment");

  /** Creates the benchmark state. */
  public ProtobufBenchmark() {}

  /** Builds the codecs and both encodings of the document once. */
  @Setup
  public void setUp() {
    json = CodecFactory.create(BenchmarkData.scheme()).json();
    protobuf = ProtobufCodec.create(BenchmarkData.scheme());
    jsonBytes = BenchmarkData.deploymentJson();
    deployment = json.decode(jsonBytes, Deployment.class).object();
    protobufBytes = protobuf.encode(deployment);
    trees = SchemaProtobufCodec.create(KubeProtos.v1_33());
    tree = trees.decode(protobufBytes);
  }

  /**
   * Baseline: the JSON codec decodes the document.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeJson() {
    return json.decode(jsonBytes).object();
  }

  /**
   * The protobuf codec decodes the same object.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeProtobuf() {
    return protobuf.decode(protobufBytes).object();
  }

  /**
   * Baseline: the JSON codec encodes the object.
   *
   * @return the bytes
   */
  @Benchmark
  public byte[] encodeJson() {
    return json.encode(deployment);
  }

  /**
   * The protobuf codec encodes the object.
   *
   * @return the bytes
   */
  @Benchmark
  public byte[] encodeProtobuf() {
    return protobuf.encode(deployment);
  }

  /**
   * The tree codec decodes the same bytes into a JSON tree.
   *
   * @return the tree
   */
  @Benchmark
  public Object decodeProtobufTree() {
    return trees.decode(protobufBytes);
  }

  /**
   * The tree codec encodes the tree.
   *
   * @return the bytes
   */
  @Benchmark
  public byte[] encodeProtobufTree() {
    return trees.encode(DEPLOYMENT, tree);
  }
}
