package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import dev.machinery.unversioned.resource.Quantity;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Quantity and IntOrString through the codecs: strict decoding, canonical encoding, errors. */
class ValueTypesCodecTest {
  /** A kind with the value types in fields, maps and nested places. */
  public static class Box extends TypeMeta {
    private Map<String, Quantity> limits;
    private IntOrString maxSurge;
    private IntOrString port;

    public Map<String, Quantity> getLimits() {
      return limits;
    }

    public void setLimits(Map<String, Quantity> limits) {
      this.limits = limits;
    }

    public IntOrString getMaxSurge() {
      return maxSurge;
    }

    public void setMaxSurge(IntOrString maxSurge) {
      this.maxSurge = maxSurge;
    }

    public IntOrString getPort() {
      return port;
    }

    public void setPort(IntOrString port) {
      this.port = port;
    }
  }

  private static final GroupVersion V1 = GroupVersion.of("example.com", "v1");
  private static final CodecFactory CODECS =
      CodecFactory.create(Scheme.builder().addKnownTypes(V1, Box.class).build());

  private static Box json(String body) {
    return CODECS.json().decode(body, Box.class).object();
  }

  @Test
  void decodesStringsAndBareNumbersAndWritesCanonicalForms() {
    Box box =
        json(
            "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Box\",\"limits\":{\"cpu\":\"0.5\","
                + "\"memory\":\"1.5Gi\",\"pods\":110,\"storage\":\" 1e3 \"},"
                + "\"maxSurge\":\"25%\",\"port\":8080}");
    assertEquals(Quantity.parse("500m"), box.getLimits().get("cpu"));
    assertEquals(IntOrString.ofString("25%"), box.getMaxSurge());
    assertEquals(IntOrString.ofInt(8080), box.getPort());
    assertEquals(
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Box\",\"limits\":{\"cpu\":\"500m\","
            + "\"memory\":\"1536Mi\",\"pods\":\"110\",\"storage\":\"1e3\"},"
            + "\"maxSurge\":\"25%\",\"port\":8080}",
        new String(CODECS.json().encode(box), StandardCharsets.UTF_8));
  }

  @Test
  void decodesYamlAsKubectlWritesIt() {
    String yaml =
        "apiVersion: example.com/v1\nkind: Box\nlimits:\n  cpu: 250m\n  memory: 64Mi\n"
            + "  ephemeral: 1\nmaxSurge: 25%\nport: http\n";
    Box box = CODECS.yaml().decode(yaml, Box.class).object();
    assertEquals("64Mi", box.getLimits().get("memory").toString());
    assertEquals(1, box.getLimits().get("ephemeral").value());
    assertEquals(IntOrString.ofString("http"), box.getPort());
    assertEquals(3, box.getMaxSurge().scaledValue(10, true));
  }

  @Test
  void badValuesNameTheFieldAndValue() {
    DecodeException quantity =
        assertThrows(
            DecodeException.class,
            () ->
                json(
                    "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Box\","
                        + "\"limits\":{\"cpu\":\"12 cores\"}}"));
    assertTrue(quantity.getMessage().contains("limits.cpu"), quantity.getMessage());
    assertTrue(quantity.getMessage().contains("12 cores"), quantity.getMessage());
    DecodeException notAnInt =
        assertThrows(
            DecodeException.class,
            () -> json("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Box\",\"port\":80.5}"));
    assertTrue(notAnInt.getMessage().contains("port"), notAnInt.getMessage());
    DecodeException tooBig =
        assertThrows(
            DecodeException.class,
            () ->
                json(
                    "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Box\","
                        + "\"maxSurge\":4294967296}"));
    assertTrue(tooBig.getMessage().contains("maxSurge"), tooBig.getMessage());
    DecodeException object =
        assertThrows(
            DecodeException.class,
            () ->
                json(
                    "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Box\","
                        + "\"limits\":{\"cpu\":{\"a\":1}}}"));
    assertTrue(object.getMessage().contains("limits.cpu"), object.getMessage());
  }
}
