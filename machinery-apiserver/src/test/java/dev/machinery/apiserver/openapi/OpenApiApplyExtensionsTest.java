package dev.machinery.apiserver.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.discovery.Discovery;
import dev.machinery.core.fieldpath.FieldsV1;
import dev.machinery.core.patch.ListMapKeys;
import dev.machinery.core.patch.ListType;
import dev.machinery.core.patch.MapType;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.typed.JavaSchemas;
import dev.machinery.core.typed.OpenApiSchemas;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.unversioned.discovery.ResourceInfo;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The generated OpenAPI carries server-side apply's list and map shapes ({@code
 * x-kubernetes-list-type}, {@code x-kubernetes-list-map-keys}, {@code x-kubernetes-map-type}), the
 * same ones the Java types give: a schema read back from the document computes the same field sets.
 */
class OpenApiApplyExtensionsTest {
  /** A kind with every list and map shape. */
  public static final class Gadget extends TypeMeta {
    private ObjectMeta metadata;
    private List<String> tags;
    private List<Port> ports;
    private List<Part> parts;
    private List<String> args;
    private Map<String, String> settings;
    private Selector selector;

    public ObjectMeta getMetadata() {
      return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
      this.metadata = metadata;
    }

    @ListType("set")
    public List<String> getTags() {
      return tags;
    }

    public void setTags(List<String> tags) {
      this.tags = tags;
    }

    @ListType("map")
    @ListMapKeys({"port", "protocol"})
    public List<Port> getPorts() {
      return ports;
    }

    public void setPorts(List<Port> ports) {
      this.ports = ports;
    }

    @PatchStrategy("merge")
    @PatchMergeKey("name")
    public List<Part> getParts() {
      return parts;
    }

    public void setParts(List<Part> parts) {
      this.parts = parts;
    }

    public List<String> getArgs() {
      return args;
    }

    public void setArgs(List<String> args) {
      this.args = args;
    }

    @MapType("atomic")
    public Map<String, String> getSettings() {
      return settings;
    }

    public void setSettings(Map<String, String> settings) {
      this.settings = settings;
    }

    public Selector getSelector() {
      return selector;
    }

    public void setSelector(Selector selector) {
      this.selector = selector;
    }
  }

  /** A port, keyed by two fields. */
  public record Port(int port, String protocol, String name) {}

  /** A part, keyed by its merge key. */
  public record Part(String name, String size) {}

  /** A struct replaced as a whole. */
  @MapType("atomic")
  public record Selector(String app, String tier) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode document() throws Exception {
    GroupVersion example = GroupVersion.of("example.com", "v1");
    Scheme scheme =
        MetaV1.addToScheme(Scheme.builder()).addKnownTypes(example, Gadget.class).build();
    Discovery discovery =
        Discovery.builder(scheme).addResource(example, ResourceInfo.of("Gadget", true)).build();
    return JSON.readTree(
        OpenApiV3.build(scheme, discovery, "v1.33.0")
            .document("apis/example.com/v1")
            .orElseThrow());
  }

  private static String name(Class<?> type) {
    return type.getName().replace('$', '.');
  }

  @Test
  void listAndMapShapesAreWritten() throws Exception {
    JsonNode schemas = document().path("components").path("schemas");
    JsonNode gadget = schemas.path(name(Gadget.class)).path("properties");
    assertEquals("set", gadget.at("/tags/x-kubernetes-list-type").asText());
    assertEquals("map", gadget.at("/ports/x-kubernetes-list-type").asText());
    assertEquals(
        "[\"port\",\"protocol\"]", gadget.at("/ports/x-kubernetes-list-map-keys").toString());
    assertEquals("map", gadget.at("/parts/x-kubernetes-list-type").asText());
    assertEquals("[\"name\"]", gadget.at("/parts/x-kubernetes-list-map-keys").toString());
    assertTrue(
        gadget.at("/args/x-kubernetes-list-type").isMissingNode(), "undeclared lists say nothing");
    assertEquals("atomic", gadget.at("/settings/x-kubernetes-map-type").asText());
    assertEquals(
        "atomic", schemas.path(name(Selector.class)).path("x-kubernetes-map-type").asText());
    JsonNode meta =
        schemas.path("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta").path("properties");
    assertEquals("set", meta.at("/finalizers/x-kubernetes-list-type").asText());
    assertEquals("[\"uid\"]", meta.at("/ownerReferences/x-kubernetes-list-map-keys").toString());
  }

  @Test
  void theDocumentGivesTheFieldSetsTheJavaTypesGive() throws Exception {
    SchemaType fromDocument = OpenApiSchemas.fromOpenApi(document()).type(name(Gadget.class));
    SchemaType fromJava = JavaSchemas.of(Gadget.class);
    JsonNode object =
        JSON.readTree(
            """
            {"apiVersion":"example.com/v1","kind":"Gadget",
             "metadata":{"name":"g","labels":{"a":"b"},"finalizers":["x","y"],
               "ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u1"}]},
             "tags":["t1","t2"],
             "ports":[{"port":80,"protocol":"TCP","name":"http"},{"port":80,"protocol":"UDP"}],
             "parts":[{"name":"p","size":"1"}],
             "args":["--a","--b"],
             "settings":{"k":"v"},
             "selector":{"app":"x"}}
            """);
    String expected = FieldsV1.toJson(fromJava.toFieldSet(object));
    assertEquals(expected, FieldsV1.toJson(fromDocument.toFieldSet(object)));
    assertTrue(expected.contains("\"k:{\\\"port\\\":80,\\\"protocol\\\":\\\"UDP\\\"}\""), expected);
    assertTrue(expected.contains("\"f:settings\":{}"), expected);
    assertTrue(expected.contains("\"f:selector\":{}"), expected);
    assertTrue(expected.contains("\"v:\\\"x\\\"\""), expected);
    assertTrue(expected.contains("\"f:args\":{}"), expected);
  }
}
