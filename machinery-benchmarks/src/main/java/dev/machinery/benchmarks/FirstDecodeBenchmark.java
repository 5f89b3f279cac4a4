package dev.machinery.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.codec.CodecFactory;
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
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first decode in a fresh JVM: one call per fork, class loading and setup included (building
 * the scheme and codec factory for Machinery; fabric8 finds its types on the classpath).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(10)
public class FirstDecodeBenchmark {
  /** Creates the benchmark state. */
  public FirstDecodeBenchmark() {}

  /**
   * Builds the scheme and codecs and decodes the document once.
   *
   * @return the object
   */
  @Benchmark
  public Object machineryFirstDecode() {
    return CodecFactory.create(BenchmarkData.scheme())
        .json()
        .decode(BenchmarkData.deploymentJson());
  }

  /**
   * Plain Jackson's first read of the same bytes into the known class.
   *
   * @return the object
   * @throws IOException never
   */
  @Benchmark
  public Object plainJacksonFirstDecode() throws IOException {
    return new ObjectMapper()
        .readValue(
            BenchmarkData.deploymentJson(), dev.machinery.benchmarks.apps.v1.Deployment.class);
  }

  /**
   * fabric8's first decode with kind detection.
   *
   * @return the object
   * @throws IOException never
   */
  @Benchmark
  public Object fabric8FirstDecode() throws IOException {
    return new ObjectMapper().readValue(BenchmarkData.deploymentJson(), KubernetesResource.class);
  }
}
