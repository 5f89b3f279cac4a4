package dev.machinery.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SemanticEqualityTest {
  public record Port(String name, int port) {}

  public record Spec(List<Port> ports, Map<String, String> labels, BigDecimal cpu) {}

  /** State in public fields and a renamed property: compared as the codecs write them. */
  public static class Fielded {
    public String name;
    private String renamed;

    @com.fasterxml.jackson.annotation.JsonProperty("wireName")
    public String getRenamed() {
      return renamed;
    }

    @com.fasterxml.jackson.annotation.JsonProperty("wireName")
    public void setRenamed(String renamed) {
      this.renamed = renamed;
    }
  }

  @Test
  void comparesWhatIsOnTheWireIncludingPublicFields() {
    Fielded a = new Fielded();
    a.name = "web";
    a.setRenamed("x");
    Fielded b = new Fielded();
    b.name = "db";
    b.setRenamed("y");
    assertEquals(
        List.of(new Difference("name", "web", "db"), new Difference("wireName", "x", "y")),
        SemanticEquality.defaults().diff(a, b));
  }

  @Test
  void namesThePathOfEveryDifferenceWithBothValues() {
    Spec a =
        new Spec(List.of(new Port("http", 80), new Port("https", 443)), Map.of("app", "web"), null);
    Spec b = new Spec(List.of(new Port("http", 8080)), Map.of("app", "db"), null);
    List<Difference> diff = SemanticEquality.defaults().diff(a, b);
    assertEquals(
        List.of(
            new Difference("ports[0].port", 80, 8080),
            new Difference("ports[1]", new Port("https", 443), null),
            new Difference("labels[app]", "web", "db")),
        diff);
    assertEquals(
        "\n  ports[0].port: 80 → 8080\n  ports[1]: Port[name=https, port=443] → null"
            + "\n  labels[app]: \"web\" → \"db\"",
        SemanticEquality.describe(diff));
  }

  @Test
  void nullEqualsEmptyUnlessStrict() {
    Spec empty = new Spec(List.of(), Map.of(), null);
    Spec absent = new Spec(null, null, null);
    assertTrue(SemanticEquality.defaults().equal(empty, absent));
    assertFalse(SemanticEquality.builder().strictEmpties().build().equal(empty, absent));
    assertTrue(SemanticEquality.defaults().equal(new Port("", 1), new Port(null, 1)));
  }

  @Test
  void overridesDecideForTheirType() {
    Spec a = new Spec(null, null, new BigDecimal("1.0"));
    Spec b = new Spec(null, null, new BigDecimal("1.00"));
    assertFalse(SemanticEquality.defaults().equal(a, b));
    assertTrue(
        SemanticEquality.builder()
            .override(BigDecimal.class, (x, y) -> x.compareTo(y) == 0)
            .build()
            .equal(a, b));
  }
}
