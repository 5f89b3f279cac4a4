package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.LimitExceededException;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Malformed and hostile bodies: each is a {@link DecodeException}, never a hang or a crash. */
class SchemaProtobufHostileTest {
  private static final SchemaProtobufCodec CODEC = SchemaProtobufCodec.create(KubeProtos.v1_33());
  private static final String PROPS =
      "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps";

  private static byte[] deployment() {
    return KubeFixtures.bytes("v1.33.0/apps.v1.Deployment.pb");
  }

  @Test
  void everyTruncationInsideTheObjectIsADecodeException() {
    byte[] golden = deployment();
    // The envelope is k8s\0, the type meta (0a, length, ...), the object's message (12, length,
    // ...), then content encoding and type (1a 00 22 00). A cut right after the type meta leaves
    // a valid envelope of an empty object; every other cut before the last four bytes is inside a
    // length-delimited field whose length no longer fits.
    int typeMetaEnd = 4 + 2 + golden[5];
    assertEquals(
        java.util.Map.of("apiVersion", "apps/v1", "kind", "Deployment"),
        CODEC.decode(Arrays.copyOf(golden, typeMetaEnd)));
    for (int cut = 0; cut < golden.length - 4; cut++) {
      if (cut == typeMetaEnd) {
        continue;
      }
      byte[] truncated = Arrays.copyOf(golden, cut);
      assertThrows(DecodeException.class, () -> CODEC.decode(truncated), "cut at " + cut);
    }
  }

  @Test
  void namesTheFieldWhereTheMessageEnds() {
    byte[] spec =
        CODEC.encodeMessage(
            "k8s.io.api.apps.v1.DeploymentSpec", java.util.Map.of("replicas", 3L, "paused", true));
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODEC.decodeMessage(
                    "k8s.io.api.apps.v1.DeploymentSpec", Arrays.copyOf(spec, spec.length - 1)));
    assertEquals("paused: the message ends inside a varint", e.getMessage());
    assertEquals("paused", e.fieldPath());
  }

  @Test
  void rejectsAHugeLength() {
    // metadata (1), length-delimited, length 2^31 - 1 with three bytes left
    byte[] body = {0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 1, 2, 3};
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> CODEC.decodeMessage("k8s.io.api.apps.v1.Deployment", body));
    assertEquals("metadata: a length of 2147483647 is more than the 3 bytes left", e.getMessage());
  }

  @Test
  void rejectsAWrongWireType() {
    byte[] body = {0x12, 0x02, 0x08, 0x01, 0x08, 0x05};
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> CODEC.decodeMessage("k8s.io.api.apps.v1.Deployment", body));
    assertEquals("metadata: expected wire type 2, found 0", e.getMessage());
    byte[] group = {(byte) 0x9b, 0x06};
    assertEquals(
        "<field 99>: unsupported wire type 3",
        assertThrows(
                DecodeException.class,
                () -> CODEC.decodeMessage("k8s.io.api.apps.v1.Deployment", group))
            .getMessage());
  }

  @Test
  void rejectsAStringThatIsNotUtf8() {
    // ObjectMeta.name (1) holding the bytes ff fe
    byte[] meta = {0x0a, 0x02, (byte) 0xff, (byte) 0xfe};
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> CODEC.decodeMessage("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta", meta));
    assertEquals("name: a string is not valid UTF-8", e.getMessage());
  }

  @Test
  void rejectsAPackedRunThatEndsInsideANumber() {
    // PodFailurePolicyOnExitCodesRequirement.values (3), packed: 01, then a varint cut short
    byte[] body = {0x1a, 0x02, 0x01, (byte) 0x80};
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODEC.decodeMessage(
                    "k8s.io.api.batch.v1.PodFailurePolicyOnExitCodesRequirement", body));
    assertEquals("values: the message ends inside a varint", e.getMessage());
  }

  @Test
  void readsAMapEntryWithoutKeyOrValueAsGoDoes() {
    // ObjectMeta.labels (11): an entry with no key, an entry with key "k" and no value
    byte[] meta = {0x5a, 0x02, 0x12, 0x00, 0x5a, 0x03, 0x0a, 0x01, 'k'};
    assertEquals(
        java.util.Map.of("labels", java.util.Map.of("", "", "k", "")),
        CODEC.decodeMessage("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta", meta));
  }

  @Test
  void stopsDeepNestingAtTheLimit() {
    // JSONSchemaProps.not (28) nested 5,000 times.
    byte[] nested = new byte[0];
    for (int i = 0; i < 5000; i++) {
      ProtoWriter writer = new ProtoWriter();
      writer.bytesField(28, nested);
      nested = writer.toByteArray();
    }
    byte[] body = nested;
    LimitExceededException e =
        assertThrows(LimitExceededException.class, () -> CODEC.decodeMessage(PROPS, body));
    assertEquals("maxNestingDepth", e.limit());
    assertTrue(e.getMessage().endsWith(": messages are nested deeper than 1000"), e.getMessage());
    assertTrue(e.fieldPath().startsWith("not.not.not."), e.fieldPath());
  }

  @Test
  void stopsDeeplyNestedEmbeddedJson() {
    String deep = "[".repeat(3000) + "]".repeat(3000);
    ProtoWriter json = new ProtoWriter();
    json.bytesField(1, deep.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    ProtoWriter props = new ProtoWriter();
    props.bytesField(8, json.toByteArray());
    DecodeException e =
        assertThrows(DecodeException.class, () -> CODEC.decodeMessage(PROPS, props.toByteArray()));
    assertTrue(
        e.getMessage().startsWith("default: the embedded JSON does not parse"), e.getMessage());
  }

  @Test
  void rejectsABodyOverTheSizeLimit() {
    SchemaProtobufCodec small =
        SchemaProtobufCodec.create(KubeProtos.v1_33(), CodecLimits.DEFAULTS.withMaxJsonBytes(100));
    LimitExceededException e =
        assertThrows(LimitExceededException.class, () -> small.decode(deployment()));
    assertEquals("maxJsonBytes", e.limit());
  }

  @Test
  void rejectsABodyWithoutThePrefix() {
    assertEquals(
        "the body does not start with the Kubernetes protobuf prefix k8s\\0",
        assertThrows(DecodeException.class, () -> CODEC.decode(new byte[] {'{', '}'}))
            .getMessage());
  }

  @Test
  void rejectsTimesGoCannotWrite() {
    ProtoWriter time = new ProtoWriter();
    time.varintField(1, 300_000_000_000L);
    ProtoWriter meta = new ProtoWriter();
    meta.bytesField(8, time.toByteArray());
    assertEquals(
        "creationTimestamp: the time is in the year 11476, outside 0 to 9999",
        assertThrows(
                DecodeException.class,
                () ->
                    CODEC.decodeMessage(
                        "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta", meta.toByteArray()))
            .getMessage());
  }

  @Test
  void randomBytesAndMutatedFixturesAreDecodedOrRejected() {
    GroupVersionKind kind = GroupVersionKind.of("apps", "v1", "Deployment");
    byte[] golden = deployment();
    for (long seed = 1; seed <= 400; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      byte[] mutated = golden.clone();
      for (int flips = 1 + random.nextInt(8); flips > 0; flips--) {
        mutated[4 + random.nextInt(mutated.length - 4)] = (byte) random.nextInt(256);
      }
      decodeOrReject(mutated, kind, seed);
      byte[] noise = new byte[4 + random.nextInt(2000)];
      random.nextBytes(noise);
      System.arraycopy(Envelope.MAGIC, 0, noise, 0, 4);
      decodeOrReject(noise, kind, seed);
    }
  }

  private static void decodeOrReject(byte[] body, GroupVersionKind kind, long seed) {
    try {
      CODEC.decode(body, kind);
    } catch (DecodeException e) {
      assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), "seed " + seed);
    } catch (RuntimeException e) {
      throw new AssertionError("seed " + seed + ": " + e, e);
    }
  }
}
