package com.example.widgets;

import dev.machinery.testing.RoundTrip;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The one-line harness: every kind of the scheme survives conversion and encoding. */
class RoundTripTest {
  @TestFactory
  Stream<DynamicTest> everyKindRoundTrips() {
    return RoundTrip.forScheme(WidgetApi.scheme()).build().dynamicTests();
  }
}
