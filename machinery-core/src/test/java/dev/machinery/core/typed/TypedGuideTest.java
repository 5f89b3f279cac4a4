package dev.machinery.core.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.FieldsV1;
import org.junit.jupiter.api.Test;

/** The example of docs/fieldpath.md's chapter on schemas. */
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
}
