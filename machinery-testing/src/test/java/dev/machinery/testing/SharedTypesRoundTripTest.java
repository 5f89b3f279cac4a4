package dev.machinery.testing;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every shared kind the library registers survives JSON and YAML, 200 seeds each. */
class SharedTypesRoundTripTest {
  @TestFactory
  Stream<DynamicTest> everySharedKindRoundTrips() {
    Scheme scheme = DiscoveryV2.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    return RoundTrip.forScheme(scheme).build().dynamicTests();
  }
}
