package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupVersionKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' own serialization fixtures (kubernetes/api testdata, in machinery-test-fixtures):
 * every kind of the v1.33.0 snapshot decodes from its {@code .pb} to exactly the tree of its {@code
 * .json}, and that tree encodes to the {@code .pb}, byte for byte. The fixtures fill every field
 * with a value that is not zero, so the zero-value rule plays no part here.
 */
class KubeProtobufGoldenTest {
  private static final SchemaProtobufCodec CODEC = SchemaProtobufCodec.create(KubeProtos.v1_33());

  static Stream<String> v133() {
    return KubeFixtures.v133().stream();
  }

  @Test
  void theSnapshotHoldsEveryKindOnce() {
    assertEquals(178, KubeFixtures.v133().size());
  }

  @ParameterizedTest
  @MethodSource("v133")
  void decodesToTheJsonFixture(String name) {
    byte[] golden = KubeFixtures.bytes("v1.33.0/" + name + ".pb");
    Map<String, Object> expected = KubeFixtures.tree("v1.33.0/" + name + ".json");
    GroupVersionKind kind = KubeFixtures.kind(name);
    assertTrue(CODEC.has(kind), kind.toString());
    assertEquals(expected, CODEC.decode(golden, kind));
  }

  @ParameterizedTest
  @MethodSource("v133")
  void encodesTheJsonFixtureToTheSameBytes(String name) {
    byte[] golden = KubeFixtures.bytes("v1.33.0/" + name + ".pb");
    Map<String, Object> json = KubeFixtures.tree("v1.33.0/" + name + ".json");
    GroupVersionKind kind = KubeFixtures.kind(name);
    byte[] encoded = CODEC.encode(kind, json);
    if (kind.kind().equals("WatchEvent")) {
      // Go writes a WatchEvent with empty type meta; the rest is the same.
      encoded = withEmptyTypeMeta(encoded);
    }
    assertArrayEquals(golden, encoded);
  }

  /** The envelope with empty type meta: {@code k8s\0}, then {@code 0a 04 0a 00 12 00} and on. */
  private static byte[] withEmptyTypeMeta(byte[] envelope) {
    int typeMetaLength = envelope[5];
    byte[] out = new byte[envelope.length - typeMetaLength + 4];
    System.arraycopy(envelope, 0, out, 0, 4);
    byte[] empty = {0x0a, 0x04, 0x0a, 0x00, 0x12, 0x00};
    System.arraycopy(empty, 0, out, 4, empty.length);
    System.arraycopy(
        envelope, 6 + typeMetaLength, out, 4 + empty.length, envelope.length - 6 - typeMetaLength);
    return out;
  }

  @ParameterizedTest
  @CsvSource({"core.v1.ConfigMap", "core.v1.Event", "core.v1.Namespace"})
  void headFixturesOfKindsUnchangedSince133AreByteEqual(String name) {
    byte[] golden = KubeFixtures.bytes("HEAD/" + name + ".pb");
    Map<String, Object> json = KubeFixtures.tree("HEAD/" + name + ".json");
    assertEquals(json, CODEC.decode(golden));
    assertArrayEquals(golden, CODEC.encode(KubeFixtures.kind(name), json));
  }

  /**
   * The HEAD Deployment (July 2026) has fields added after 1.33; decoding with the 1.33 files skips
   * them as unknown fields, as Go 1.33 would, and keeps everything else; and the rest encodes to
   * Kubernetes' bytes with those fields taken out (by a wire walk of this test's own).
   */
  @Test
  void headDeploymentMatchesWithoutTheFieldsAddedAfter133() {
    Map<String, Object> expected = KubeFixtures.tree("HEAD/apps.v1.Deployment.json");
    List<String> newer = new ArrayList<>();
    String volume = "spec.template.spec.volumes[0].";
    for (String field :
        List.of(
            "emptyDir.mode",
            "secret.items[0].user",
            "secret.defaultUser",
            "downwardAPI.items[0].user",
            "downwardAPI.defaultUser",
            "configMap.items[0].user",
            "configMap.defaultUser",
            "projected.sources[0].secret.items[0].user",
            "projected.sources[0].downwardAPI.items[0].user",
            "projected.sources[0].configMap.items[0].user",
            "projected.sources[0].serviceAccountToken.user",
            "projected.sources[0].clusterTrustBundle.user",
            "projected.sources[0].podCertificate",
            "projected.defaultUser")) {
      newer.add(volume + field);
    }
    for (String containers : List.of("containers", "initContainers", "ephemeralContainers")) {
      for (String field :
          List.of(
              "env[0].valueFrom.fileKeyRef",
              "volumeMounts[0].bindMountOptions",
              "livenessProbe.httpGet.protocol",
              "livenessProbe.grpc.mode",
              "readinessProbe.httpGet.protocol",
              "readinessProbe.grpc.mode",
              "lifecycle.postStart.httpGet.protocol",
              "lifecycle.preStop.httpGet.protocol",
              "startupProbe.httpGet.protocol",
              "startupProbe.grpc.mode",
              "restartPolicyRules")) {
        newer.add("spec.template.spec." + containers + "[0]." + field);
      }
    }
    newer.addAll(
        List.of(
            "spec.template.spec.hostnameOverride",
            "spec.template.spec.schedulingGroup",
            "spec.template.spec.evictionResponders"));
    for (String path : newer) {
      remove(expected, path);
    }
    byte[] golden = KubeFixtures.bytes("HEAD/apps.v1.Deployment.pb");
    assertEquals(expected, CODEC.decode(golden));
    // And byte for byte, once the fields 1.33 does not know are taken out of Kubernetes' bytes.
    assertArrayEquals(
        withoutNewerFields(golden, "k8s.io.api.apps.v1.Deployment"),
        CODEC.encode(KubeFixtures.kind("apps.v1.Deployment"), expected));
  }

  /**
   * Kubernetes' envelope with the object's message rewritten without the fields (at any depth) that
   * the 1.33 messages do not declare; everything else is copied as it is.
   */
  private static byte[] withoutNewerFields(byte[] envelope, String message) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(envelope, 0, 4);
    int[] at = {4};
    while (at[0] < envelope.length) {
      int start = at[0];
      long tag = varint(envelope, at);
      int length = (int) varint(envelope, at);
      if (tag >>> 3 == 2) {
        byte[] filtered = filter(envelope, at[0], at[0] + length, message);
        writeVarint(out, tag);
        writeVarint(out, filtered.length);
        out.writeBytes(filtered);
      } else {
        out.write(envelope, start, at[0] + length - start);
      }
      at[0] += length;
    }
    return out.toByteArray();
  }

  private static byte[] filter(byte[] data, int from, int to, String messageName) {
    MessageDescriptor message = KubeProtos.v1_33().message(messageName).orElseThrow();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int[] at = {from};
    while (at[0] < to) {
      int start = at[0];
      long tag = varint(data, at);
      int wireType = (int) (tag & 7);
      int valueStart = at[0];
      int length = 0;
      switch (wireType) {
        case 0 -> varint(data, at);
        case 1 -> at[0] += 8;
        case 5 -> at[0] += 4;
        default -> {
          length = (int) varint(data, at);
          valueStart = at[0];
          at[0] += length;
        }
      }
      java.util.Optional<FieldDescriptor> field = message.field((int) (tag >>> 3));
      if (field.isEmpty()) {
        continue;
      }
      String nested = field.get().messageType();
      if (nested != null && wireType == 2) {
        byte[] inner =
            field.get().label() == FieldDescriptor.Label.MAP
                ? filterEntry(data, valueStart, valueStart + length, nested)
                : filter(data, valueStart, valueStart + length, nested);
        writeVarint(out, tag);
        writeVarint(out, inner.length);
        out.writeBytes(inner);
      } else {
        out.write(data, start, at[0] - start);
      }
    }
    return out.toByteArray();
  }

  /** A map entry: key 1 copied, a message value 2 filtered. */
  private static byte[] filterEntry(byte[] data, int from, int to, String valueMessage) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int[] at = {from};
    while (at[0] < to) {
      int start = at[0];
      long tag = varint(data, at);
      int length = (int) varint(data, at);
      if (tag >>> 3 == 2) {
        byte[] inner = filter(data, at[0], at[0] + length, valueMessage);
        writeVarint(out, tag);
        writeVarint(out, inner.length);
        out.writeBytes(inner);
      } else {
        out.write(data, start, at[0] + length - start);
      }
      at[0] += length;
    }
    return out.toByteArray();
  }

  private static long varint(byte[] data, int[] at) {
    long value = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = data[at[0]++];
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
  }

  private static void writeVarint(java.io.ByteArrayOutputStream out, long value) {
    while ((value & ~0x7fL) != 0) {
      out.write((int) (value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.write((int) value);
  }

  /** Removes the field at a path such as {@code a.b[0].c}; fails when there is none. */
  @SuppressWarnings("unchecked")
  private static void remove(Map<String, Object> tree, String path) {
    Object at = tree;
    String[] parts = path.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      int bracket = part.indexOf('[');
      String name = bracket < 0 ? part : part.substring(0, bracket);
      Map<String, Object> map = (Map<String, Object>) at;
      if (i == parts.length - 1) {
        assertTrue(map.containsKey(name), path);
        map.remove(name);
        return;
      }
      at = map.get(name);
      if (bracket >= 0) {
        at =
            ((List<Object>) at)
                .get(Integer.parseInt(part.substring(bracket + 1, part.length() - 1)));
      }
    }
  }
}
