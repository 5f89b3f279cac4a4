package dev.machinery.benchmarks;

import dev.machinery.testing.RoundTrip;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The Deployment sample (v1, v1beta1, internal) round-trips losslessly. */
class SampleRoundTripTest {
  @TestFactory
  Stream<DynamicTest> theDeploymentSampleRoundTrips() {
    return RoundTrip.forScheme(BenchmarkData.conversionScheme())
        .fuzzer(SampleFuzzer.create())
        .build()
        .dynamicTests();
  }
}
