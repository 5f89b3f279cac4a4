package dev.machinery.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import dev.machinery.unversioned.resource.Quantity;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The harness knows the value types with nothing registered: fuzzed, compared, round-tripped. */
class ValueTypesRoundTripTest {
  /** A kind holding the value types directly, in a map and in a list. */
  public static class Sizing extends TypeMeta {
    private Quantity request;
    private Map<String, Quantity> limits;
    private List<IntOrString> ports;
    private IntOrString maxSurge;

    public Quantity getRequest() {
      return request;
    }

    public void setRequest(Quantity request) {
      this.request = request;
    }

    public Map<String, Quantity> getLimits() {
      return limits;
    }

    public void setLimits(Map<String, Quantity> limits) {
      this.limits = limits;
    }

    public List<IntOrString> getPorts() {
      return ports;
    }

    public void setPorts(List<IntOrString> ports) {
      this.ports = ports;
    }

    public IntOrString getMaxSurge() {
      return maxSurge;
    }

    public void setMaxSurge(IntOrString maxSurge) {
      this.maxSurge = maxSurge;
    }
  }

  private static final Scheme SCHEME =
      Scheme.builder().addKnownTypes(GroupVersion.of("sizes.test", "v1"), Sizing.class).build();

  @Test
  void roundTripsThroughJsonAndYaml() {
    RoundTrip.forScheme(SCHEME).seeds(200).build().assertLossless();
  }

  @Test
  void fuzzesEveryFormAndTheCanonicalTextReadsBackToTheSameAmount() {
    Fuzzer fuzzer = Fuzzer.defaults();
    Random random = new Random(7);
    Set<Quantity.Format> formats = EnumSet.noneOf(Quantity.Format.class);
    for (int i = 0; i < 2_000; i++) {
      Quantity quantity = fuzzer.fuzz(Quantity.class, random);
      formats.add(quantity.format());
      Quantity read = Quantity.parse(quantity.toString());
      assertTrue(read.isSemanticallyEqual(quantity), quantity.toString());
      // A binary amount that is no whole number of Ki reads back as decimal (as in Kubernetes);
      // from then on the text is stable.
      assertEquals(read, Quantity.parse(read.toString()), quantity.toString());
    }
    assertEquals(EnumSet.allOf(Quantity.Format.class), formats);
    Sizing sizing = fuzzer.fuzz(Sizing.class, 3);
    byte[] json = CodecFactory.create(SCHEME).json().encode(sizing);
    assertFalse(new String(json, java.nio.charset.StandardCharsets.UTF_8).isEmpty());
  }

  @Test
  void quantitiesCompareByAmount() {
    SemanticEquality equality = SemanticEquality.defaults();
    assertTrue(equality.equal(Quantity.parse("1000m"), Quantity.parse("1")));
    assertTrue(equality.equal(Quantity.parse("1Ki"), Quantity.parse("1024")));
    assertFalse(equality.equal(Quantity.parse("1Ki"), Quantity.parse("1k")));
  }
}
