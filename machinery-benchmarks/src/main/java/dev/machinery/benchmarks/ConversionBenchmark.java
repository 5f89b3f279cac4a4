package dev.machinery.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.benchmarks.apps.v1.DeploymentConversions;
import dev.machinery.conversion.ConversionScope;
import dev.machinery.conversion.Converter;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import java.io.IOException;
import java.util.Set;
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
 * Conversion and deep copy of the benchmark Deployment: generated code against a hand-written copy
 * (the limit) and the generic runtime converter; and decode + convert + encode against plain
 * Jackson decode + encode. Each group's baseline is measured in the same run; docs/performance.md
 * gives the ratios.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class ConversionBenchmark {
  private Deployment v1;
  private dev.machinery.benchmarks.apps.internal.Deployment internal;
  private Scheme scheme;
  private Converter generic;
  private ConversionScope scope;
  private byte[] json;
  private Codec decodeToInternal;
  private Codec encodeV1beta1;
  private ObjectMapper plain;

  /** Decodes the benchmark document and builds the schemes. */
  @Setup
  public void setUp() throws IOException {
    scheme = BenchmarkData.conversionScheme();
    generic = BenchmarkData.genericConverter();
    scope = scheme.converter().scope(Set.of());
    json = BenchmarkData.deploymentJson();
    CodecFactory codecs = CodecFactory.create(scheme);
    v1 = codecs.json().decode(json, Deployment.class).object();
    internal = HandWritten.toInternal(v1);
    decodeToInternal = codecs.json().decodingTo(GroupVersioner.internal());
    encodeV1beta1 = codecs.json().encodingTo(GroupVersioner.of(GroupVersion.of("apps", "v1beta1")));
    plain = new ObjectMapper();
  }

  /** v1 → internal, generated code (with the hand-written Deployment step) called directly. */
  @Benchmark
  public Object toInternalGenerated() {
    return DeploymentConversions.convertV1DeploymentToInternalDeployment(v1, scope);
  }

  /** v1 → internal, written by hand: the limit. */
  @Benchmark
  public Object toInternalHandWritten() {
    return HandWritten.toInternal(v1);
  }

  /** v1 → internal, generic runtime converter. */
  @Benchmark
  public Object toInternalGeneric() {
    return generic.convert(v1, dev.machinery.benchmarks.apps.internal.Deployment.class);
  }

  /** v1 → internal → v1beta1 with generated code, through the Converter's lookups. */
  @Benchmark
  public Object versionToVersionGenerated() {
    Converter converter = scheme.converter();
    return converter.convert(
        converter.convert(v1, dev.machinery.benchmarks.apps.internal.Deployment.class),
        dev.machinery.benchmarks.apps.v1beta1.Deployment.class);
  }

  /** v1 → internal → v1beta1 written by hand: the limit. */
  @Benchmark
  public Object versionToVersionHandWritten() {
    return HandWritten.toV1beta1(HandWritten.toInternal(v1));
  }

  /** v1 → internal → v1beta1 with the generic runtime converter. */
  @Benchmark
  public Object versionToVersionGeneric() {
    return generic.convert(
        generic.convert(v1, dev.machinery.benchmarks.apps.internal.Deployment.class),
        dev.machinery.benchmarks.apps.v1beta1.Deployment.class);
  }

  /** v1 → v1beta1 through Scheme.convertToVersion (kind lookup, hub, apiVersion/kind set). */
  @Benchmark
  public Object convertToVersion() {
    return scheme.convertToVersion(v1, GroupVersioner.of(GroupVersion.of("apps", "v1beta1")));
  }

  /** Deep copy of the v1 object, generated. */
  @Benchmark
  public Object deepCopyGenerated() {
    return dev.machinery.benchmarks.apps.v1.GeneratedDeepCopy.deepCopy(v1);
  }

  /** Deep copy of the v1 object, written by hand: the limit. */
  @Benchmark
  public Object deepCopyHandWritten() {
    return HandWritten.deepCopy(v1);
  }

  /** Decode v1 JSON into the internal form, then encode it as v1beta1. */
  @Benchmark
  public byte[] decodeConvertEncode() {
    return encodeV1beta1.encode(decodeToInternal.decode(json).object());
  }

  /** Plain Jackson: bind the v1 JSON and write it back. The baseline for the end-to-end path. */
  @Benchmark
  public byte[] plainJacksonDecodeEncode() throws IOException {
    return plain.writeValueAsBytes(plain.readValue(json, Deployment.class));
  }

  /** internal → v1, generated code (with the hand-written Deployment step) called directly. */
  @Benchmark
  public Object internalToV1Generated() {
    return DeploymentConversions.convertInternalDeploymentToV1Deployment(internal, scope);
  }
}
