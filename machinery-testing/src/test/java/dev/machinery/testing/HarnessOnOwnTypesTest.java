package dev.machinery.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The harness on classes written only for this test, with nothing added for it: a record-based v1,
 * a bean internal form, and hand-written conversions, one of which drops a field.
 */
class HarnessOnOwnTypesTest {
  static final GroupVersion V1 = GroupVersion.of("gears.test", "v1");

  /** The v1 form: a mutable class. */
  public static final class Gear implements ApiObject {
    private String apiVersion;
    private String kind;
    private String name;
    private int teeth;
    private List<String> tags;
    private Map<String, Long> sizes;
    private Shape shape;

    @Override
    public String getApiVersion() {
      return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
      return kind;
    }

    @Override
    public void setKind(String kind) {
      this.kind = kind;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public int getTeeth() {
      return teeth;
    }

    public void setTeeth(int teeth) {
      this.teeth = teeth;
    }

    public List<String> getTags() {
      return tags;
    }

    public void setTags(List<String> tags) {
      this.tags = tags;
    }

    public Map<String, Long> getSizes() {
      return sizes;
    }

    public void setSizes(Map<String, Long> sizes) {
      this.sizes = sizes;
    }

    public Shape getShape() {
      return shape;
    }

    public void setShape(Shape shape) {
      this.shape = shape;
    }
  }

  /** A nested record. */
  public record Shape(String outline, double ratio) {}

  /** The internal form: another mutable class. */
  public static final class InternalGear implements ApiObject {
    private String apiVersion;
    private String kind;
    private String name;
    private int teeth;
    private List<String> tags;
    private Map<String, Long> sizes;
    private Shape shape;

    @Override
    public String getApiVersion() {
      return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
      return kind;
    }

    @Override
    public void setKind(String kind) {
      this.kind = kind;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public int getTeeth() {
      return teeth;
    }

    public void setTeeth(int teeth) {
      this.teeth = teeth;
    }

    public List<String> getTags() {
      return tags;
    }

    public void setTags(List<String> tags) {
      this.tags = tags;
    }

    public Map<String, Long> getSizes() {
      return sizes;
    }

    public void setSizes(Map<String, Long> sizes) {
      this.sizes = sizes;
    }

    public Shape getShape() {
      return shape;
    }

    public void setShape(Shape shape) {
      this.shape = shape;
    }
  }

  static Scheme scheme(boolean dropTeeth) {
    return Scheme.builder()
        .addKnownType(V1.withKind("Gear"), Gear.class)
        .addKnownType(GroupVersion.internal("gears.test").withKind("Gear"), InternalGear.class)
        .addConversion(
            Gear.class,
            InternalGear.class,
            (in, scope) -> {
              InternalGear out = new InternalGear();
              out.setName(in.getName());
              out.setTeeth(in.getTeeth());
              out.setTags(in.getTags() == null ? null : new java.util.ArrayList<>(in.getTags()));
              out.setSizes(
                  in.getSizes() == null ? null : new java.util.LinkedHashMap<>(in.getSizes()));
              out.setShape(in.getShape());
              return out;
            })
        .addConversion(
            InternalGear.class,
            Gear.class,
            (in, scope) -> {
              Gear out = new Gear();
              out.setName(in.getName());
              out.setTeeth(dropTeeth ? 0 : in.getTeeth());
              out.setTags(in.getTags() == null ? null : new java.util.ArrayList<>(in.getTags()));
              out.setSizes(
                  in.getSizes() == null ? null : new java.util.LinkedHashMap<>(in.getSizes()));
              out.setShape(in.getShape());
              return out;
            })
        .build();
  }

  @Test
  void aLosslessApiPasses() {
    RoundTrip.forScheme(scheme(false)).seeds(100).build().assertLossless();
  }

  @Test
  void catchesADeliberatelyLossyConversionAndShrinksTheReport() {
    RoundTrip harness = RoundTrip.forScheme(scheme(true)).seeds(100).build();
    Optional<RoundTripFailure> failure =
        harness.check(GroupVersion.internal("gears.test").withKind("Gear"));
    assertTrue(failure.isPresent());
    RoundTripFailure found = failure.get();
    assertEquals(
        "gears.test/__internal → gears.test/v1 → JSON → gears.test/__internal", found.route());
    assertEquals(1, found.differences().size(), found.report());
    assertEquals("teeth", found.differences().get(0).path());
    assertEquals(0, found.differences().get(0).actual());
    InternalGear smallest = (InternalGear) found.shrunk();
    assertEquals(null, smallest.getName(), found.report());
    assertEquals(null, smallest.getTags());
    assertEquals(null, smallest.getShape());
    assertTrue(
        found
            .report()
            .startsWith(
                "round trip of \"gears.test/__internal, Kind=Gear\" loses data (seed "
                    + found.seed()
                    + "; replay with -Dmachinery.seed="
                    + found.seed()
                    + ")\n  route: gears.test/__internal → gears.test/v1 → JSON →"
                    + " gears.test/__internal\n  differences (expected → actual), in the smallest"
                    + " failing object:\n    teeth: "),
        found.report());
    assertEquals(
        Optional.empty(),
        RoundTrip.forScheme(scheme(true))
            .exclude(GroupKind.of("gears.test", "Gear"), "teeth are recomputed by the server")
            .seeds(10)
            .build()
            .run()
            .stream()
            .findFirst());
  }
}
