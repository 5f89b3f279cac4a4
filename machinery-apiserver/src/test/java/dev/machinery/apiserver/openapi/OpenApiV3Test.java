package dev.machinery.apiserver.openapi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.discovery.Discovery;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.discovery.ResourceInfo;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.testapi.Pod;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The /openapi/v3 index and documents built from a Scheme and discovery. */
class OpenApiV3Test {
  /** A kind with the value types, a merged list and a description. */
  public static final class Widget extends TypeMeta {
    private ObjectMeta metadata;
    private Map<String, Quantity> limits;
    private IntOrString port;
    private Time started;
    private List<Part> parts;
    private int replicas;

    public ObjectMeta getMetadata() {
      return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
      this.metadata = metadata;
    }

    public Map<String, Quantity> getLimits() {
      return limits;
    }

    public void setLimits(Map<String, Quantity> limits) {
      this.limits = limits;
    }

    public IntOrString getPort() {
      return port;
    }

    public void setPort(IntOrString port) {
      this.port = port;
    }

    public Time getStarted() {
      return started;
    }

    public void setStarted(Time started) {
      this.started = started;
    }

    @PatchStrategy("merge")
    @PatchMergeKey("name")
    public List<Part> getParts() {
      return parts;
    }

    public void setParts(List<Part> parts) {
      this.parts = parts;
    }

    @JsonPropertyDescription("How many widgets to run.")
    public int getReplicas() {
      return replicas;
    }

    public void setReplicas(int replicas) {
      this.replicas = replicas;
    }
  }

  /** An element of a merged list. */
  public record Part(String name, String size) {}

  private static final GroupVersion EXAMPLE = GroupVersion.of("example.com", "v1");
  private static final GroupVersion CORE = GroupVersion.of("", "v1");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static OpenApiV3 build() {
    Scheme scheme =
        MetaV1.addToScheme(Scheme.builder())
            .addKnownTypes(EXAMPLE, Widget.class)
            .addKnownTypes(CORE, Pod.class)
            .build();
    Discovery discovery =
        Discovery.builder(scheme)
            .addResource(EXAMPLE, ResourceInfo.of("Widget", true))
            .addResource(CORE, ResourceInfo.of("Pod", true))
            .build();
    return OpenApiV3.build(scheme, discovery, "v1.33.0");
  }

  @Test
  void theIndexNamesEachGroupVersionWithItsHash() throws IOException {
    OpenApiV3 openApi = build();
    JsonNode index = JSON.readTree(openApi.index());
    assertEquals(List.of("api/v1", "apis/example.com/v1"), names(index.get("paths")));
    String url = index.at("/paths/apis~1example.com~1v1/serverRelativeURL").asText();
    assertEquals(
        "/openapi/v3/apis/example.com/v1?hash=" + openApi.hash("apis/example.com/v1").orElseThrow(),
        url);
    assertEquals(128, openApi.hash("api/v1").orElseThrow().length());
    assertArrayEquals(
        openApi.document("api/v1").orElseThrow(), build().document("api/v1").orElseThrow());
    assertArrayEquals(openApi.index(), build().index());
  }

  @Test
  void documentsDescribeKindsAndOperationsAsKubernetes() throws IOException {
    JsonNode document = JSON.readTree(build().document("apis/example.com/v1").orElseThrow());
    assertEquals("3.0.0", document.get("openapi").asText());
    JsonNode widget =
        document.at(
            "/components/schemas/" + Widget.class.getName().replace('$', '.').replace("/", "~1"));
    assertEquals("Widget", widget.at("/x-kubernetes-group-version-kind/0/kind").asText());
    assertEquals("example.com", widget.at("/x-kubernetes-group-version-kind/0/group").asText());
    assertEquals(
        "How many widgets to run.", widget.at("/properties/replicas/description").asText());
    assertEquals("int32", widget.at("/properties/replicas/format").asText());
    assertEquals("name", widget.at("/properties/parts/x-kubernetes-patch-merge-key").asText());
    assertEquals("merge", widget.at("/properties/parts/x-kubernetes-patch-strategy").asText());
    assertEquals("map", widget.at("/properties/parts/x-kubernetes-list-type").asText());
    assertEquals(
        "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity",
        widget.at("/properties/limits/additionalProperties/$ref").asText());
    assertTrue(
        document
            .at(
                "/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString/x-kubernetes-int-or-string")
            .asBoolean());
    assertEquals(
        "date-time",
        document
            .at("/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time/format")
            .asText());
    JsonNode items =
        document.at("/paths/~1apis~1example.com~1v1~1namespaces~1{namespace}~1widgets~1{name}");
    assertEquals("patch", items.at("/patch/x-kubernetes-action").asText());
    List<String> patchParameters = new ArrayList<>();
    items.at("/patch/parameters").forEach(p -> patchParameters.add(p.get("name").asText()));
    assertTrue(patchParameters.contains("fieldValidation"), patchParameters.toString());
    assertTrue(
        items.at("/patch/requestBody/content").has("application/strategic-merge-patch+json"));
    assertEquals(
        "list",
        document
            .at(
                "/paths/~1apis~1example.com~1v1~1namespaces~1{namespace}~1widgets/get/x-kubernetes-action")
            .asText());
  }

  @Test
  void everyReferenceResolves() throws IOException {
    OpenApiV3 openApi = build();
    for (String path : List.of("api/v1", "apis/example.com/v1")) {
      JsonNode document = JSON.readTree(openApi.document(path).orElseThrow());
      List<String> missing = new ArrayList<>();
      check(document, document.get("components").get("schemas"), missing);
      assertEquals(List.of(), missing, path);
    }
  }

  @Test
  void theV2DocumentHoldsEveryGroupVersionAndResolves() throws IOException {
    OpenApiV2 v2 = OpenApiV2.from(build(), "v1.33.0");
    JsonNode document = JSON.readTree(v2.json());
    assertEquals("2.0", document.get("swagger").asText());
    JsonNode patch =
        document.at(
            "/paths/~1apis~1example.com~1v1~1namespaces~1{namespace}~1widgets~1{name}/patch");
    List<String> names = new ArrayList<>();
    patch.get("parameters").forEach(p -> names.add(p.get("name").asText()));
    assertTrue(names.contains("fieldValidation"), names.toString());
    assertEquals("body", patch.at("/parameters/0/in").asText());
    assertTrue(document.at("/paths").has("/api/v1/namespaces/{namespace}/pods"));
    assertEquals(
        "int-or-string",
        document
            .at("/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString/format")
            .asText());
    List<String> missing = new ArrayList<>();
    check(document, document.get("definitions"), missing);
    assertEquals(List.of(), missing);
    assertTrue(v2.protobuf().length > 1000);
    assertArrayEquals(v2.protobuf(), OpenApiV2.from(build(), "v1.33.0").protobuf());
  }

  private static void check(JsonNode node, JsonNode schemas, List<String> missing) {
    if (node.isObject()) {
      JsonNode ref = node.get("$ref");
      if (ref != null) {
        String name = ref.asText().replaceFirst("^#/(components/schemas|definitions)/", "");
        if (!schemas.has(name)) {
          missing.add(name);
        }
      }
      node.forEach(child -> check(child, schemas, missing));
    } else if (node.isArray()) {
      node.forEach(child -> check(child, schemas, missing));
    }
  }

  private static List<String> names(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
