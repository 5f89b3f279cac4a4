package dev.machinery.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.FieldValidation;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.io.IOException;
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
 * Decoding and encoding the benchmark Deployment: Machinery's codec (kind detection, field
 * validation, limits) against plain Jackson reading the same bytes into the known class, and
 * against fabric8's kubernetes-model decoding a Kubernetes Deployment of the same shape.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class CodecBenchmark {
  private byte[] typeFirst;
  private byte[] typeLast;
  private byte[] yaml;
  private ObjectMapper plain;
  private ObjectMapper plainLimited;
  private ObjectMapper plainYaml;
  private Codec strict;
  private Codec warn;
  private Codec ignore;
  private Codec yamlCodec;
  private Deployment deployment;
  private ObjectMapper fabric8;
  private io.fabric8.kubernetes.api.model.apps.Deployment fabric8Deployment;

  /** Creates the benchmark state. */
  public CodecBenchmark() {}

  /**
   * Reads the document and builds every decoder once.
   *
   * @throws IOException never, for in-memory data
   */
  @Setup
  public void setUp() throws IOException {
    typeFirst = BenchmarkData.deploymentJson();
    typeLast = BenchmarkData.deploymentJsonTypeLast();
    plain = new ObjectMapper();
    CodecLimits limits = CodecLimits.DEFAULTS;
    plainLimited =
        new ObjectMapper(
            com.fasterxml.jackson.core.JsonFactory.builder()
                .streamReadConstraints(
                    com.fasterxml.jackson.core.StreamReadConstraints.builder()
                        .maxDocumentLength(limits.maxJsonBytes())
                        .maxNestingDepth(limits.maxNestingDepth())
                        .maxStringLength(limits.maxStringLength())
                        .maxNumberLength(limits.maxNumberLength())
                        .maxNameLength(limits.maxNameLength())
                        .maxTokenCount(limits.maxTokenCount())
                        .build())
                .build());
    plainYaml = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper();
    CodecFactory codecs = CodecFactory.create(BenchmarkData.scheme());
    strict = codecs.json();
    warn = strict.withFieldValidation(FieldValidation.WARN);
    ignore = strict.withFieldValidation(FieldValidation.IGNORE);
    yamlCodec = codecs.yaml();
    deployment = (Deployment) strict.decode(typeFirst).object();
    yaml = codecs.yaml().encode(deployment);
    fabric8 = new ObjectMapper();
    fabric8Deployment =
        fabric8.readValue(typeFirst, io.fabric8.kubernetes.api.model.apps.Deployment.class);
  }

  /**
   * Baseline: plain Jackson into the known class.
   *
   * @return the object
   * @throws IOException never
   */
  @Benchmark
  public Object decodePlainJackson() throws IOException {
    return plain.readValue(typeFirst, Deployment.class);
  }

  /**
   * Plain Jackson into the known class, with the library's default limits on its factory: the cost
   * of the limits alone.
   *
   * @return the object
   * @throws IOException never
   */
  @Benchmark
  public Object decodePlainJacksonWithLimits() throws IOException {
    return plainLimited.readValue(typeFirst, Deployment.class);
  }

  /**
   * Kind detection, strict field validation (the default).
   *
   * @return the object
   */
  @Benchmark
  public Object decodeStrict() {
    return strict.decode(typeFirst).object();
  }

  /**
   * Kind detection, warnings collected.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeWarn() {
    return warn.decode(typeFirst).object();
  }

  /**
   * Kind detection, unknown and duplicate fields ignored.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeIgnore() {
    return ignore.decode(typeFirst).object();
  }

  /**
   * Baseline for the type-last document: plain Jackson into the known class.
   *
   * @return the object
   * @throws IOException never
   */
  @Benchmark
  public Object decodeTypeLastPlainJackson() throws IOException {
    return plain.readValue(typeLast, Deployment.class);
  }

  /**
   * Kind detection when apiVersion and kind come last (token-buffer path), strict.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeTypeLastStrict() {
    return strict.decode(typeLast).object();
  }

  /**
   * Kind detection when apiVersion and kind come last, unknown and duplicate fields ignored.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeTypeLastIgnore() {
    return ignore.decode(typeLast).object();
  }

  /**
   * Baseline: plain Jackson writing the known class.
   *
   * @return the bytes
   * @throws IOException never
   */
  @Benchmark
  public byte[] encodePlainJackson() throws IOException {
    return plain.writeValueAsBytes(deployment);
  }

  /**
   * Machinery's encoder: kind from the scheme, apiVersion and kind first.
   *
   * @return the bytes
   */
  @Benchmark
  public byte[] encode() {
    return strict.encode(deployment);
  }

  /**
   * Peer: fabric8's model, typed decode of the same bytes.
   *
   * @return the object
   * @throws IOException never
   */
  @Benchmark
  public Object decodeFabric8() throws IOException {
    return fabric8.readValue(typeFirst, io.fabric8.kubernetes.api.model.apps.Deployment.class);
  }

  /**
   * Peer: fabric8's model with its own kind detection ({@code KubernetesResource}).
   *
   * @return the object
   * @throws IOException never
   */
  @Benchmark
  public Object decodeFabric8KindDetection() throws IOException {
    return fabric8.readValue(typeFirst, KubernetesResource.class);
  }

  /**
   * Peer: fabric8's model, encode.
   *
   * @return the bytes
   * @throws IOException never
   */
  @Benchmark
  public byte[] encodeFabric8() throws IOException {
    return fabric8.writeValueAsBytes(fabric8Deployment);
  }

  /**
   * Baseline: plain jackson-dataformat-yaml into the known class.
   *
   * @return the object
   * @throws IOException never
   */
  @Benchmark
  public Object decodeYamlPlainJackson() throws IOException {
    return plainYaml.readValue(yaml, Deployment.class);
  }

  /**
   * Machinery's YAML decoder (YAML 1.2 core schema, aliases under a budget), strict.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeYamlStrict() {
    return yamlCodec.decode(yaml).object();
  }
}
