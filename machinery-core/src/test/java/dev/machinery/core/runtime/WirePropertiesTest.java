package dev.machinery.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.conversion.Property;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WirePropertiesTest {
  /** Every way a class puts a property on the wire, or keeps one off it. */
  public static class Mixed {
    public String plain;
    private int count;
    private String renamed;
    private String hidden;
    private final Map<String, Object> extra = new LinkedHashMap<>();

    public int getCount() {
      return count;
    }

    public void setCount(int count) {
      this.count = count;
    }

    @JsonProperty("wireName")
    public String getRenamed() {
      return renamed;
    }

    @JsonProperty("wireName")
    public void setRenamed(String renamed) {
      this.renamed = renamed;
    }

    @JsonIgnore
    public String getHidden() {
      return hidden;
    }

    @JsonIgnore
    public void setHidden(String hidden) {
      this.hidden = hidden;
    }

    /** Derived: on the wire when encoded, but not state (there is no setter). */
    @JsonIgnore
    public int getDoubled() {
      return count * 2;
    }

    @JsonAnyGetter
    public Map<String, Object> getExtra() {
      return extra;
    }

    @JsonAnySetter
    public void setExtra(String name, Object value) {
      extra.put(name, value);
    }

    public void setExtra(Map<String, Object> values) {
      extra.clear();
      extra.putAll(values);
    }
  }

  public record Pair(
      @JsonProperty("left-side") String left, @JsonIgnore String ignored, int right) {}

  /** Public fields only: a Java Beans model sees no property at all. */
  public static class FieldsV1 {
    public String name;
    public int replicas;
  }

  /** The same state in another class: a generic conversion's target. */
  public static class FieldsV2 {
    public String name;
    public int replicas;
  }

  @Test
  void namesThePropertiesAsTheCodecsWriteThem() throws Exception {
    Mixed mixed = new Mixed();
    mixed.plain = "p";
    mixed.setCount(3);
    mixed.setRenamed("r");
    mixed.setHidden("h");
    List<Property> properties = WireProperties.standard().properties(Mixed.class);
    List<String> declared =
        properties.stream()
            .filter(p -> !p.isCatchAll())
            .map(Property::name)
            .collect(Collectors.toList());
    // Jackson's own serialization is the oracle: the same names, in the same order.
    Map<?, ?> written = JsonMapper.builder().build().convertValue(mixed, Map.class);
    assertEquals(new ArrayList<>(written.keySet()), declared);
    assertEquals(List.of("plain", "count", "wireName"), declared);
    Property catchAll = properties.get(properties.size() - 1);
    assertTrue(catchAll.isCatchAll());
    assertEquals("extra", catchAll.name());
    assertEquals("r", WireProperties.standard().property(Mixed.class, "wireName").get(mixed));
    assertNull(WireProperties.standard().property(Mixed.class, "renamed"));
    assertNull(WireProperties.standard().property(Mixed.class, "hidden"));
  }

  @Test
  void recordComponentsKeepTheirConstructorPositions() {
    List<Property> properties = WireProperties.standard().properties(Pair.class);
    assertEquals(
        List.of("left-side:0", "right:2"),
        properties.stream().map(p -> p.name() + ":" + p.index()).collect(Collectors.toList()));
  }

  @Test
  void aGenericConversionInASchemeCopiesPublicFields() {
    Scheme scheme = Scheme.builder().addGenericConversion(FieldsV1.class, FieldsV2.class).build();
    FieldsV1 in = new FieldsV1();
    in.name = "web";
    in.replicas = 3;
    FieldsV2 out = scheme.converter().convert(in, FieldsV2.class);
    assertEquals("web", out.name);
    assertEquals(3, out.replicas);
  }
}
