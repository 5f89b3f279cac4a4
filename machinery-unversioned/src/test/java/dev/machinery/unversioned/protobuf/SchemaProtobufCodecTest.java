package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.EncodeException;
import dev.machinery.core.codec.UnknownKindException;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON rules of {@link SchemaProtobufCodec}: zero values, Kubernetes' special types, lists. */
class SchemaProtobufCodecTest {
  private static final SchemaProtobufCodec CODEC = SchemaProtobufCodec.create(KubeProtos.v1_33());
  private static final GroupVersionKind DEPLOYMENT =
      GroupVersionKind.of("apps", "v1", "Deployment");
  private static final String CORE = "k8s.io.api.core.v1.";
  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  private static Map<String, Object> roundTrip(GroupVersionKind kind, Map<String, ?> tree) {
    return CODEC.decode(CODEC.encode(kind, tree));
  }

  private static Map<String, Object> typed(GroupVersionKind kind, Map<String, ?> content) {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("apiVersion", kind.apiVersion());
    tree.put("kind", kind.kind());
    tree.putAll(content);
    return tree;
  }

  @Test
  void writesAPointerSetToZeroAndReadsItBack() {
    assertArrayEquals(
        bytes(0x08, 0x00),
        CODEC.encodeMessage("k8s.io.api.apps.v1.DeploymentSpec", Map.of("replicas", 0L)));
    Map<String, Object> tree = typed(DEPLOYMENT, Map.of("spec", Map.of("replicas", 0L)));
    assertEquals(tree, roundTrip(DEPLOYMENT, tree));
  }

  @Test
  void leavesOutTheZerosGoLeavesOutOfItsJson() {
    // As Go writes an ObjectMeta with name "a": namespace (3) "", generation (7) 0, an empty
    // creationTimestamp (8), all three omitempty in Go.
    byte[] meta = bytes(0x0a, 0x01, 'a', 0x1a, 0x00, 0x38, 0x00, 0x42, 0x00);
    assertEquals(Map.of("name", "a"), CODEC.decodeMessage(META + "ObjectMeta", meta));
    // A container: name "c", resources {} (a struct: Go writes it), stdin false (omitempty).
    byte[] container = bytes(0x0a, 0x01, 'c', 0x42, 0x00, 0x80, 0x01, 0x00);
    assertEquals(
        Map.of("name", "c", "resources", Map.of()),
        CODEC.decodeMessage(CORE + "Container", container));
    // A port: hostPort (2) 0 is omitempty, containerPort (3) 0 is not.
    byte[] port = bytes(0x10, 0x00, 0x18, 0x00);
    assertEquals(Map.of("containerPort", 0L), CODEC.decodeMessage(CORE + "ContainerPort", port));
  }

  @Test
  void keepsZerosOfMessagesThatAreNotKubernetesGoTypes() {
    ProtoSchema schema =
        ProtoSchema.builder()
            .add(
                "t.proto",
                "package t;\nmessage T { optional string s = 1; optional int64 n = 2;"
                    + " optional bool b = 3; }\n")
            .build();
    assertEquals(
        Map.of("n", 0L, "b", false),
        SchemaProtobufCodec.create(schema)
            .decodeMessage("t.T", bytes(0x0a, 0x00, 0x10, 0x00, 0x18, 0x00)));
  }

  @Test
  void keepsTheEmptyStorageClassNameOfAClaim() {
    byte[] spec =
        CODEC.encodeMessage(CORE + "PersistentVolumeClaimSpec", Map.of("storageClassName", ""));
    assertEquals(
        Map.of("storageClassName", ""),
        CODEC.decodeMessage(CORE + "PersistentVolumeClaimSpec", spec));
    assertEquals(
        Map.of(),
        CODEC.decodeMessage(
            CORE + "PersistentVolumeSpec",
            CODEC.encodeMessage(CORE + "PersistentVolumeSpec", Map.of("storageClassName", ""))));
  }

  @Test
  void writesTimesToTheSecondAsGoDoes() {
    byte[] meta =
        CODEC.encodeMessage(
            META + "ObjectMeta", Map.of("creationTimestamp", "2024-05-01T12:00:00.5+02:00"));
    // field 8, length 8: seconds 1714557600, nanos 0
    assertArrayEquals(bytes(0x42, 0x08, 0x08, 0xa0, 0xa5, 0xc8, 0xb1, 0x06, 0x10, 0x00), meta);
    assertEquals(
        Map.of("creationTimestamp", "2024-05-01T10:00:00Z"),
        CODEC.decodeMessage(META + "ObjectMeta", meta));
    assertEquals(
        Map.of("creationTimestamp", "1970-01-01T00:00:00Z"),
        CODEC.decodeMessage(META + "ObjectMeta", bytes(0x42, 0x04, 0x08, 0x00, 0x10, 0x00)));
  }

  @Test
  void writesMicroTimesWithTheirMicroseconds() {
    GroupVersionKind event = GroupVersionKind.of("events.k8s.io", "v1", "Event");
    Map<String, Object> tree =
        typed(event, Map.of("eventTime", "2024-05-01T12:00:00.123456Z", "action", "Pull"));
    assertEquals(tree, roundTrip(event, tree));
    assertEquals(
        Map.of("eventTime", "2024-05-01T10:00:00.000001Z"),
        CODEC.decodeMessage(
            "k8s.io.api.events.v1.Event",
            CODEC.encodeMessage(
                "k8s.io.api.events.v1.Event",
                Map.of("eventTime", "2024-05-01T12:00:00.000001+02:00"))));
  }

  @Test
  void writesDurationsAsGoDurationTextInAnySchema() {
    ProtoSchema schema =
        ProtoSchema.builder()
            .add(
                "meta.proto",
                """
                syntax = "proto2";
                package k8s.io.apimachinery.pkg.apis.meta.v1;
                message Duration { optional int64 duration = 1; }
                message Holder { optional Duration timeout = 1; repeated Duration many = 2; }
                """)
            .build();
    SchemaProtobufCodec codec = SchemaProtobufCodec.create(schema);
    String holder = META + "Holder";
    byte[] encoded = codec.encodeMessage(holder, Map.of("timeout", "1h2m3.5s"));
    assertArrayEquals(bytes(0x0a, 0x07, 0x08, 0x80, 0xa6, 0x94, 0x8f, 0xaf, 0x6c), encoded);
    assertEquals(Map.of("timeout", "1h2m3.5s"), codec.decodeMessage(holder, encoded));
    assertEquals(
        Map.of("many", List.of("0s", "-1.5s")),
        codec.decodeMessage(
            holder, codec.encodeMessage(holder, Map.of("many", List.of("0", "-1500ms")))));
    assertEquals(
        "timeout: expected a duration such as 1h2m3s, found \"soon\"",
        assertThrows(
                EncodeException.class, () -> codec.encodeMessage(holder, Map.of("timeout", "soon")))
            .getMessage());
  }

  @Test
  void writesIntOrStringAsNumberOrString() {
    String port = CORE + "ServicePort";
    assertArrayEquals(
        bytes(0x22, 0x07, 0x08, 0x00, 0x10, 0x90, 0x3f, 0x1a, 0x00),
        CODEC.encodeMessage(port, Map.of("targetPort", 8080L)));
    assertArrayEquals(
        bytes(0x22, 0x0a, 0x08, 0x01, 0x10, 0x00, 0x1a, 0x04, 'h', 't', 't', 'p'),
        CODEC.encodeMessage(port, Map.of("targetPort", "http")));
    assertEquals(
        Map.of("targetPort", 8080L),
        CODEC.decodeMessage(port, CODEC.encodeMessage(port, Map.of("targetPort", 8080L))));
    assertEquals(
        Map.of("targetPort", "http"),
        CODEC.decodeMessage(port, CODEC.encodeMessage(port, Map.of("targetPort", "http"))));
  }

  @Test
  void writesQuantitiesInCanonicalForm() {
    String requirements = CORE + "ResourceRequirements";
    byte[] encoded =
        CODEC.encodeMessage(
            requirements, Map.of("limits", Map.of("cpu", "1000m", "memory", 1024L)));
    assertEquals(
        Map.of("limits", Map.of("cpu", "1", "memory", "1024")),
        CODEC.decodeMessage(requirements, encoded));
  }

  @Test
  void writesBytesAsBase64() {
    GroupVersionKind secret = GroupVersionKind.of("", "v1", "Secret");
    String hello = Base64.getEncoder().encodeToString("hello".getBytes(StandardCharsets.UTF_8));
    Map<String, Object> tree =
        typed(secret, Map.of("data", Map.of("greeting", hello, "empty", ""), "type", "Opaque"));
    byte[] encoded = CODEC.encode(secret, tree);
    assertEquals(tree, CODEC.decode(encoded));
    assertEquals(
        "data[greeting]: expected a base64 string, found \"not base64!\"",
        assertThrows(
                EncodeException.class,
                () -> CODEC.encode(secret, Map.of("data", Map.of("greeting", "not base64!"))))
            .getMessage());
  }

  @Test
  void writesGoNamedSliceWrappersAsArrays() {
    GroupVersionKind review = GroupVersionKind.of("authentication.k8s.io", "v1", "TokenReview");
    Map<String, Object> tree =
        typed(
            review,
            Map.of(
                "status",
                Map.of(
                    "authenticated",
                    true,
                    "user",
                    Map.of("username", "jane", "extra", Map.of("scopes", List.of("a", "b"))))));
    assertEquals(tree, roundTrip(review, tree));
    // UserInfo.extra (4) is an entry of key "scopes" and value ExtraValue{items "a", "b"}
    assertArrayEquals(
        bytes(
            0x22, 0x10, 0x0a, 0x06, 's', 'c', 'o', 'p', 'e', 's', 0x12, 0x06, 0x0a, 0x01, 'a', 0x0a,
            0x01, 'b'),
        CODEC.encodeMessage(
            "k8s.io.api.authentication.v1.UserInfo",
            Map.of("extra", Map.of("scopes", List.of("a", "b")))));
  }

  @Test
  void writesCustomResourceSchemasWithTheirJsonSchemaNames() {
    GroupVersionKind crd =
        GroupVersionKind.of("apiextensions.k8s.io", "v1", "CustomResourceDefinition");
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("$ref", "#/definitions/x");
    props.put("$schema", "http://json-schema.org/draft-04/schema#");
    props.put("type", "object");
    props.put("default", Map.of("a", 1L));
    props.put("maximum", 2.5d);
    props.put("enum", List.of("x", 1L, true));
    props.put("items", List.of(Map.of("type", "string"), Map.of("type", "integer")));
    props.put("additionalProperties", false);
    props.put("additionalItems", Map.of("type", "string"));
    props.put("properties", Map.of("spec", Map.of("items", Map.of("type", "string"))));
    props.put("dependencies", Map.of("a", List.of("b"), "c", Map.of("required", List.of("d"))));
    props.put("x-kubernetes-preserve-unknown-fields", true);
    props.put("x-kubernetes-list-map-keys", List.of("name"));
    props.put("x-kubernetes-int-or-string", true);
    Map<String, Object> tree =
        typed(
            crd,
            Map.of(
                "spec",
                Map.of(
                    "group",
                    "example.com",
                    "versions",
                    List.of(
                        Map.of(
                            "name",
                            "v1",
                            "served",
                            true,
                            "storage",
                            true,
                            "schema",
                            Map.of("openAPIV3Schema", props))))));
    assertEquals(tree, roundTrip(crd, tree));
  }

  @Test
  void readsAnEmbeddedEnvelopeInARawExtension() {
    GroupVersionKind configMap = GroupVersionKind.of("", "v1", "ConfigMap");
    Map<String, Object> object =
        typed(configMap, Map.of("metadata", Map.of("name", "c"), "data", Map.of("k", "v")));
    ProtoWriter raw = new ProtoWriter();
    raw.bytesField(1, CODEC.encode(configMap, object));
    ProtoWriter event = new ProtoWriter();
    event.stringField(1, "ADDED");
    event.bytesField(2, raw.toByteArray());
    byte[] body = Envelope.wrap("", "", event.toByteArray());
    assertEquals(
        Map.of("type", "ADDED", "object", object),
        CODEC.decode(body, GroupVersionKind.of("", "v1", "WatchEvent")));
    assertEquals(
        "the envelope names no kind; decode it with the kind it should hold",
        assertThrows(DecodeException.class, () -> CODEC.decode(body)).getMessage());
  }

  @Test
  void readsAWatchFrameWithItsObject() throws java.io.IOException {
    GroupVersionKind configMap = GroupVersionKind.of("", "v1", "ConfigMap");
    Map<String, Object> object = typed(configMap, Map.of("metadata", Map.of("name", "c")));
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    dev.machinery.unversioned.watch.WatchEncoder.writeProtobufFrame(
        out, dev.machinery.unversioned.watch.EventType.MODIFIED, CODEC.encode(configMap, object));
    byte[] frame = out.toByteArray();
    byte[] event = java.util.Arrays.copyOfRange(frame, 4, frame.length);
    assertEquals(
        Map.of("type", "MODIFIED", "object", object),
        CODEC.decodeMessage(META + "WatchEvent", event));
  }

  @Test
  void aListJoinedFromItsItemsBytesIsTheListWrittenWhole() {
    java.util.Random random = new java.util.Random(36);
    List<GroupVersionKind> lists =
        List.of(
            GroupVersionKind.of("", "v1", "PodList"),
            GroupVersionKind.of("", "v1", "ConfigMapList"),
            GroupVersionKind.of("", "v1", "NamespaceList"),
            GroupVersionKind.of("apps", "v1", "DeploymentList"),
            GroupVersionKind.of("events.k8s.io", "v1", "EventList"));
    for (GroupVersionKind list : lists) {
      assertTrue(CODEC.encodesListItems(list), list.toString());
      GroupVersionKind itemKind =
          list.groupVersion().withKind(list.kind().substring(0, list.kind().length() - 4));
      for (int size : new int[] {0, 1, 3, 17}) {
        List<Map<String, Object>> items = new java.util.ArrayList<>();
        for (int i = 0; i < size; i++) {
          Map<String, Object> item = new LinkedHashMap<>();
          item.put("apiVersion", itemKind.apiVersion());
          item.put("kind", itemKind.kind());
          Map<String, Object> metadata = new LinkedHashMap<>();
          metadata.put("name", "item-" + i + "-" + random.nextInt(1000));
          metadata.put("namespace", "ns");
          metadata.put("resourceVersion", String.valueOf(random.nextInt(100_000)));
          metadata.put("labels", Map.of("app", "a" + random.nextInt(5), "é", "\u2603"));
          // Items of one-, two- and three-byte lengths.
          metadata.put(
              "annotations", Map.of("filler", "f".repeat(new int[] {0, 200, 20_000}[i % 3])));
          item.put("metadata", metadata);
          items.add(item);
        }
        Map<String, Object> whole = new LinkedHashMap<>();
        whole.put("apiVersion", list.apiVersion());
        whole.put("kind", list.kind());
        whole.put("metadata", Map.of("resourceVersion", "42", "continue", "c"));
        whole.put("items", items);
        List<byte[]> encoded = new java.util.ArrayList<>();
        for (Map<String, Object> item : items) {
          encoded.add(CODEC.encodeListItem(list, item));
        }
        Map<String, Object> shell = new LinkedHashMap<>(whole);
        shell.put("items", List.of());
        String where = list + " of " + size;
        assertArrayEquals(
            CODEC.encodeList(list, whole), CODEC.encodeList(list, shell, encoded), where);
        shell.remove("items");
        assertArrayEquals(
            CODEC.encodeList(list, whole), CODEC.encodeList(list, shell, encoded), where);
        ProtobufList pieces = CODEC.listOf(list, shell, encoded);
        java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
        try {
          pieces.writeTo(written);
        } catch (java.io.IOException e) {
          throw new AssertionError(e);
        }
        assertArrayEquals(CODEC.encodeList(list, whole), written.toByteArray(), where);
        assertEquals(written.size(), pieces.size(), where);
        assertEquals(size, pieces.itemCount(), where);
      }
    }
    assertFalse(CODEC.encodesListItems(DEPLOYMENT), "not a list kind");
    assertEquals(
        "no protobuf list message with items last for apps/v1, Kind=Deployment in the schema",
        assertThrows(
                IllegalArgumentException.class,
                () -> CODEC.encodeListItem(DEPLOYMENT, Map.of("metadata", Map.of())))
            .getMessage());
  }

  @Test
  void aListLargerThanAnArrayIsWrittenToAStreamAndRefusedAsOneArray() throws Exception {
    GroupVersionKind list = GroupVersionKind.of("", "v1", "ConfigMapList");
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("metadata", Map.of("name", "big"));
    item.put("data", Map.of("k", "v".repeat(8 << 20)));
    byte[] one = CODEC.encodeListItem(list, item);
    // 300 times the same 8 MiB item: a list of about 2.4 GiB that holds one item's bytes.
    List<byte[]> items = java.util.Collections.nCopies(300, one);
    ProtobufList pieces = CODEC.listOf(list, Map.of("metadata", Map.of()), items);
    assertTrue(pieces.size() > Integer.MAX_VALUE, "size " + pieces.size());
    IllegalStateException refused = assertThrows(IllegalStateException.class, pieces::toByteArray);
    assertTrue(
        refused.getMessage().startsWith("the list is " + pieces.size() + " bytes"),
        refused.getMessage());
    long[] counted = {0};
    pieces.writeTo(
        new java.io.OutputStream() {
          @Override
          public void write(int b) {
            counted[0]++;
          }

          @Override
          public void write(byte[] b, int off, int len) {
            counted[0] += len;
          }
        });
    assertEquals(pieces.size(), counted[0]);
  }

  @Test
  void writesListsWithoutTheItemsTypeMeta() {
    GroupVersionKind list = GroupVersionKind.of("apps", "v1", "DeploymentList");
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("apiVersion", "apps/v1");
    item.put("kind", "Deployment");
    item.put("metadata", Map.of("name", "a"));
    item.put("spec", Map.of("replicas", 2L));
    Map<String, Object> decoded =
        CODEC.decode(
            CODEC.encodeList(
                list, Map.of("metadata", Map.of("resourceVersion", "5"), "items", List.of(item))));
    assertEquals(
        typed(
            list,
            Map.of(
                "metadata", Map.of("resourceVersion", "5"),
                "items",
                    List.of(
                        Map.of("metadata", Map.of("name", "a"), "spec", Map.of("replicas", 2L))))),
        decoded);
    assertEquals(
        "no protobuf list message for apps/v1, Kind=Deployment in the schema",
        assertThrows(IllegalArgumentException.class, () -> CODEC.encodeList(DEPLOYMENT, Map.of()))
            .getMessage());
  }

  @Test
  void writesStatus() {
    GroupVersionKind status = GroupVersionKind.of("", "v1", "Status");
    Map<String, Object> tree =
        typed(
            status,
            Map.of(
                "metadata",
                Map.of(),
                "status",
                "Failure",
                "message",
                "deployments.apps \"a\" not found",
                "reason",
                "NotFound",
                "details",
                Map.of("name", "a", "group", "apps", "kind", "deployments"),
                "code",
                404L));
    assertEquals(tree, roundTrip(status, tree));
  }

  @Test
  void sortsMapKeysByTheirUtf8Bytes() {
    Map<String, Object> labels = new LinkedHashMap<>();
    labels.put("\uD83D\uDE00", "emoji");
    labels.put("\uFFFD", "replacement");
    labels.put("b", "2");
    labels.put("a", "1");
    Map<String, Object> decoded =
        CODEC.decodeMessage(
            META + "ObjectMeta",
            CODEC.encodeMessage(META + "ObjectMeta", Map.of("labels", labels)));
    @SuppressWarnings("unchecked")
    Map<String, Object> order = (Map<String, Object>) decoded.get("labels");
    assertEquals(List.of("a", "b", "\uFFFD", "\uD83D\uDE00"), new ArrayList<>(order.keySet()));
  }

  @Test
  void readsPackedAndUnpackedRepeatedNumbers() {
    String requirement = "k8s.io.api.batch.v1.PodFailurePolicyOnExitCodesRequirement";
    assertEquals(
        Map.of("values", List.of(1L, 2L, -1L)),
        CODEC.decodeMessage(
            requirement,
            bytes(
                0x18, 0x01, 0x18, 0x02, 0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                0x01)));
    assertEquals(
        Map.of("values", List.of(1L, 2L)),
        CODEC.decodeMessage(requirement, bytes(0x1a, 0x02, 0x01, 0x02)));
  }

  @Test
  void skipsUnknownFields() {
    byte[] spec = CODEC.encodeMessage("k8s.io.api.apps.v1.DeploymentSpec", Map.of("replicas", 3L));
    byte[] withUnknown = new byte[spec.length + 5];
    System.arraycopy(spec, 0, withUnknown, 0, spec.length);
    System.arraycopy(bytes(0xa2, 0x06, 0x02, 'x', 'y'), 0, withUnknown, spec.length, 5);
    assertEquals(
        Map.of("replicas", 3L),
        CODEC.decodeMessage("k8s.io.api.apps.v1.DeploymentSpec", withUnknown));
  }

  @Test
  void namesTheFieldOfAValueThatDoesNotFit() {
    assertEquals(
        "spec.replicas: expected an integer, found \"3\"",
        assertThrows(
                EncodeException.class,
                () -> CODEC.encode(DEPLOYMENT, Map.of("spec", Map.of("replicas", "3"))))
            .getMessage());
    assertEquals(
        "spec.template.spec.containers[1].ports[0].containerPort: the integer 4294967296 is out of"
            + " range [-2147483648, 2147483647]",
        assertThrows(
                EncodeException.class,
                () ->
                    CODEC.encode(
                        DEPLOYMENT,
                        Map.of(
                            "spec",
                            Map.of(
                                "template",
                                Map.of(
                                    "spec",
                                    Map.of(
                                        "containers",
                                        List.of(
                                            Map.of("name", "a"),
                                            Map.of(
                                                "name",
                                                "b",
                                                "ports",
                                                List.of(
                                                    Map.of("containerPort", 4294967296L))))))))))
            .getMessage());
    assertEquals(
        "metadata.creationTimestamp: expected an RFC 3339 time, found \"yesterday\"",
        assertThrows(
                EncodeException.class,
                () ->
                    CODEC.encode(
                        DEPLOYMENT, Map.of("metadata", Map.of("creationTimestamp", "yesterday"))))
            .getMessage());
    assertEquals(
        "spec: expected an object (DeploymentSpec), found an array",
        assertThrows(
                EncodeException.class, () -> CODEC.encode(DEPLOYMENT, Map.of("spec", List.of())))
            .getMessage());
  }

  @Test
  void refusesKindsItHasNoMessageFor() {
    assertEquals(
        "no protobuf message for example.com/v1, Kind=Widget in the schema",
        assertThrows(
                IllegalArgumentException.class,
                () -> CODEC.encode(GroupVersionKind.of("example.com", "v1", "Widget"), Map.of()))
            .getMessage());
    assertEquals(
        "the tree is a Pod of v1, not a apps/v1, Kind=Deployment",
        assertThrows(
                IllegalArgumentException.class,
                () -> CODEC.encode(DEPLOYMENT, Map.of("apiVersion", "v1", "kind", "Pod")))
            .getMessage());
    byte[] widget = Envelope.wrap("example.com/v1", "Widget", new byte[0]);
    UnknownKindException e = assertThrows(UnknownKindException.class, () -> CODEC.decode(widget));
    assertEquals(GroupVersionKind.of("example.com", "v1", "Widget"), e.kind());
    assertFalse(CODEC.has(GroupVersionKind.of("example.com", "v1", "Widget")));
  }

  @Test
  void decodedTreesAreUnstructuredContent() {
    Map<String, Object> tree =
        typed(
            DEPLOYMENT,
            Map.of("metadata", Map.of("name", "web", "namespace", "prod", "generation", 3L)));
    Unstructured object = new Unstructured(CODEC.decode(CODEC.encode(DEPLOYMENT, tree)));
    assertEquals("web", object.getName());
    assertEquals("prod", object.getNamespace());
    assertEquals("apps/v1", object.getApiVersion());
    assertEquals(tree, object.content());
  }

  @Test
  void oneCodecServesManyThreads() throws Exception {
    SchemaProtobufCodec fresh = SchemaProtobufCodec.create(KubeProtos.v1_33());
    List<String> names = KubeFixtures.v133();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<String>> results = new ArrayList<>();
      for (int thread = 0; thread < 4; thread++) {
        int offset = thread;
        results.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < names.size(); i++) {
                    String name = names.get((i + offset * 45) % names.size());
                    GroupVersionKind kind = KubeFixtures.kind(name);
                    byte[] golden = KubeFixtures.bytes("v1.33.0/" + name + ".pb");
                    if (!KubeFixtures.tree("v1.33.0/" + name + ".json")
                        .equals(fresh.decode(golden, kind))) {
                      return name;
                    }
                  }
                  return "";
                }));
      }
      for (java.util.concurrent.Future<String> result : results) {
        assertEquals("", result.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
