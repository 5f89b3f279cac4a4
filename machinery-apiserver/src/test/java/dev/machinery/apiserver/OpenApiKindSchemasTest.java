package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A kind's schema for type checking, found among an OpenAPI v3 document's named schemas by its
 * {@code x-kubernetes-group-version-kind}, references inlined.
 */
class OpenApiKindSchemasTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final GroupVersionKind THING = GroupVersionKind.of("example.com", "v1", "Thing");

  private static JsonNode components(String json) throws Exception {
    return JSON.readTree(json);
  }

  private static final String DOCUMENT =
      """
      {
        "com.example.v1.Thing": {
          "type": "object",
          "description": "left out",
          "x-kubernetes-group-version-kind": [
            {"group": "example.com", "version": "v1", "kind": "Thing"}
          ],
          "properties": {
            "spec": {"$ref": "#/components/schemas/com.example.v1.Spec"},
            "port": {"allOf": [{"$ref": "#/components/schemas/IntOrString"}], "default": 80},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}
          }
        },
        "com.example.v1.Spec": {
          "type": "object",
          "properties": {
            "size": {"type": "integer", "format": "int64"},
            "child": {"$ref": "#/components/schemas/com.example.v1.Spec"},
            "missing": {"$ref": "#/components/schemas/Nowhere"}
          }
        },
        "IntOrString": {"type": "string", "format": "int-or-string"}
      }
      """;

  @Test
  void findsTheKindAndInlinesItsReferences() throws Exception {
    JSONSchemaProps thing = OpenApiKindSchemas.resolve(components(DOCUMENT), THING).orElseThrow();
    assertEquals("object", thing.type());
    JSONSchemaProps spec = thing.properties().get("spec");
    assertEquals("object", spec.type());
    assertEquals("integer", spec.properties().get("size").type());
    assertEquals("string", thing.properties().get("labels").additionalProperties().schema().type());
  }

  @Test
  void aReferenceToASchemaItIsInsideIsAnyObject() throws Exception {
    JSONSchemaProps spec =
        OpenApiKindSchemas.resolve(components(DOCUMENT), THING)
            .orElseThrow()
            .properties()
            .get("spec");
    JSONSchemaProps child = spec.properties().get("child");
    assertEquals("object", child.type());
    assertTrue(child.preservesUnknownFields());
    assertTrue(child.properties() == null || child.properties().isEmpty());
    assertTrue(spec.properties().get("missing").preservesUnknownFields());
  }

  @Test
  void anIntOrStringReferencedThroughAllOfIsAnyIntegerOrString() throws Exception {
    JSONSchemaProps port =
        OpenApiKindSchemas.resolve(components(DOCUMENT), THING)
            .orElseThrow()
            .properties()
            .get("port");
    assertTrue(port.allowsIntOrString());
  }

  @Test
  void anotherKindIsNotFound() throws Exception {
    assertEquals(
        Optional.empty(),
        OpenApiKindSchemas.resolve(
            components(DOCUMENT), GroupVersionKind.of("example.com", "v2", "Thing")));
  }
}
