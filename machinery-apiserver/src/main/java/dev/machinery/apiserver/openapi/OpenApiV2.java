package dev.machinery.apiserver.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The OpenAPI v2 (Swagger 2.0) document kube-apiserver serves at {@code /openapi/v2}, made from the
 * v3 documents of every served group version: one document, {@code #/definitions/} in place of
 * {@code #/components/schemas/}, body parameters in place of request bodies, and the value types as
 * v2 describes them ({@code Quantity} a string, {@code IntOrString} a string of format {@code
 * int-or-string}). {@link #json()} is the JSON form; {@link #protobuf()} the protobuf form kubectl
 * 1.27 and 1.28 read ({@code application/com.github.proto-openapi.spec.v2.v1.0+protobuf}, the
 * gnostic {@code openapi.v2.Document} message).
 *
 * <p>Built once; immutable and safe for concurrent use.
 */
public final class OpenApiV2 {
  /** The Content-Type of the protobuf form. */
  public static final String PROTOBUF_CONTENT_TYPE =
      "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
  private static final String V3_REF = "#/components/schemas/";

  private final byte[] json;
  private final byte[] protobuf;

  private OpenApiV2(byte[] json, byte[] protobuf) {
    this.json = json;
    this.protobuf = protobuf;
  }

  /**
   * Makes the v2 document from the v3 documents.
   *
   * @param v3 the v3 documents
   * @param version the server's version, written as {@code info.version}
   * @return the document
   */
  public static OpenApiV2 from(OpenApiV3 v3, String version) {
    ObjectNode document = NODES.objectNode();
    document.put("swagger", "2.0");
    document.putObject("info").put("title", "Kubernetes").put("version", version);
    ObjectNode paths = document.putObject("paths");
    ObjectNode definitions = document.putObject("definitions");
    for (String path : v3.paths()) {
      JsonNode v3document = read(v3.document(path).orElseThrow());
      for (Map.Entry<String, JsonNode> item : v3document.get("paths").properties()) {
        paths.set(item.getKey(), pathItem(item.getValue()));
      }
      for (Map.Entry<String, JsonNode> schema :
          v3document.path("components").path("schemas").properties()) {
        definitions.set(schema.getKey(), schema(schema.getValue()));
      }
    }
    byte[] json = write(document);
    return new OpenApiV2(json, GnosticV2.write(document));
  }

  /**
   * Returns the JSON form.
   *
   * @return the document
   */
  public byte[] json() {
    return json.clone();
  }

  /**
   * Returns the protobuf form (the gnostic {@code openapi.v2.Document}).
   *
   * @return the document
   */
  public byte[] protobuf() {
    return protobuf.clone();
  }

  private static JsonNode pathItem(JsonNode v3) {
    ObjectNode item = NODES.objectNode();
    for (Map.Entry<String, JsonNode> entry : v3.properties()) {
      if (entry.getKey().equals("parameters")) {
        item.set("parameters", parameters(entry.getValue()));
      } else {
        item.set(entry.getKey(), operation(entry.getValue()));
      }
    }
    return item;
  }

  private static ObjectNode operation(JsonNode v3) {
    ObjectNode operation = NODES.objectNode();
    operation.put("description", v3.path("description").asText());
    operation.put("operationId", v3.path("operationId").asText());
    ArrayNode consumes = operation.putArray("consumes");
    JsonNode body = v3.get("requestBody");
    ArrayNode parameters = parameters(v3.path("parameters"));
    if (body != null) {
      JsonNode schema = NODES.objectNode();
      for (Map.Entry<String, JsonNode> content : body.path("content").properties()) {
        consumes.add(content.getKey());
        schema = schema(content.getValue().path("schema"));
      }
      ObjectNode bodyParameter = NODES.objectNode();
      bodyParameter.put("name", "body").put("in", "body").put("required", true);
      bodyParameter.set("schema", schema);
      parameters.insert(0, bodyParameter);
    } else {
      consumes.add("*/*");
    }
    operation.putArray("produces").add("application/json").add("application/yaml");
    operation.set("parameters", parameters);
    ObjectNode ok = operation.putObject("responses").putObject("200");
    ok.put("description", "OK");
    ok.set("schema", schema(v3.at("/responses/200/content/application~1json/schema")));
    operation.set("x-kubernetes-action", v3.get("x-kubernetes-action"));
    operation.set("x-kubernetes-group-version-kind", v3.get("x-kubernetes-group-version-kind"));
    return operation;
  }

  private static ArrayNode parameters(JsonNode v3) {
    ArrayNode parameters = NODES.arrayNode();
    for (JsonNode parameter : v3) {
      ObjectNode v2 = NODES.objectNode();
      v2.put("name", parameter.path("name").asText());
      v2.put("in", parameter.path("in").asText());
      if (parameter.has("description")) {
        v2.put("description", parameter.get("description").asText());
      }
      if (parameter.path("required").asBoolean()) {
        v2.put("required", true);
      }
      v2.put("type", parameter.at("/schema/type").asText("string"));
      v2.put("uniqueItems", true);
      parameters.add(v2);
    }
    return parameters;
  }

  /** A v3 schema as v2 writes it. */
  static JsonNode schema(JsonNode v3) {
    if (!v3.isObject()) {
      return v3;
    }
    if (v3.has("oneOf")) {
      return NODES
          .objectNode()
          .put("description", v3.path("description").asText())
          .put("type", "string");
    }
    if (v3.path("x-kubernetes-int-or-string").asBoolean()) {
      return NODES
          .objectNode()
          .put("description", v3.path("description").asText())
          .put("type", "string")
          .put("format", "int-or-string");
    }
    ObjectNode schema = NODES.objectNode();
    for (Map.Entry<String, JsonNode> entry : v3.properties()) {
      String key = entry.getKey();
      JsonNode value = entry.getValue();
      if (key.equals("$ref")) {
        schema.put("$ref", "#/definitions/" + value.asText().substring(V3_REF.length()));
      } else if (key.equals("allOf") && value.size() == 1) {
        JsonNode only = schema(value.get(0));
        only.properties().forEach(e -> schema.set(e.getKey(), e.getValue()));
      } else if (key.equals("properties")) {
        ObjectNode properties = schema.putObject("properties");
        value.properties().forEach(e -> properties.set(e.getKey(), schema(e.getValue())));
      } else if (key.equals("items") || key.equals("additionalProperties")) {
        schema.set(key, schema(value));
      } else {
        schema.set(key, value.deepCopy());
      }
    }
    return schema;
  }

  private static JsonNode read(byte[] json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("reading a generated document failed", e);
    }
  }

  private static byte[] write(JsonNode node) {
    try {
      return JSON.writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing a JSON tree failed", e);
    }
  }
}
