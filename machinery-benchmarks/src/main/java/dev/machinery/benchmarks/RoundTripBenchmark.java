package dev.machinery.benchmarks;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.testing.RoundTrip;
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

/**
 * The round-trip harness on the Deployment sample: fuzz, convert, encode and decode as JSON and
 * YAML, convert back, compare. Every operation covers the same 100 seeds and every score is per
 * seed. One seed of {@code internalKind} is four round trips (two versions × two formats); one of
 * {@code externalKind} is three (JSON, YAML, and through the internal form).
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@OperationsPerInvocation(RoundTripBenchmark.SEEDS)
public class RoundTripBenchmark {
  static final int SEEDS = 100;
  private static final GroupVersionKind INTERNAL =
      GroupVersion.internal("apps").withKind("Deployment");
  private static final GroupVersionKind V1 = BenchmarkData.APPS_V1.withKind("Deployment");

  private RoundTrip harness;

  /** Builds the harness. */
  @Setup
  public void setUp() {
    harness =
        RoundTrip.forScheme(BenchmarkData.conversionScheme())
            .fuzzer(SampleFuzzer.create())
            .seeds(SEEDS)
            .build();
  }

  /**
   * The seeds of the internal kind.
   *
   * @return the result, for JMH
   */
  @Benchmark
  public Object internalKind() {
    return harness.check(INTERNAL);
  }

  /**
   * The seeds of the v1 kind.
   *
   * @return the result, for JMH
   */
  @Benchmark
  public Object externalKind() {
    return harness.check(V1);
  }
}
