package dev.machinery.core.typed;

import static dev.machinery.core.fieldpath.PathElement.key;
import static dev.machinery.core.fieldpath.PathElement.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.FieldsV1;
import dev.machinery.core.patch.ListMapKeys;
import dev.machinery.core.patch.ListType;
import dev.machinery.core.patch.MapType;
import dev.machinery.core.patch.MergeItem;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Schemas from Java types: the same list, map and struct types Kubernetes derives from its tags.
 */
class TypedJavaTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** A selector held as one value wherever it is used, as Kubernetes' LabelSelector. */
  @MapType("atomic")
  public record Selector(Map<String, String> matchLabels) {}

  /** A port of a service, keyed by port and protocol. */
  public record Port(String name, int port, String protocol) {}

  /** A container, keyed by name. */
  public record Container(
      String name,
      String image,
      @PatchStrategy("merge") @PatchMergeKey("containerPort") List<Map<String, Object>> ports,
      List<String> command) {}

  /** A spec with every kind of list and map. */
  public record Spec(
      @PatchStrategy("merge") @PatchMergeKey("name") List<Container> containers,
      @ListType("map") @ListMapKeys({"port", "protocol"}) List<Port> ports,
      @ListType("set") List<String> tags,
      @PatchStrategy("merge") List<String> finalizers,
      @PatchStrategy("retainKeys") List<String> retained,
      @ListType("atomic") @PatchStrategy("merge") @PatchMergeKey("name") List<Container> pinned,
      Map<String, String> labels,
      @MapType("atomic") Map<String, String> nodeSelector,
      Selector selector,
      Object anything,
      Spec child) {}

  @Test
  void listAndMapTypesFromAnnotations() {
    SchemaType type = JavaSchemas.of(Spec.class);
    Schema schema = type.schema();
    MapAtom spec = schema.resolve(type.ref()).map();
    ListAtom containers = schema.resolve(spec.field("containers").type()).list();
    assertEquals(ElementRelationship.ASSOCIATIVE, containers.relationship());
    assertEquals(List.of("name"), containers.keys());
    assertEquals(
        List.of("port", "protocol"), schema.resolve(spec.field("ports").type()).list().keys());
    ListAtom tags = schema.resolve(spec.field("tags").type()).list();
    assertEquals(ListAtom.set(tags.elementType()), tags);
    assertEquals(tags, schema.resolve(spec.field("finalizers").type()).list());
    assertEquals(
        ElementRelationship.ATOMIC,
        schema.resolve(spec.field("retained").type()).list().relationship());
    assertEquals(
        ElementRelationship.ATOMIC,
        schema.resolve(spec.field("pinned").type()).list().relationship());
    assertEquals(
        ElementRelationship.SEPARABLE,
        schema.resolve(spec.field("labels").type()).map().relationship());
    assertEquals(
        ElementRelationship.ATOMIC,
        schema.resolve(spec.field("nodeSelector").type()).map().relationship());
    assertEquals(
        ElementRelationship.ATOMIC,
        schema.resolve(spec.field("selector").type()).map().relationship());
    assertEquals(TypeRef.named(Schema.DEDUCED), spec.field("anything").type());
    assertEquals(type.ref(), spec.field("child").type()); // recursive: the same named type
    assertSame(type, JavaSchemas.of(Spec.class)); // cached
  }

  @Test
  void fieldSetOfAJavaObject() throws Exception {
    Spec child =
        new Spec(null, null, null, null, null, null, Map.of("a", "b"), null, null, null, null);
    Spec spec =
        new Spec(
            List.of(
                new Container(
                    "app", "nginx", List.of(Map.of("containerPort", 80)), List.of("run", "run"))),
            List.of(new Port("dns", 53, "UDP"), new Port("dns-tcp", 53, "TCP")),
            List.of("blue"),
            List.of("example.com/cleanup"),
            List.of("x"),
            List.of(new Container("sidecar", "envoy", null, null)),
            Map.of("tier", "web"),
            Map.of("disk", "ssd"),
            new Selector(Map.of("app", "web")),
            Map.of("free", List.of(1, 2)),
            child);
    JsonNode tree = JSON.valueToTree(spec);
    FieldSet fields = JavaSchemas.of(Spec.class).toFieldSet(tree);
    assertTrue(fields.has(FieldPath.of("containers", key("name", "app"), "image")));
    assertTrue(
        fields.has(
            FieldPath.of(
                "containers",
                key("name", "app"),
                "ports",
                key("containerPort", 80),
                "containerPort")));
    assertTrue(fields.has(FieldPath.of("containers", key("name", "app"), "command")));
    assertTrue(fields.has(FieldPath.of("ports", key("port", 53, "protocol", "UDP"), "name")));
    assertTrue(fields.has(FieldPath.of("tags", value("blue"))));
    assertTrue(fields.has(FieldPath.of("finalizers", value("example.com/cleanup"))));
    assertTrue(fields.has(FieldPath.of("retained")));
    assertTrue(fields.has(FieldPath.of("pinned")));
    assertTrue(fields.has(FieldPath.of("labels", "tier")));
    assertTrue(fields.has(FieldPath.of("nodeSelector")));
    assertTrue(fields.has(FieldPath.of("selector")));
    assertTrue(fields.has(FieldPath.of("anything", "free")));
    assertTrue(fields.has(FieldPath.of("child", "labels", "a")));
    // a declared field holding a map is not a member itself; undeclared entries and nulls are
    assertEquals(
        "{\"f:anything\":{\"f:free\":{}},\"f:child\":{\"f:anything\":{},\"f:child\":{},"
            + "\"f:containers\":{},\"f:finalizers\":{},\"f:labels\":{\"f:a\":{}},"
            + "\"f:nodeSelector\":{},\"f:pinned\":{},\"f:ports\":{},\"f:retained\":{},"
            + "\"f:selector\":{},\"f:tags\":{}}}",
        FieldsV1.toJson(restrict(fields, "anything").union(restrict(fields, "child"))));
  }

  /** The paths of the set under a top-level field (the field's own membership included). */
  private static FieldSet restrict(FieldSet fields, String field) {
    FieldSet.Builder builder = FieldSet.builder();
    for (FieldPath path : fields) {
      if (path.elements().get(0).equals(dev.machinery.core.fieldpath.PathElement.field(field))) {
        builder.insert(path);
      }
    }
    return builder.build();
  }

  @Test
  void mergeItemOfTheStrategicMergePatchTables() {
    SchemaType type = JavaSchemas.of(MergeItem.class);
    MapAtom item = type.schema().resolve(type.ref()).map();
    Schema schema = type.schema();
    assertEquals(List.of("name"), schema.resolve(item.field("mergingList").type()).list().keys());
    assertEquals(
        ElementRelationship.ATOMIC,
        schema.resolve(item.field("nonMergingList").type()).list().relationship());
    assertEquals(
        ElementRelationship.ASSOCIATIVE,
        schema.resolve(item.field("mergingIntList").type()).list().relationship());
    assertEquals(
        List.of("name"), schema.resolve(item.field("retainKeysMergingList").type()).list().keys());
    JsonNode object =
        SmdSchemas.yaml(
            "{name: a, mergingList: [{name: b, value: c}, {name: d}], mergingIntList: [1, 2],"
                + " nonMergingList: [{name: e}], simpleMap: {k: v}, jsonItem: {x: [1]}}");
    assertEquals(
        "{\"f:jsonItem\":{\"f:x\":{}},\"f:mergingIntList\":{\"v:1\":{},\"v:2\":{}},"
            + "\"f:mergingList\":{\"k:{\\\"name\\\":\\\"b\\\"}\":{\".\":{},\"f:name\":{},"
            + "\"f:value\":{}},\"k:{\\\"name\\\":\\\"d\\\"}\":{\".\":{},\"f:name\":{}}},"
            + "\"f:name\":{},\"f:nonMergingList\":{},\"f:simpleMap\":{\"f:k\":{}}}",
        FieldsV1.toJson(type.toFieldSet(object)));
  }

  /** A list type map needs keys. */
  public record Keyless(@ListType("map") List<Port> ports) {}

  @Test
  void unusableAnnotations() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> JavaSchemas.of(Keyless.class));
    assertEquals(
        Keyless.class.getName() + ".ports: list type map needs @ListMapKeys or @PatchMergeKey",
        e.getMessage());
  }

  @Test
  void fabric8Deployment() {
    Deployment deployment =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("nginx")
            .addToLabels("app", "nginx")
            .endMetadata()
            .withNewSpec()
            .withReplicas(1)
            .withNewSelector()
            .addToMatchLabels("app", "nginx")
            .endSelector()
            .withNewStrategy()
            .withNewRollingUpdate()
            .withNewMaxSurge("25%")
            .endRollingUpdate()
            .endStrategy()
            .withNewTemplate()
            .withNewSpec()
            .addNewContainer()
            .withName("nginx")
            .withImage("nginx")
            .withNewResources()
            .addToLimits("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
            .endResources()
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    deployment.getAdditionalProperties().put("extra", Map.of("x", 1));
    FieldSet fields = JavaSchemas.of(Deployment.class).toFieldSet(JSON.valueToTree(deployment));
    // fabric8's model carries no patch strategies: its lists are atomic
    assertTrue(fields.has(FieldPath.of("spec", "template", "spec", "containers")));
    assertTrue(fields.has(FieldPath.of("spec", "strategy", "rollingUpdate", "maxSurge")));
    assertTrue(fields.has(FieldPath.of("spec", "selector", "matchLabels", "app")));
    assertTrue(fields.has(FieldPath.of("metadata", "labels", "app")));
    assertTrue(fields.has(FieldPath.of("extra", "x"))); // the catch-all keeps deduced values
    assertTrue(fields.has(FieldPath.of("apiVersion")));
  }
}
