package dev.machinery.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.testing.HarnessOnOwnTypesTest.InternalGear;
import dev.machinery.testing.testapi.Cogs;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Issue 11: the harness keeps to its own fuzzer's rules and reports what it finds plainly. */
class HarnessRulesTest {
  @Test
  void theShrinkerKeepsValuesThatComeFromAFuzzFunction() {
    Fuzzer fuzzer =
        Fuzzer.builder()
            .forProperty(
                InternalGear.class, "name", context -> "gear-" + context.random().nextInt(10))
            .build();
    RoundTripFailure failure =
        RoundTrip.forScheme(HarnessOnOwnTypesTest.scheme(true))
            .fuzzer(fuzzer)
            .seeds(50)
            .build()
            .check(GroupVersion.internal("gears.test").withKind("Gear"))
            .orElseThrow();
    InternalGear smallest = (InternalGear) failure.shrunk();
    assertTrue(
        smallest.getName() != null && smallest.getName().startsWith("gear-"), failure.report());
    assertEquals(null, smallest.getTags(), failure.report());
  }

  @Test
  void aDifferenceShowsTheElementsOfCollections() {
    assertEquals("tags: [\"\"] → []", new Difference("tags", List.of(""), List.of()).toString());
    assertEquals(
        "labels: {\"a\"=\"\"} → {}",
        new Difference("labels", Map.of("a", ""), Map.of()).toString());
    assertEquals(
        "x: [null, 1] → null",
        new Difference("x", java.util.Arrays.asList(null, 1), null).toString());
  }

  @Test
  void propertiesMarkedNotConvertedAreNotLosses() {
    Scheme scheme = Cogs.scheme();
    assertEquals(List.of(), RoundTrip.forScheme(scheme).seeds(50).build().run());
  }

  @Test
  void aSetterThatRejectsAFuzzedValueIsAFailureNamingSeedAndProperty() {
    Optional<RoundTripFailure> failure =
        RoundTrip.forScheme(Cogs.pickyScheme()).seeds(20).build().check(Cogs.V1.withKind("Picky"));
    assertTrue(failure.isPresent());
    String report = failure.get().report();
    assertTrue(report.contains("(seed " + failure.get().seed() + ";"), report);
    assertTrue(
        report.contains(
            "property \"size\" of dev.machinery.testing.testapi.Cogs$Picky rejected the value"),
        report);
    assertTrue(report.contains("register a FuzzFunction for it"), report);
  }

  @Test
  void manyThreadsReportTheLowestFailingSeedAsOneThreadDoes() {
    // Sizes the setter refuses about one time in forty, so several seeds fail, not the first.
    Fuzzer rarelyBad =
        Fuzzer.builder()
            .forProperty(
                Cogs.Picky.class, "size", context -> context.random().nextInt(40) == 17 ? "x" : "7")
            .build();
    RoundTripFailure alone =
        RoundTrip.forScheme(Cogs.pickyScheme())
            .fuzzer(rarelyBad)
            .seeds(200)
            .build()
            .check(Cogs.V1.withKind("Picky"))
            .orElseThrow();
    assertTrue(alone.seed() > 0, alone.report());
    for (int threads : new int[] {2, 3, 8}) {
      RoundTripFailure shared =
          RoundTrip.forScheme(Cogs.pickyScheme())
              .fuzzer(rarelyBad)
              .seeds(200)
              .parallelism(threads)
              .build()
              .check(Cogs.V1.withKind("Picky"))
              .orElseThrow();
      assertEquals(alone.seed(), shared.seed(), threads + " threads");
      assertEquals(alone.report(), shared.report(), threads + " threads");
    }
    assertEquals(
        List.of(), RoundTrip.forScheme(Cogs.scheme()).seeds(50).parallelism(2).build().run());
    assertThrows(
        IllegalArgumentException.class, () -> RoundTrip.forScheme(Cogs.scheme()).parallelism(0));
  }

  /** A holder of string lists, for the fuzzer. */
  public static final class Lists {
    private List<String> names;
    private Map<String, String> labels;

    public List<String> getNames() {
      return names;
    }

    public void setNames(List<String> names) {
      this.names = names;
    }

    public Map<String, String> getLabels() {
      return labels;
    }

    public void setLabels(Map<String, String> labels) {
      this.labels = labels;
    }
  }

  @Test
  void elementsAreNeverNullUnlessAllowed() {
    Fuzzer strict = Fuzzer.builder().nullChance(0.5).build();
    Fuzzer loose = Fuzzer.builder().nullChance(0.5).nullElements(true).build();
    boolean looseHadNull = false;
    for (long seed = 0; seed < 200; seed++) {
      Lists lists = strict.fuzz(Lists.class, new Random(seed));
      if (lists.getNames() != null) {
        assertFalse(lists.getNames().contains(null), "seed " + seed);
      }
      if (lists.getLabels() != null) {
        assertFalse(lists.getLabels().containsValue(null), "seed " + seed);
      }
      Lists other = loose.fuzz(Lists.class, new Random(seed));
      looseHadNull |= other.getNames() != null && other.getNames().contains(null);
    }
    assertTrue(looseHadNull);
  }
}
