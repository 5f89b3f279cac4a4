package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.UnknownKindException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kubernetes' own serialization fixtures (machinery-test-fixtures, from kubernetes/api testdata):
 * the protobuf bytes decode to the same objects as the JSON, and the objects encode back to the
 * same bytes, byte for byte.
 */
class ProtobufGoldenTest {
  private static final Scheme SCHEME =
      MetaV1.addToScheme(Scheme.builder())
          .addKnownTypes(
              GroupVersion.of("", "v1"),
              CoreV1.ConfigMap.class,
              CoreV1.Namespace.class,
              CoreV1.Event.class)
          .build();
  private static final ProtobufCodec PROTOBUF = ProtobufCodec.create(SCHEME);
  private static final Codec JSON = CodecFactory.create(SCHEME).json();

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in =
        ProtobufGoldenTest.class.getResourceAsStream("/k8s-api-testdata/" + name)) {
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @CsvSource({
    "v1.33.0, core.v1.ConfigMap",
    "HEAD, core.v1.ConfigMap",
    "v1.33.0, core.v1.Namespace",
    "HEAD, core.v1.Namespace",
    "v1.33.0, core.v1.Event",
    "HEAD, core.v1.Event"
  })
  void kubernetesBytesDecodeAndEncodeBackExactly(String release, String kind) throws IOException {
    byte[] golden = fixture(release + "/" + kind + ".pb");
    Object fromProtobuf = PROTOBUF.decode(golden).object();
    Object fromJson = JSON.decode(fixture(release + "/" + kind + ".json")).object();
    assertEquals(
        new String(JSON.encode(fromJson), StandardCharsets.UTF_8),
        new String(JSON.encode(fromProtobuf), StandardCharsets.UTF_8),
        "the protobuf and the JSON fixtures hold the same object");
    assertArrayEquals(golden, PROTOBUF.encode(fromProtobuf), "re-encoded protobuf");
    assertArrayEquals(golden, PROTOBUF.encode(fromJson), "the JSON object encoded as protobuf");
  }

  @Test
  void malformedBytesAreTypedErrors() throws IOException {
    byte[] golden = fixture("v1.33.0/core.v1.ConfigMap.pb");
    assertTrue(
        assertThrows(
                DecodeException.class, () -> PROTOBUF.decode("{}".getBytes(StandardCharsets.UTF_8)))
            .getMessage()
            .contains("k8s\\0"));
    for (int cut : new int[] {5, 40, golden.length - 3}) {
      assertThrows(
          DecodeException.class,
          () -> PROTOBUF.decode(Arrays.copyOf(golden, cut)),
          "cut at " + cut);
    }
    byte[] lying = golden.clone();
    lying[21] = (byte) 0x7f; // a length larger than what is left
    assertThrows(DecodeException.class, () -> PROTOBUF.decode(lying));
    byte[] other = PROTOBUF.encode(PROTOBUF.decode(golden).object());
    // "ConfigMap" → "ConfigMaq": a kind nobody registered
    for (int i = 0; i < other.length - 9; i++) {
      if (new String(other, i, 9, StandardCharsets.ISO_8859_1).equals("ConfigMap")) {
        other[i + 8] = 'q';
        break;
      }
    }
    assertThrows(UnknownKindException.class, () -> PROTOBUF.decode(other));
  }
}
