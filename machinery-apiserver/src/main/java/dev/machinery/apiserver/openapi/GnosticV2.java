package dev.machinery.apiserver.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.unversioned.protobuf.ProtoWriter;
import java.util.Map;

/**
 * Writes a Swagger 2.0 document as the gnostic {@code openapi.v2.Document} protobuf message kubectl
 * reads, with the field numbers of gnostic's {@code OpenAPIv2.proto}: the document's version, info,
 * paths (operations and their query, path and body parameters, responses) and definitions (schemas
 * with references, types, formats, descriptions, required properties, properties, items, additional
 * properties, {@code allOf}); every {@code x-} extension as a named value holding its YAML text.
 * Stateless; thread-safe.
 */
final class GnosticV2 {
  private static final YAMLMapper YAML =
      YAMLMapper.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build();

  private GnosticV2() {}

  static byte[] write(JsonNode document) {
    ProtoWriter out = new ProtoWriter();
    out.stringField(1, document.path("swagger").asText());
    ProtoWriter info = new ProtoWriter();
    info.stringField(1, document.at("/info/title").asText());
    info.stringField(2, document.at("/info/version").asText());
    out.bytesField(2, info.toByteArray());
    ProtoWriter paths = new ProtoWriter();
    for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
      ProtoWriter named = new ProtoWriter();
      named.stringField(1, path.getKey());
      named.bytesField(2, pathItem(path.getValue()));
      paths.bytesField(2, named.toByteArray());
    }
    out.bytesField(8, paths.toByteArray());
    ProtoWriter definitions = new ProtoWriter();
    for (Map.Entry<String, JsonNode> definition : document.path("definitions").properties()) {
      definitions.bytesField(1, namedSchema(definition.getKey(), definition.getValue()));
    }
    out.bytesField(9, definitions.toByteArray());
    return out.toByteArray();
  }

  private static byte[] pathItem(JsonNode item) {
    ProtoWriter out = new ProtoWriter();
    int[] numbers = {2, 3, 4, 5, 8};
    String[] methods = {"get", "put", "post", "delete", "patch"};
    for (int i = 0; i < methods.length; i++) {
      JsonNode operation = item.get(methods[i]);
      if (operation != null) {
        out.bytesField(numbers[i], operation(operation));
      }
    }
    for (JsonNode parameter : item.path("parameters")) {
      out.bytesField(9, parametersItem(parameter));
    }
    return out.toByteArray();
  }

  private static byte[] operation(JsonNode operation) {
    ProtoWriter out = new ProtoWriter();
    if (operation.has("description")) {
      out.stringField(3, operation.get("description").asText());
    }
    out.stringField(5, operation.path("operationId").asText());
    for (JsonNode type : operation.path("produces")) {
      out.stringField(6, type.asText());
    }
    for (JsonNode type : operation.path("consumes")) {
      out.stringField(7, type.asText());
    }
    for (JsonNode parameter : operation.path("parameters")) {
      out.bytesField(8, parametersItem(parameter));
    }
    ProtoWriter responses = new ProtoWriter();
    for (Map.Entry<String, JsonNode> response : operation.path("responses").properties()) {
      ProtoWriter value = new ProtoWriter();
      ProtoWriter body = new ProtoWriter();
      body.stringField(1, response.getValue().path("description").asText());
      ProtoWriter schemaItem = new ProtoWriter();
      schemaItem.bytesField(1, schema(response.getValue().path("schema")));
      body.bytesField(2, schemaItem.toByteArray());
      value.bytesField(1, body.toByteArray());
      ProtoWriter named = new ProtoWriter();
      named.stringField(1, response.getKey());
      named.bytesField(2, value.toByteArray());
      responses.bytesField(1, named.toByteArray());
    }
    out.bytesField(9, responses.toByteArray());
    extensions(out, 13, operation);
    return out.toByteArray();
  }

  /** A parameter: a body parameter, or a query or path parameter. */
  private static byte[] parametersItem(JsonNode parameter) {
    ProtoWriter choice = new ProtoWriter();
    String in = parameter.path("in").asText();
    if (in.equals("body")) {
      ProtoWriter body = new ProtoWriter();
      body.stringField(2, parameter.path("name").asText());
      body.stringField(3, "body");
      body.varintField(4, parameter.path("required").asBoolean() ? 1 : 0);
      body.bytesField(5, schema(parameter.path("schema")));
      choice.bytesField(1, body.toByteArray());
    } else {
      ProtoWriter sub = new ProtoWriter();
      boolean query = in.equals("query");
      sub.varintField(1, parameter.path("required").asBoolean() ? 1 : 0);
      sub.stringField(2, in);
      if (parameter.has("description")) {
        sub.stringField(3, parameter.get("description").asText());
      }
      sub.stringField(4, parameter.path("name").asText());
      sub.stringField(query ? 6 : 5, parameter.path("type").asText("string"));
      sub.varintField(query ? 20 : 19, parameter.path("uniqueItems").asBoolean() ? 1 : 0);
      ProtoWriter nonBody = new ProtoWriter();
      nonBody.bytesField(query ? 3 : 4, sub.toByteArray());
      choice.bytesField(2, nonBody.toByteArray());
    }
    ProtoWriter item = new ProtoWriter();
    item.bytesField(1, choice.toByteArray());
    return item.toByteArray();
  }

  private static byte[] namedSchema(String name, JsonNode schema) {
    ProtoWriter named = new ProtoWriter();
    named.stringField(1, name);
    named.bytesField(2, schema(schema));
    return named.toByteArray();
  }

  private static byte[] schema(JsonNode schema) {
    ProtoWriter out = new ProtoWriter();
    if (schema.has("$ref")) {
      out.stringField(1, schema.get("$ref").asText());
    }
    if (schema.has("format")) {
      out.stringField(2, schema.get("format").asText());
    }
    if (schema.has("description")) {
      out.stringField(4, schema.get("description").asText());
    }
    for (JsonNode required : schema.path("required")) {
      out.stringField(19, required.asText());
    }
    if (schema.has("additionalProperties") && schema.get("additionalProperties").isObject()) {
      ProtoWriter additional = new ProtoWriter();
      additional.bytesField(1, schema(schema.get("additionalProperties")));
      out.bytesField(21, additional.toByteArray());
    }
    if (schema.has("type")) {
      ProtoWriter type = new ProtoWriter();
      type.stringField(1, schema.get("type").asText());
      out.bytesField(22, type.toByteArray());
    }
    if (schema.has("items")) {
      ProtoWriter items = new ProtoWriter();
      items.bytesField(1, schema(schema.get("items")));
      out.bytesField(23, items.toByteArray());
    }
    for (JsonNode part : schema.path("allOf")) {
      out.bytesField(24, schema(part));
    }
    if (schema.has("properties")) {
      ProtoWriter properties = new ProtoWriter();
      for (Map.Entry<String, JsonNode> property : schema.get("properties").properties()) {
        properties.bytesField(1, namedSchema(property.getKey(), property.getValue()));
      }
      out.bytesField(25, properties.toByteArray());
    }
    extensions(out, 31, schema);
    return out.toByteArray();
  }

  /** Each {@code x-} field as a NamedAny {name, Any {yaml}}. */
  private static void extensions(ProtoWriter out, int field, JsonNode node) {
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      if (!entry.getKey().startsWith("x-")) {
        continue;
      }
      ProtoWriter any = new ProtoWriter();
      try {
        any.stringField(2, YAML.writeValueAsString(entry.getValue()));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("writing YAML failed", e);
      }
      ProtoWriter named = new ProtoWriter();
      named.stringField(1, entry.getKey());
      named.bytesField(2, any.toByteArray());
      out.bytesField(field, named.toByteArray());
    }
  }
}
