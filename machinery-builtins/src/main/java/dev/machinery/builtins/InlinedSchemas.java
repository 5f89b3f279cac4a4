package dev.machinery.builtins;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaPropsOrBool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an inlined built-in schema ({@link KubeOpenApi#inlined}) as {@link JSONSchemaProps}, for
 * its structural schema. Written out rather than bound by Jackson: binding the 44 components of
 * {@code JSONSchemaProps} costs a fresh JVM a quarter of a second or more the first time, and an
 * inlined schema holds only the keywords {@link KubeOpenApiDigest#KEPT} names and {@code
 * properties}, {@code items} and {@code additionalProperties}. {@code KubeOpenApiDigestTest} checks
 * that every kind's schema reads the same as Jackson binds it. Stateless; thread-safe.
 */
final class InlinedSchemas {
  private static final Set<String> READ =
      Set.of(
          "type",
          "format",
          "enum",
          "required",
          "default",
          "x-kubernetes-list-type",
          "x-kubernetes-list-map-keys",
          "x-kubernetes-map-type",
          "x-kubernetes-preserve-unknown-fields",
          "x-kubernetes-int-or-string",
          "x-kubernetes-embedded-resource",
          "properties",
          "items",
          "additionalProperties");

  private InlinedSchemas() {}

  /**
   * Reads an inlined schema.
   *
   * @param schema the schema, an object
   * @param path where it is, for errors (such as {@code io.k8s.api.core.v1.Pod.properties.spec})
   * @throws IllegalStateException naming the path and the keyword or value it cannot read
   */
  static JSONSchemaProps read(JsonNode schema, String path) {
    if (!schema.isObject()) {
      throw new IllegalStateException(path + ": a schema is an object, not " + schema);
    }
    for (Map.Entry<String, JsonNode> field : schema.properties()) {
      if (!READ.contains(field.getKey())) {
        throw new IllegalStateException(
            path + ": the keyword \"" + field.getKey() + "\" is not read from an inlined schema");
      }
    }
    Map<String, JSONSchemaProps> properties = null;
    JsonNode declared = schema.get("properties");
    if (declared != null) {
      if (!declared.isObject()) {
        throw new IllegalStateException(path + ".properties: an object is expected");
      }
      properties = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> property : declared.properties()) {
        properties.put(
            property.getKey(),
            read(property.getValue(), path + ".properties." + property.getKey()));
      }
    }
    JsonNode items = schema.get("items");
    JsonNode additional = schema.get("additionalProperties");
    JSONSchemaPropsOrBool additionalProperties = null;
    if (additional != null) {
      if (additional.isBoolean()) {
        additionalProperties = new JSONSchemaPropsOrBool(additional.booleanValue(), null);
      } else {
        additionalProperties =
            new JSONSchemaPropsOrBool(true, read(additional, path + ".additionalProperties"));
      }
    }
    JsonNode enumValues = schema.get("enum");
    return new JSONSchemaProps(
        null,
        null,
        null,
        null,
        text(schema, "type", path),
        text(schema, "format", path),
        null,
        schema.get("default"),
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        enumValues == null ? null : nodes(enumValues, path + ".enum"),
        null,
        null,
        strings(schema.get("required"), path + ".required"),
        items == null ? null : read(items, path + ".items"),
        null,
        null,
        null,
        null,
        properties,
        additionalProperties,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        bool(schema, "x-kubernetes-preserve-unknown-fields", path),
        bool(schema, "x-kubernetes-embedded-resource", path),
        bool(schema, "x-kubernetes-int-or-string", path),
        strings(schema.get("x-kubernetes-list-map-keys"), path + ".x-kubernetes-list-map-keys"),
        text(schema, "x-kubernetes-list-type", path),
        text(schema, "x-kubernetes-map-type", path),
        null);
  }

  private static String text(JsonNode schema, String keyword, String path) {
    JsonNode value = schema.get(keyword);
    if (value == null) {
      return null;
    }
    if (!value.isTextual()) {
      throw new IllegalStateException(
          path + "." + keyword + ": a string is expected, not " + value);
    }
    return value.textValue();
  }

  private static Boolean bool(JsonNode schema, String keyword, String path) {
    JsonNode value = schema.get(keyword);
    if (value == null) {
      return null;
    }
    if (!value.isBoolean()) {
      throw new IllegalStateException(
          path + "." + keyword + ": a boolean is expected, not " + value);
    }
    return value.booleanValue();
  }

  private static List<String> strings(JsonNode value, String path) {
    if (value == null) {
      return null;
    }
    if (!value.isArray()) {
      throw new IllegalStateException(path + ": a list of strings is expected, not " + value);
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : value) {
      if (!item.isTextual()) {
        throw new IllegalStateException(path + ": a list of strings is expected, not " + value);
      }
      out.add(item.textValue());
    }
    return out;
  }

  private static List<JsonNode> nodes(JsonNode value, String path) {
    if (!value.isArray()) {
      throw new IllegalStateException(path + ": a list is expected, not " + value);
    }
    List<JsonNode> out = new ArrayList<>();
    value.forEach(out::add);
    return out;
  }
}
