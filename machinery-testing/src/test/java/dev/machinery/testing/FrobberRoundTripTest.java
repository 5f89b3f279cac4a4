package dev.machinery.testing;

import dev.machinery.core.testapi.frobber.FrobberApi;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The Frobber API of api-changes.md (machinery-core's test API) round-trips through v6 and v7beta1.
 * v6 needs the fuzz functions Kubernetes' guide asks for: the inch twins come from the defaulting
 * pass, and extra params only follow a first param.
 */
class FrobberRoundTripTest {
  static Fuzzer fuzzer() {
    return Fuzzer.builder()
        .forType(
            dev.machinery.core.testapi.frobber.v6.Frobber.class,
            context -> {
              dev.machinery.core.testapi.frobber.v6.Frobber frobber =
                  context.fuzzByRules(dev.machinery.core.testapi.frobber.v6.Frobber.class);
              frobber.setHeightInInches(null);
              frobber.setWidthInInches(null);
              if (frobber.getHeight() == null) {
                frobber.setHeight(context.random().nextInt());
              }
              if (frobber.getWidth() == null) {
                frobber.setWidth(context.random().nextInt());
              }
              if (frobber.getParam() == null) {
                frobber.setExtraParams(null);
              } else if (frobber.getExtraParams() != null && frobber.getExtraParams().isEmpty()) {
                frobber.setExtraParams(null);
              }
              return frobber;
            })
        .forProperty(
            dev.machinery.core.testapi.frobber.internal.Frobber.class,
            "params",
            context -> {
              List<String> params = new ArrayList<>();
              for (int i = context.random().nextInt(4); i > 0; i--) {
                params.add(context.string());
              }
              return params.isEmpty() ? null : params;
            })
        .build();
  }

  @TestFactory
  Stream<DynamicTest> everyFrobberKindRoundTrips() {
    return RoundTrip.forScheme(FrobberApi.scheme()).fuzzer(fuzzer()).build().dynamicTests();
  }
}
