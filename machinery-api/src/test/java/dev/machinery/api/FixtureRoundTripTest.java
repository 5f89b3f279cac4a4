package dev.machinery.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' own fully populated serialization fixtures (kubernetes/api testdata v1.33.0, in
 * machinery-test-fixtures) of every kind the OpenAPI document names: the JSON decodes strictly into
 * the typed class and encodes back to the same JSON tree; the typed object encodes to Kubernetes'
 * protobuf bytes, byte for byte, and those bytes decode to the same object.
 */
class FixtureRoundTripTest {
  static final Scheme SCHEME = KubernetesApi.addToScheme(Scheme.builder()).build();
  static final CodecFactory CODECS = CodecFactory.create(SCHEME);
  static final Codec JSON = CODECS.json();
  static final KubernetesProtobuf PROTOBUF = KubernetesProtobuf.create(CODECS);

  /**
   * One fixture of the document's kinds is apart: {@code core.v1.WatchEvent}, which is no kind of
   * the Scheme (see {@link KubernetesApi#addToScheme}).
   */
  static final List<String> APART = List.of("core.v1.WatchEvent");

  static Stream<String> builtIn() {
    return Fixtures.builtIn().stream().filter(name -> !APART.contains(name));
  }

  /**
   * 93 of the snapshot's 178 fixtures name a kind of the 1.33 document; the others are kinds and
   * versions Kubernetes 1.33 no longer serves (extensions/v1beta1, apps/v1beta2, ...) or that its
   * document does not list (AdmissionReview, the options of the core group).
   */
  @Test
  void theSnapshotHoldsNinetyThreeBuiltInKinds() {
    assertEquals(178, Fixtures.v133().size());
    assertEquals(93, Fixtures.builtIn().size());
    assertTrue(Fixtures.builtIn().containsAll(APART));
    assertEquals(92, builtIn().count());
  }

  @Test
  void aZeroTimeInATypedMapIsReadAsGoReadsItAndWrittenBackAsNull() {
    // Go writes the zero metav1.Time as null, also as a value of map[string]metav1.Time.
    Decoded<Object> decoded =
        JSON.decode(Fixtures.bytes("v1.33.0/policy.v1.PodDisruptionBudget.json"));
    dev.machinery.api.policy.v1.PodDisruptionBudget budget =
        (dev.machinery.api.policy.v1.PodDisruptionBudget) decoded.object();
    assertTrue(budget.getStatus().getDisruptedPods().containsKey("disruptedPodsKey"));
    assertEquals(null, budget.getStatus().getDisruptedPods().get("disruptedPodsKey"));
    Map<String, Object> written = Fixtures.tree(JSON.encode(budget));
    @SuppressWarnings("unchecked")
    Map<String, Object> status = (Map<String, Object>) written.get("status");
    assertEquals(
        java.util.Collections.singletonMap("disruptedPodsKey", null), status.get("disruptedPods"));
  }

  @ParameterizedTest
  @MethodSource("builtIn")
  void jsonDecodesStrictlyIntoTheTypedClassAndEncodesToTheSameTree(String name) {
    byte[] json = Fixtures.bytes("v1.33.0/" + name + ".json");
    GroupVersionKind kind = Fixtures.kind(name);
    Decoded<Object> decoded = JSON.decode(json);
    assertEquals(kind, decoded.kind());
    assertEquals(SCHEME.typeFor(kind).orElseThrow(), decoded.object().getClass());
    assertTrue(decoded.warnings().isEmpty(), decoded.warnings().toString());
    Map<String, Object> expected = Fixtures.tree(json);
    assertEquals(expected, Fixtures.tree(JSON.encode(decoded.object())));
    // Decoding what was written gives an equal object.
    assertEquals(decoded.object(), JSON.decode(JSON.encode(decoded.object())).object());
  }

  @ParameterizedTest
  @MethodSource("builtIn")
  void protobufEncodesToKubernetesBytesAndDecodesToTheSameObject(String name) {
    GroupVersionKind kind = Fixtures.kind(name);
    assertTrue(PROTOBUF.supports(kind), kind.toString());
    byte[] golden = Fixtures.bytes("v1.33.0/" + name + ".pb");
    Object fromJson = JSON.decode(Fixtures.bytes("v1.33.0/" + name + ".json")).object();
    assertArrayEquals(golden, PROTOBUF.encode(fromJson), "encoded as protobuf");
    Decoded<Object> fromProtobuf = PROTOBUF.decode(golden);
    assertEquals(kind, fromProtobuf.kind());
    assertEquals(fromJson, fromProtobuf.object());
  }
}
