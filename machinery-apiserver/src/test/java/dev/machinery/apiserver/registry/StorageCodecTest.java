package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The values a resource's objects are stored as: Kubernetes' own serialization fixtures (the bytes
 * kube-apiserver writes to etcd for each kind, from machinery-test-fixtures) read into the object
 * of their JSON fixture whatever the server writes, and written back byte for byte when the server
 * stores protobuf; JSON values read on a protobuf server and the reverse; what counts as the same
 * stored object.
 */
class StorageCodecTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Scheme SCHEME =
      RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
  private static final Codec CODEC = CodecFactory.create(SCHEME).json();

  private static byte[] fixture(String name) {
    try (InputStream in =
        StorageCodecTest.class.getResourceAsStream("/k8s-api-testdata/v1.33.0/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no fixture " + name + " in machinery-test-fixtures");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code apps.v1.Deployment} is {@code apps/v1, Kind=Deployment}; {@code core} is the core group.
   */
  private static GroupVersionKind kind(String name) {
    String[] parts = name.split("\\.");
    String kind = parts[parts.length - 1];
    String version = parts[parts.length - 2];
    String group = String.join(".", java.util.Arrays.copyOf(parts, parts.length - 2));
    return GroupVersionKind.of(group.equals("core") ? "" : group, version, kind);
  }

  private static JsonNode tree(byte[] json) throws IOException {
    return JSON.readTree(json);
  }

  private static JsonNode tree(Object object) throws IOException {
    return JSON.readTree(CODEC.encode(object));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "core.v1.ConfigMap",
        "core.v1.Secret",
        "core.v1.Pod",
        "core.v1.Service",
        "core.v1.Namespace",
        "core.v1.Node",
        "core.v1.Endpoints",
        "core.v1.ServiceAccount",
        "core.v1.PersistentVolumeClaim",
        "apps.v1.Deployment",
        "apps.v1.StatefulSet",
        "apps.v1.DaemonSet",
        "batch.v1.Job",
        "batch.v1.CronJob",
        "rbac.authorization.k8s.io.v1.Role",
        "rbac.authorization.k8s.io.v1.ClusterRoleBinding",
        "coordination.k8s.io.v1.Lease",
        "networking.k8s.io.v1.Ingress",
        "policy.v1.PodDisruptionBudget",
        "autoscaling.v2.HorizontalPodAutoscaler",
        "admissionregistration.k8s.io.v1.ValidatingWebhookConfiguration"
      })
  void kubeApiserversBytesReadAsTheJsonFixtureAndAreWrittenBackByteForByte(String name)
      throws IOException {
    GroupVersionKind kind = kind(name);
    byte[] pb = fixture(name + ".pb");
    JsonNode expected = tree(fixture(name + ".json"));
    StorageCodec protobuf = StorageCodec.of(StorageMediaType.PROTOBUF, CODEC, kind);
    assertEquals(StorageMediaType.PROTOBUF, protobuf.mediaType());
    Unstructured object = protobuf.decode(pb, Unstructured.class);
    assertEquals(expected, tree(object));
    assertArrayEquals(pb, protobuf.encode(object), "kube-apiserver's bytes, written again");
    // A server storing JSON reads them the same, and writes the JSON.
    StorageCodec json = StorageCodec.of(StorageMediaType.JSON, CODEC, kind);
    assertEquals(expected, tree(json.decode(pb, Unstructured.class)));
    byte[] written = json.encode(object);
    assertFalse(StorageCodec.isProtobuf(written));
    assertEquals(expected, tree(written));
    // And a protobuf server reads the JSON back.
    assertEquals(expected, tree(protobuf.decode(written, Unstructured.class)));
  }

  @Test
  void aTypedKindWithAMessageIsStoredInItsEnvelope() throws IOException {
    GroupVersionKind role = RbacV1.V1.withKind("Role");
    Object object =
        CODEC
            .decode(
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                    + "\"metadata\":{\"name\":\"r\",\"namespace\":\"ns\"},"
                    + "\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],"
                    + "\"verbs\":[\"get\"]}]}")
            .object();
    StorageCodec codec = StorageCodec.of(StorageMediaType.PROTOBUF, CODEC, role);
    byte[] value = codec.encode(object);
    assertTrue(StorageCodec.isProtobuf(value));
    String text = new String(value, StandardCharsets.ISO_8859_1);
    assertTrue(text.startsWith("k8s\0"), text);
    assertTrue(text.contains("rbac.authorization.k8s.io/v1") && text.contains("Role"), text);
    Object read = codec.decode(value, object.getClass());
    assertEquals(object.getClass(), read.getClass());
    assertEquals(tree(object), tree(read));
  }

  @Test
  void customKindsAndKindsWithoutAMessageStayJson() {
    GroupVersionKind widget = GroupVersionKind.of("example.dev", "v1", "Widget");
    StorageCodec codec = StorageCodec.of(StorageMediaType.PROTOBUF, CODEC, widget);
    assertEquals(StorageMediaType.JSON, codec.mediaType());
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("apiVersion", "example.dev/v1");
    content.put("kind", "Widget");
    content.put("metadata", Map.of("name", "w"));
    byte[] value = codec.encode(new Unstructured(content));
    assertEquals('{', value[0]);
    // Custom resources are JSON whatever the server's media type, as kube-apiserver keeps them.
    assertEquals(
        StorageMediaType.JSON,
        StorageCodec.json(CODEC, GroupVersionKind.of("apps", "v1", "Deployment")).mediaType());
  }

  @Test
  void theSameObjectIsTheSameBytesOrContentInTheSameMediaTypeOnly() {
    GroupVersionKind kind = GroupVersionKind.of("", "v1", "ConfigMap");
    StorageCodec protobuf = StorageCodec.of(StorageMediaType.PROTOBUF, CODEC, kind);
    StorageCodec json = StorageCodec.of(StorageMediaType.JSON, CODEC, kind);
    byte[] pb = fixture("core.v1.ConfigMap.pb");
    Unstructured object = protobuf.decode(pb, Unstructured.class);
    assertTrue(protobuf.sameObject(protobuf.encode(object), pb));
    // The same object in JSON is not the same stored value: an update rewrites it, as kube does.
    assertFalse(protobuf.sameObject(json.encode(object), pb));
    assertFalse(json.sameObject(json.encode(object), pb));
    // JSON whose keys came in another order is the same.
    byte[] a = "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\"}".getBytes(StandardCharsets.UTF_8);
    byte[] b = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8);
    assertTrue(json.sameObject(a, b));
    // A change is not.
    object.content().put("immutable", !Boolean.TRUE.equals(object.content().get("immutable")));
    assertFalse(protobuf.sameObject(protobuf.encode(object), pb));
  }

  /**
   * Go writes a field that is not a pointer even at its zero value; a tree that leaves such a zero
   * out encodes without it, and decodes to the same object: the same stored object.
   */
  @Test
  void protobufValuesDifferingOnlyInZeroValuesGoWritesAreTheSameObject() throws IOException {
    GroupVersionKind kind = GroupVersionKind.of("apps", "v1", "Deployment");
    StorageCodec protobuf = StorageCodec.of(StorageMediaType.PROTOBUF, CODEC, kind);
    String base =
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"},"
            + "\"spec\":{\"replicas\":1%s,\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
            + "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}";
    byte[] withZero =
        protobuf.encode(
            CODEC.decode(String.format(base, ",\"paused\":false"), Unstructured.class).object());
    byte[] without =
        protobuf.encode(CODEC.decode(String.format(base, ""), Unstructured.class).object());
    assertFalse(java.util.Arrays.equals(withZero, without), "the zero is written when given");
    assertTrue(protobuf.sameObject(without, withZero));
    assertTrue(protobuf.sameObject(withZero, without));
    byte[] paused =
        protobuf.encode(
            CODEC.decode(String.format(base, ",\"paused\":true"), Unstructured.class).object());
    assertFalse(protobuf.sameObject(paused, withZero));
    // Read back, the zero Go writes omitempty is left out, as kube-apiserver answers.
    assertTrue(tree(protobuf.decode(withZero, Unstructured.class)).path("spec").has("replicas"));
    assertFalse(tree(protobuf.decode(withZero, Unstructured.class)).path("spec").has("paused"));
  }

  /**
   * A {@code double} field read from protobuf is written as Go writes a float64 in JSON: a whole
   * number without a fraction ({@code minimum: 1}, not {@code 1.0}), as kube-apiserver answers.
   */
  @Test
  void wholeDoublesReadFromProtobufAreWrittenAsGoWritesThem() throws IOException {
    GroupVersionKind crd =
        GroupVersionKind.of("apiextensions.k8s.io", "v1", "CustomResourceDefinition");
    String json =
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
            + "\"metadata\":{\"name\":\"foos.example.dev\"},\"spec\":{\"group\":\"example.dev\","
            + "\"names\":{\"plural\":\"foos\",\"kind\":\"Foo\"},\"scope\":\"Namespaced\","
            + "\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,"
            + "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{"
            + "\"replicas\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":1.5e21},"
            + "\"ratio\":{\"type\":\"number\",\"maximum\":0.25}}}}}]}}";
    StorageCodec codec = StorageCodec.of(StorageMediaType.PROTOBUF, CODEC, crd);
    Unstructured object = CODEC.decode(json, Unstructured.class).object();
    Unstructured read = codec.decode(codec.encode(object), Unstructured.class);
    JsonNode properties =
        tree(read)
            .path("spec")
            .path("versions")
            .get(0)
            .path("schema")
            .path("openAPIV3Schema")
            .path("properties");
    assertEquals("1", properties.path("replicas").path("minimum").toString());
    assertEquals(1.5e21, properties.path("replicas").path("maximum").asDouble());
    assertEquals("0.25", properties.path("ratio").path("maximum").toString());
  }

  @Test
  void aMalformedProtobufValueIsADecodeErrorNamingWhereItBroke() {
    StorageCodec codec =
        StorageCodec.of(
            StorageMediaType.PROTOBUF, CODEC, GroupVersionKind.of("", "v1", "ConfigMap"));
    byte[] pb = fixture("core.v1.ConfigMap.pb");
    byte[] cut = java.util.Arrays.copyOf(pb, pb.length / 2);
    DecodeException e =
        assertThrows(DecodeException.class, () -> codec.decode(cut, Unstructured.class));
    assertTrue(e.getMessage().length() > 0, e.toString());
  }

  @Test
  void theMediaTypesAreKubeApiserversFlagValues() {
    assertEquals(StorageMediaType.JSON, StorageMediaType.parse("application/json"));
    assertEquals(
        StorageMediaType.PROTOBUF, StorageMediaType.parse("application/vnd.kubernetes.protobuf"));
    assertEquals(
        "--storage-media-type \"text/plain\" invalid, allowed values: application/json,"
            + " application/vnd.kubernetes.protobuf",
        assertThrows(IllegalArgumentException.class, () -> StorageMediaType.parse("text/plain"))
            .getMessage());
  }
}
