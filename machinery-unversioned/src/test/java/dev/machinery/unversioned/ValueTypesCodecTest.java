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

  /** A user's kind with plain java.time fields and no annotation, and the meta/v1 time values. */
  public static class Schedule extends TypeMeta {
    private java.time.Instant at;
    private java.time.OffsetDateTime local;
    private java.time.Duration every;
    private dev.machinery.unversioned.meta.v1.Time created;
    private dev.machinery.unversioned.meta.v1.MicroTime renewed;
    private dev.machinery.unversioned.meta.v1.Duration timeout;

    public java.time.Instant getAt() {
      return at;
    }

    public void setAt(java.time.Instant at) {
      this.at = at;
    }

    public java.time.OffsetDateTime getLocal() {
      return local;
    }

    public void setLocal(java.time.OffsetDateTime local) {
      this.local = local;
    }

    public java.time.Duration getEvery() {
      return every;
    }

    public void setEvery(java.time.Duration every) {
      this.every = every;
    }

    public dev.machinery.unversioned.meta.v1.Time getCreated() {
      return created;
    }

    public void setCreated(dev.machinery.unversioned.meta.v1.Time created) {
      this.created = created;
    }

    public dev.machinery.unversioned.meta.v1.MicroTime getRenewed() {
      return renewed;
    }

    public void setRenewed(dev.machinery.unversioned.meta.v1.MicroTime renewed) {
      this.renewed = renewed;
    }

    public dev.machinery.unversioned.meta.v1.Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(dev.machinery.unversioned.meta.v1.Duration timeout) {
      this.timeout = timeout;
    }
  }

  private static final GroupVersion V1 = GroupVersion.of("example.com", "v1");
  private static final CodecFactory CODECS =
      CodecFactory.create(Scheme.builder().addKnownTypes(V1, Box.class, Schedule.class).build());

  @Test
  void timesAndDurationsNeedNoAnnotation() {
    String json =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Schedule\","
            + "\"at\":\"2024-05-01T14:00:00.25+02:00\",\"local\":\"2024-05-01T14:00:00+02:00\","
            + "\"every\":\"1h30m\",\"created\":\"2024-05-01T12:00:00.9Z\","
            + "\"renewed\":\"2024-05-01T12:00:00.123456789Z\",\"timeout\":\"90s\"}";
    Schedule schedule = CODECS.json().decode(json, Schedule.class).object();
    assertEquals(java.time.Instant.parse("2024-05-01T12:00:00.25Z"), schedule.getAt());
    assertEquals(java.time.Duration.ofMinutes(90), schedule.getEvery());
    assertEquals(
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Schedule\","
            + "\"at\":\"2024-05-01T12:00:00.25Z\",\"local\":\"2024-05-01T14:00:00+02:00\","
            + "\"every\":\"1h30m0s\",\"created\":\"2024-05-01T12:00:00Z\","
            + "\"renewed\":\"2024-05-01T12:00:00.123456Z\",\"timeout\":\"1m30s\"}",
        new String(CODECS.json().encode(schedule), StandardCharsets.UTF_8));
    DecodeException bad =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .json()
                    .decode(
                        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Schedule\","
                            + "\"every\":\"soon\"}",
                        Schedule.class));
    assertTrue(bad.getMessage().contains("every"), bad.getMessage());
    assertTrue(bad.getMessage().contains("soon"), bad.getMessage());
  }

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
