package dev.machinery.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.testing.Fuzzer;
import dev.machinery.testing.RoundTrip;
import dev.machinery.testing.SemanticEquality;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The round-trip harness on a real model: fabric8's {@code apps/v1} Deployment, registered as it
 * is. Every operation covers the same 100 seeds (objects from under 1 KB to over 20 KB), and every
 * score is per seed: {@code harness} is one seed through the whole harness (fuzz, encode and decode
 * as JSON and as YAML, compare both: two round trips); the other benchmarks are its parts alone.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@OperationsPerInvocation(Fabric8RoundTripBenchmark.SEEDS)
public class Fabric8RoundTripBenchmark {
  static final int SEEDS = 100;
  private static final GroupVersionKind KIND = GroupVersion.of("apps", "v1").withKind("Deployment");

  private RoundTrip harness;
  private RoundTrip harnessOnTwoThreads;
  private Fuzzer fuzzer;
  private SemanticEquality equality;
  private Codec json;
  private Codec yaml;
  private Deployment[] samples;
  private Deployment[] copies;
  private byte[][] jsonBytes;
  private byte[][] yamlBytes;
  private ObjectMapper plainJson;
  private ObjectMapper plainYaml;

  /** Builds the harness and the 100 fuzzed objects, each with an equal copy and its encodings. */
  @Setup
  public void setUp() {
    Scheme scheme =
        Scheme.builder().addKnownTypes(GroupVersion.of("apps", "v1"), Deployment.class).build();
    fuzzer = fabric8Fuzzer();
    harness = RoundTrip.forScheme(scheme).fuzzer(fuzzer).seeds(SEEDS).build();
    harnessOnTwoThreads =
        RoundTrip.forScheme(scheme).fuzzer(fuzzer).seeds(SEEDS).parallelism(2).build();
    equality = SemanticEquality.defaults();
    CodecFactory codecs = CodecFactory.create(scheme);
    json = codecs.json();
    yaml = codecs.yaml();
    plainJson = new ObjectMapper();
    plainYaml = new YAMLMapper();
    samples = new Deployment[SEEDS];
    copies = new Deployment[SEEDS];
    jsonBytes = new byte[SEEDS][];
    yamlBytes = new byte[SEEDS][];
    for (int seed = 0; seed < SEEDS; seed++) {
      samples[seed] = fuzzer.fuzz(Deployment.class, seed);
      copies[seed] = fuzzer.fuzz(Deployment.class, seed);
      samples[seed].setApiVersion("apps/v1");
      samples[seed].setKind("Deployment");
      jsonBytes[seed] = json.encode(samples[seed]);
      yamlBytes[seed] = yaml.encode(samples[seed]);
    }
  }

  /**
   * The fuzzer a fabric8 user writes: fabric8's value types have canonical forms, which the rules
   * cannot guess (its {@code IntOrString} refuses to hold neither), and its {@code OwnerReference}
   * defaults {@code apiVersion} and {@code kind}, so a fuzzed {@code null} would not survive.
   *
   * @return the fuzzer
   */
  static Fuzzer fabric8Fuzzer() {
    return Fuzzer.builder()
        .forType(
            IntOrString.class,
            context ->
                context.random().nextBoolean()
                    ? new IntOrString(context.random().nextInt(65536))
                    : new IntOrString(context.random().nextInt(101) + "%"))
        .forType(
            Quantity.class,
            context ->
                new Quantity(
                    (context.random().nextInt(4000) + 1)
                        + List.of("m", "", "Mi", "Gi", "k").get(context.random().nextInt(5))))
        .forProperty(OwnerReference.class, "apiVersion", context -> context.string())
        .forProperty(OwnerReference.class, "kind", context -> context.string())
        .build();
  }

  /**
   * The whole harness.
   *
   * @return the result, for JMH
   */
  @Benchmark
  public Object harness() {
    return harness.check(KIND);
  }

  /**
   * The whole harness, its seeds shared between two threads ({@code parallelism(2)}).
   *
   * @return the result, for JMH
   */
  @Benchmark
  public Object harnessOnTwoThreads() {
    return harnessOnTwoThreads.check(KIND);
  }

  /**
   * Fuzzing.
   *
   * @param sink JMH's sink
   */
  @Benchmark
  public void fuzz(Blackhole sink) {
    for (int seed = 0; seed < SEEDS; seed++) {
      sink.consume(fuzzer.fuzz(Deployment.class, new Random(seed)));
    }
  }

  /**
   * Comparing equal objects.
   *
   * @param sink JMH's sink
   */
  @Benchmark
  public void diff(Blackhole sink) {
    for (int seed = 0; seed < SEEDS; seed++) {
      sink.consume(equality.diff(samples[seed], copies[seed]));
    }
  }

  /**
   * A JSON round trip: encode, then decode strictly.
   *
   * @param sink JMH's sink
   */
  @Benchmark
  public void jsonRoundTrip(Blackhole sink) {
    for (int seed = 0; seed < SEEDS; seed++) {
      sink.consume(json.decode(json.encode(samples[seed]), Deployment.class));
    }
  }

  /**
   * A YAML round trip: encode, then decode strictly.
   *
   * @param sink JMH's sink
   */
  @Benchmark
  public void yamlRoundTrip(Blackhole sink) {
    for (int seed = 0; seed < SEEDS; seed++) {
      sink.consume(yaml.decode(yaml.encode(samples[seed]), Deployment.class));
    }
  }

  /**
   * Baseline: a JSON round trip through a default Jackson {@code ObjectMapper} (no kind detection,
   * no validation, no limits).
   *
   * @param sink JMH's sink
   * @throws Exception never, for JMH
   */
  @Benchmark
  public void plainJacksonJsonRoundTrip(Blackhole sink) throws Exception {
    for (int seed = 0; seed < SEEDS; seed++) {
      sink.consume(
          plainJson.readValue(plainJson.writeValueAsBytes(samples[seed]), Deployment.class));
    }
  }

  /**
   * Baseline: a YAML round trip through a default Jackson {@code YAMLMapper}.
   *
   * @param sink JMH's sink
   * @throws Exception never, for JMH
   */
  @Benchmark
  public void plainJacksonYamlRoundTrip(Blackhole sink) throws Exception {
    for (int seed = 0; seed < SEEDS; seed++) {
      sink.consume(
          plainYaml.readValue(plainYaml.writeValueAsBytes(samples[seed]), Deployment.class));
    }
  }

  /**
   * YAML encoding alone.
   *
   * @param sink JMH's sink
   */
  @Benchmark
  public void yamlEncode(Blackhole sink) {
    for (int seed = 0; seed < SEEDS; seed++) {
      sink.consume(yaml.encode(samples[seed]));
    }
  }

  /**
   * YAML decoding alone.
   *
   * @param sink JMH's sink
   */
  @Benchmark
  public void yamlDecode(Blackhole sink) {
    for (int seed = 0; seed < SEEDS; seed++) {
      sink.consume(yaml.decode(yamlBytes[seed], Deployment.class));
    }
  }

  /**
   * The encoded sizes, for the docs.
   *
   * @return the mean JSON size in bytes
   */
  public double meanJsonBytes() {
    long total = 0;
    for (byte[] bytes : jsonBytes) {
      total += bytes.length;
    }
    return (double) total / SEEDS;
  }
}
