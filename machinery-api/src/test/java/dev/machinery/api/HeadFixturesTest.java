package dev.machinery.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.FieldProblem;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.core.runtime.Scheme;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kubernetes' fixtures of a later snapshot (kubernetes/api testdata HEAD, July 2026): kinds
 * unchanged since 1.33 round-trip exactly; the Deployment's fields added after 1.33 are unknown to
 * the 1.33 models, refused strictly and reported by path otherwise, and the rest round-trips.
 */
class HeadFixturesTest {
  static final Scheme SCHEME = KubernetesApi.addToScheme(Scheme.builder()).build();
  static final CodecFactory CODECS = CodecFactory.create(SCHEME);
  static final Codec JSON = CODECS.json();
  static final KubernetesProtobuf PROTOBUF = KubernetesProtobuf.create(CODECS);

  @ParameterizedTest
  @ValueSource(strings = {"core.v1.ConfigMap", "core.v1.Event", "core.v1.Namespace"})
  void kindsUnchangedSince133RoundTripInJsonAndProtobuf(String name) {
    byte[] json = Fixtures.bytes("HEAD/" + name + ".json");
    byte[] golden = Fixtures.bytes("HEAD/" + name + ".pb");
    Object object = JSON.decode(json).object();
    assertEquals(Fixtures.tree(json), Fixtures.tree(JSON.encode(object)));
    assertArrayEquals(golden, PROTOBUF.encode(object));
    assertEquals(object, PROTOBUF.decode(golden).object());
  }

  @Test
  void theDeploymentsNewerFieldsAreUnknownByPathAndTheRestRoundTrips() {
    byte[] json = Fixtures.bytes("HEAD/apps.v1.Deployment.json");
    assertThrows(StrictDecodingException.class, () -> JSON.decode(json));
    Decoded<Object> decoded = JSON.withFieldValidation(FieldValidation.WARN).decode(json);
    List<String> unknown = decoded.warnings().stream().map(FieldProblem::path).toList();
    // 14 fields of volumes, 11 of each of the three kinds of container, 3 of the pod.
    assertEquals(50, unknown.size(), unknown.toString());
    assertTrue(unknown.contains("spec.template.spec.volumes[0].emptyDir.mode"), unknown.toString());
    assertTrue(unknown.contains("spec.template.spec.hostnameOverride"), unknown.toString());
    assertTrue(
        unknown.contains("spec.template.spec.ephemeralContainers[0].restartPolicyRules"),
        unknown.toString());
    Map<String, Object> expected = Fixtures.tree(json);
    for (String path : unknown) {
      remove(expected, path);
    }
    assertEquals(expected, Fixtures.tree(JSON.encode(decoded.object())));
  }

  /** Removes a field at a path such as {@code a.b[0].c}. */
  @SuppressWarnings("unchecked")
  private static void remove(Map<String, Object> tree, String path) {
    Object at = tree;
    String[] parts = path.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      int bracket = part.indexOf('[');
      String key = bracket < 0 ? part : part.substring(0, bracket);
      if (i == parts.length - 1 && bracket < 0) {
        assertTrue(((Map<String, Object>) at).remove(key) != null, path);
        return;
      }
      at = ((Map<String, Object>) at).get(key);
      if (bracket >= 0) {
        at =
            ((List<Object>) at)
                .get(Integer.parseInt(part.substring(bracket + 1, part.length() - 1)));
      }
    }
  }
}
