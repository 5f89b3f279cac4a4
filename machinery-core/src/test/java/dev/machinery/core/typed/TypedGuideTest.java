package dev.machinery.core.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.FieldsV1;
import dev.machinery.core.fieldpath.PathElement;
import org.junit.jupiter.api.Test;

/** The examples of docs/fieldpath.md's chapter on schemas. */
class TypedGuideTest {
  @Test
  void fieldSetOfACustomResource() throws Exception {
    ObjectMapper json = new ObjectMapper();
    JsonNode openApi =
        json.readTree(
            "{\"type\":\"object\",\"properties\":{"
                + "\"spec\":{\"type\":\"object\",\"properties\":{"
                + "\"replicas\":{\"type\":\"integer\"},"
                + "\"selector\":{\"type\":\"object\",\"x-kubernetes-map-type\":\"atomic\","
                + "\"additionalProperties\":{\"type\":\"string\"}},"
                + "\"ports\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\","
                + "\"x-kubernetes-list-map-keys\":[\"port\"],\"items\":{\"type\":\"object\","
                + "\"properties\":{\"port\":{\"type\":\"integer\"},\"name\":{\"type\":\"string\"}}}}"
                + "}}}}");
    SchemaType widget = OpenApiSchemas.fromSchema("Widget", openApi, false).type("Widget");

    JsonNode object =
        json.readTree(
            "{\"spec\":{\"replicas\":2,\"selector\":{\"app\":\"web\"},"
                + "\"ports\":[{\"port\":80,\"name\":\"http\"}]}}");
    FieldSet fields = widget.toFieldSet(object);
    assertEquals(
        "{\"f:spec\":{\"f:ports\":{\"k:{\\\"port\\\":80}\":{\".\":{},\"f:name\":{},\"f:port\":{}}},"
            + "\"f:replicas\":{},\"f:selector\":{}}}",
        FieldsV1.toJson(fields));

    JsonNode twice = json.readTree("{\"spec\":{\"ports\":[{\"port\":80},{\"port\":80}]}}");
    TypedException e = assertThrows(TypedException.class, () -> widget.toFieldSet(twice));
    assertEquals(".spec.ports: duplicate entries for key [port=80]", e.getMessage());
  }

  @Test
  void compareMergeAndRemove() throws Exception {
    ObjectMapper json = new ObjectMapper();
    SchemaType widget = OpenApiSchemas.fromSchema("Widget", widgetSchema(), false).type("Widget");

    JsonNode live =
        json.readTree(
            "{\"spec\":{\"replicas\":2,\"selector\":{\"app\":\"web\"},"
                + "\"ports\":[{\"port\":80,\"name\":\"http\"}]}}");
    JsonNode applied = json.readTree("{\"spec\":{\"replicas\":3,\"ports\":[{\"port\":443}]}}");

    Comparison diff = widget.compare(live, applied);
    assertEquals("{\"f:spec\":{\"f:replicas\":{}}}", FieldsV1.toJson(diff.modified()));
    assertEquals(
        "{\"f:spec\":{\"f:ports\":{\"k:{\\\"port\\\":443}\":{\".\":{},\"f:port\":{}}}}}",
        FieldsV1.toJson(diff.added()));

    JsonNode merged = widget.merge(live, applied);
    assertEquals(
        "{\"spec\":{\"replicas\":3,\"selector\":{\"app\":\"web\"},"
            + "\"ports\":[{\"port\":80,\"name\":\"http\"},{\"port\":443}]}}",
        merged.toString());

    FieldSet http = FieldSet.of(FieldPath.of("spec", "ports", PathElement.key("port", 80)));
    assertEquals(
        "{\"spec\":{\"replicas\":3,\"selector\":{\"app\":\"web\"},\"ports\":[{\"port\":443}]}}",
        widget.removeItems(merged, http).toString());
    assertEquals(
        "{\"spec\":{\"ports\":[{\"port\":80,\"name\":\"http\"}]}}",
        widget.extractItems(merged, http).toString());
  }

  private static JsonNode widgetSchema() throws Exception {
    return new ObjectMapper()
        .readTree(
            "{\"type\":\"object\",\"properties\":{"
                + "\"spec\":{\"type\":\"object\",\"properties\":{"
                + "\"replicas\":{\"type\":\"integer\"},"
                + "\"selector\":{\"type\":\"object\",\"x-kubernetes-map-type\":\"atomic\","
                + "\"additionalProperties\":{\"type\":\"string\"}},"
                + "\"ports\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\","
                + "\"x-kubernetes-list-map-keys\":[\"port\"],\"items\":{\"type\":\"object\","
                + "\"properties\":{\"port\":{\"type\":\"integer\"},\"name\":{\"type\":\"string\"}}}}"
                + "}}}}");
  }
}
