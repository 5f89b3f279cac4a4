package dev.machinery.api.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The generator's pieces: names, Javadoc text, the JSON reader, and a small document's classes. */
class ModelWriterTest {
  @Test
  void jsonFieldNamesBecomeJavaNames() {
    assertEquals("xKubernetesListType", ModelWriter.javaName("x-kubernetes-list-type"));
    assertEquals("ref", ModelWriter.javaName("$ref"));
    assertEquals("port", ModelWriter.javaName("Port"));
    assertEquals("hostIPC", ModelWriter.javaName("hostIPC"));
    assertThrows(IllegalArgumentException.class, () -> ModelWriter.javaName("$-"));
  }

  @Test
  void definitionsMapToOnePackageAGroupVersion() {
    assertEquals(
        "dev.machinery.api.apps.v1.Deployment",
        ModelWriter.javaClassOf("io.k8s.api.apps.v1.Deployment"));
    assertEquals(
        "dev.machinery.api.apiextensions.v1.CustomResourceDefinition",
        ModelWriter.javaClassOf(
            "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"));
    assertEquals(
        "dev.machinery.api.apiregistration.v1.APIService",
        ModelWriter.javaClassOf("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService"));
  }

  @Test
  void descriptionsAreEscapedForJavadoc() {
    assertEquals(
        "a &lt;b&gt; &amp; &#64;c *&#47; &#92;u0041 &#123;&#64;code x&#125;",
        ModelWriter.escape("a <b> & @c */ \\u0041 {@code x}"));
    assertEquals(
        List.of("first line", "", "<p>second paragraph"),
        ModelWriter.docLines("first line\n\n\nsecond paragraph\n"));
    assertEquals(List.of("aaa bbb", "ccc"), ModelWriter.wrap("aaa bbb ccc", 8));
  }

  @Test
  void theJsonReaderReadsWhatTheDocumentHolds() {
    assertEquals(
        Map.of("a", List.of(1L, 2.5, true, "x\ny\u00e9"), "b", Map.of()),
        Json.parse("{\"a\": [1, 2.5, true, \"x\\ny\\u00e9\"], \"b\": {}}"));
    assertEquals(null, Json.parse(" null "));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": }"));
    assertTrue(e.getMessage().contains("offset 6"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Json.parse("[1] 2"));
  }

  @Test
  void aSmallDocumentGivesBeansKindsAndTheirRegistration() {
    String document =
        """
        {"definitions": {
          "io.k8s.api.demo.v1.Widget": {
            "description": "A widget <b>.",
            "properties": {
              "apiVersion": {"type": "string"},
              "kind": {"type": "string"},
              "metadata": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
              "default": {"type": "integer", "format": "int32"},
              "data": {"type": "object", "additionalProperties": {"type": "string", "format": "byte"}},
              "parts": {"type": "array", "items": {"$ref": "#/definitions/io.k8s.api.demo.v1.Part"},
                "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
              "size": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity"}
            },
            "x-kubernetes-group-version-kind": [{"group": "demo.example.dev", "kind": "Widget", "version": "v1"}]
          },
          "io.k8s.api.demo.v1.Part": {"properties": {"name": {"type": "string"}}},
          "io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement": {
            "properties": {"key": {"type": "string"}}},
          "io.k8s.api.demo.v1.Filter": {"properties": {"on": {"type": "array", "items":
            {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement"}}}}
        }}
        """;
    @SuppressWarnings("unchecked")
    Map<String, Object> parsed = (Map<String, Object>) Json.parse(document);
    ModelWriter writer = new ModelWriter(parsed, "1.33");
    Map<String, String> sources = writer.sources();
    assertEquals(
        List.of(
            "dev.machinery.api.demo.v1.Filter",
            "dev.machinery.api.demo.v1.Part",
            "dev.machinery.api.demo.v1.Widget",
            "dev.machinery.api.meta.v1.FieldSelectorRequirement",
            "dev.machinery.api.demo.v1.package-info",
            "dev.machinery.api.meta.v1.package-info",
            "dev.machinery.api.GeneratedKinds"),
        List.copyOf(sources.keySet()));
    String widget = sources.get("dev.machinery.api.demo.v1.Widget");
    assertTrue(widget.contains("public final class Widget implements ApiObject"), widget);
    assertTrue(widget.contains(" * A widget &lt;b&gt;."), widget);
    assertTrue(widget.contains("private ObjectMeta metadata;"), widget);
    assertTrue(widget.contains("import dev.machinery.unversioned.meta.v1.ObjectMeta;"), widget);
    assertTrue(widget.contains("private Integer defaultValue;"), widget);
    assertTrue(
        widget.contains("@JsonProperty(\"default\")\n  public Integer getDefault()"), widget);
    assertTrue(widget.contains("private Map<String, byte[]> data;"), widget);
    assertTrue(widget.contains("bytesEqual(data, that.data)"), widget);
    assertTrue(
        widget.contains(
            "@ListType(\"map\")\n"
                + "  @ListMapKeys(\"name\")\n"
                + "  public List<Part> getParts()"),
        widget);
    assertTrue(widget.contains("private Quantity size;"), widget);
    // apiVersion, kind and metadata first, then the document's order.
    assertTrue(widget.indexOf("private String apiVersion;") < widget.indexOf("private Integer"));
    assertTrue(widget.contains("@Override\n  @JsonProperty(\"kind\")\n  public String getKind()"));
    String part = sources.get("dev.machinery.api.demo.v1.Part");
    assertFalse(part.contains("ApiObject"), part);
    assertTrue(
        sources
            .get("dev.machinery.api.demo.v1.Filter")
            .contains("import dev.machinery.api.meta.v1.FieldSelectorRequirement;"));
    String kinds = sources.get("dev.machinery.api.GeneratedKinds");
    assertTrue(
        kinds.contains(
            "GroupVersion.of(\"demo.example.dev\", \"v1\"),\n"
                + "              List.of(\n"
                + "                  dev.machinery.api.demo.v1.Widget.class)"),
        kinds);
    assertEquals(
        Set.of("dev.machinery.api.demo.v1", "dev.machinery.api.meta.v1"), writer.packages());
  }

  @Test
  void aReferenceToAMissingDefinitionIsRefusedNamingIt() {
    @SuppressWarnings("unchecked")
    Map<String, Object> parsed =
        (Map<String, Object>)
            Json.parse(
                "{\"definitions\": {\"io.k8s.api.demo.v1.A\": {\"properties\": {\"b\":"
                    + " {\"$ref\": \"#/definitions/io.k8s.api.demo.v1.Missing\"}}}}}");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new ModelWriter(parsed, "1.33"));
    assertTrue(e.getMessage().contains("io.k8s.api.demo.v1.Missing"), e.getMessage());
  }

  /** Properties follow the .proto field numbers, those of a struct embedded inline included. */
  @Test
  void propertiesFollowTheProtoFieldNumbers() {
    ProtoFieldOrder protos =
        ProtoFieldOrder.of(
            """
            syntax = "proto2";
            package k8s.io.api.demo.v1;
            // A volume.
            message Volume {
              optional string name = 1;
              optional VolumeSource volumeSource = 2;
            }
            message VolumeSource {
              optional HostPath hostPath = 1;
              optional k8s.io.api.demo.v1.EmptyDir emptyDir = 2;
            }
            message Container {
              optional string name = 1;
              map<string, string> labels = 3;
              optional string image = 2;
            }
            """);
    @SuppressWarnings("unchecked")
    Map<String, Object> parsed = (Map<String, Object>) Json.parse("{\"definitions\": {}}");
    ModelWriter writer = new ModelWriter(parsed, "1.33", protos);
    assertEquals(
        List.of("name", "hostPath", "emptyDir", "zzz"),
        writer.order(
            "io.k8s.api.demo.v1.Volume",
            new java.util.LinkedHashSet<>(List.of("emptyDir", "zzz", "hostPath", "name"))));
    assertEquals(
        List.of("name", "image", "labels"),
        writer.order(
            "io.k8s.api.demo.v1.Container",
            new java.util.LinkedHashSet<>(List.of("labels", "image", "name"))));
    // Without a message: type meta and metadata first, then the document's order.
    assertEquals(
        List.of("apiVersion", "kind", "metadata", "b", "a"),
        writer.order(
            "io.k8s.api.other.v1.Thing",
            new java.util.LinkedHashSet<>(List.of("b", "kind", "a", "metadata", "apiVersion"))));
  }
}
