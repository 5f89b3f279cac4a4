package dev.machinery.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sizes Kubernetes assumes of a schema's values when it estimates the cost of rules: the
 * largest number of elements (characters of a string, items of a list, entries of a map) and the
 * smallest serialized size in bytes, from {@code maxLength}, {@code maxItems}, {@code
 * maxProperties} and {@code enum}, and where they are missing from the largest request
 * kube-apiserver accepts ({@link #MAX_REQUEST_BYTES}): a list of items of at least {@code n} bytes
 * has at most {@code (3 MiB - 2) / (n + 1)} of them. These are the numbers of Kubernetes' {@code
 * SchemaDeclType}: a string's {@code maxLength} counts four bytes a character, {@code date-time}
 * and {@code duration} strings are at most 32 bytes, {@code date} 12; objects, numbers and booleans
 * have no elements. Immutable.
 *
 * @param maxElements the largest number of elements
 * @param minSerializedSize the smallest size of the value's JSON
 * @param fields the sizes of an object's fields, by their names in rules
 * @param elements the size of a list's items or a map's values, or null
 * @param keys the size of a map's keys, or null
 */
record SchemaSize(
    long maxElements,
    long minSerializedSize,
    Map<String, SchemaSize> fields,
    SchemaSize elements,
    SchemaSize keys) {

  /** kube-apiserver's largest request: 3 MiB ({@code MaxRequestSizeBytes}). */
  static final long MAX_REQUEST_BYTES = 3 * 1024 * 1024;

  private static final SchemaSize MAP_KEY = scalar(0, 2);
  private static final SchemaSize UNBOUNDED_STRING = scalar(MAX_REQUEST_BYTES - 2, 2);

  private static SchemaSize scalar(long maxElements, long minSize) {
    return new SchemaSize(maxElements, minSize, Map.of(), null, null);
  }

  /**
   * The sizes of a schema's values, or null where Kubernetes has no type for them (an array without
   * items, a value without a type).
   *
   * @param schema the schema
   * @param resource whether the values are whole resources (the root, an embedded resource), which
   *     have {@code apiVersion}, {@code kind} and {@code metadata}
   */
  static SchemaSize of(JSONSchemaProps schema, boolean resource) {
    if (schema == null) {
      return null;
    }
    if (schema.allowsIntOrString()) {
      return scalar(MAX_REQUEST_BYTES - 2, 1);
    }
    String type = schema.type() == null ? "" : schema.type();
    switch (type) {
      case "array":
        {
          if (schema.items() == null) {
            return null;
          }
          SchemaSize items = of(schema.items(), schema.items().embedsResource());
          if (items == null) {
            return null;
          }
          long max =
              schema.maxItems() != null
                  ? Math.max(0, schema.maxItems())
                  : (MAX_REQUEST_BYTES - 2) / (items.minSerializedSize + 1);
          return new SchemaSize(max, 2, Map.of(), items, null);
        }
      case "object":
        return object(schema, resource);
      case "string":
        return string(schema);
      case "boolean":
        return scalar(0, 4);
      case "number":
      case "integer":
        return scalar(0, 1);
      default:
        return null;
    }
  }

  private static SchemaSize object(JSONSchemaProps schema, boolean resource) {
    JSONSchemaProps values =
        schema.additionalProperties() == null ? null : schema.additionalProperties().schema();
    if (values != null) {
      SchemaSize valueSize = of(values, values.embedsResource());
      if (valueSize == null) {
        return null;
      }
      long max =
          schema.maxProperties() != null
              ? Math.max(0, schema.maxProperties())
              : (MAX_REQUEST_BYTES - 2) / (valueSize.minSerializedSize + 6);
      return new SchemaSize(max, 2, Map.of(), valueSize, MAP_KEY);
    }
    Map<String, SchemaSize> fields = new HashMap<>();
    List<String> required = schema.required() == null ? List.of() : schema.required();
    long minSize = 2;
    Map<String, JSONSchemaProps> properties =
        schema.properties() == null ? Map.of() : schema.properties();
    for (Map.Entry<String, JSONSchemaProps> property : properties.entrySet()) {
      JSONSchemaProps prop = property.getValue();
      SchemaSize size = of(prop, prop.embedsResource());
      if (size == null) {
        continue;
      }
      String name = FieldNames.escape(property.getKey());
      if (name != null) {
        fields.put(name, size);
      }
      if (required.contains(property.getKey()) && prop.defaultValue() == null) {
        minSize += property.getKey().length() + size.minSerializedSize + 4;
      }
    }
    if (resource && !declaresTypeAndObjectMeta(properties)) {
      fields.put("apiVersion", UNBOUNDED_STRING);
      fields.put("kind", UNBOUNDED_STRING);
      fields.put(
          "metadata",
          new SchemaSize(
              0,
              2,
              Map.of("name", UNBOUNDED_STRING, "generateName", UNBOUNDED_STRING),
              null,
              null));
    }
    return new SchemaSize(0, minSize, Map.copyOf(fields), null, null);
  }

  private static boolean declaresTypeAndObjectMeta(Map<String, JSONSchemaProps> properties) {
    JSONSchemaProps metadata = properties.get("metadata");
    return isType(properties.get("kind"), "string")
        && isType(properties.get("apiVersion"), "string")
        && isType(metadata, "object")
        && metadata.properties() != null
        && isType(metadata.properties().get("name"), "string")
        && isType(metadata.properties().get("generateName"), "string");
  }

  private static boolean isType(JSONSchemaProps schema, String type) {
    return schema != null && type.equals(schema.type());
  }

  private static SchemaSize string(JSONSchemaProps schema) {
    String format = schema.format() == null ? "" : schema.format();
    switch (format) {
      case "byte":
        return scalar(
            schema.maxLength() != null ? Math.max(0, schema.maxLength()) : MAX_REQUEST_BYTES - 2,
            2);
      case "duration":
        return scalar(32, 3);
      case "date":
        return scalar(12, 12);
      case "date-time":
        return scalar(32, 21);
      default:
        break;
    }
    if (schema.maxLength() != null) {
      return scalar(Math.max(0, schema.maxLength()) * 4, 2);
    }
    if (schema.enumValues() != null && !schema.enumValues().isEmpty()) {
      long longest = 0;
      for (JsonNode value : schema.enumValues()) {
        if (value != null && value.isTextual()) {
          longest = Math.max(longest, value.textValue().getBytes(StandardCharsets.UTF_8).length);
        }
      }
      return scalar(longest, 2);
    }
    return UNBOUNDED_STRING;
  }

  /**
   * The size at a path below this one, as cel-go's estimator names paths: field names, {@code
   * @items} and {@code @values} for a list's items and a map's values, {@code @keys} for a map's
   * keys.
   *
   * @return the size, or null when the path leads nowhere Kubernetes knows
   */
  SchemaSize at(List<String> path) {
    SchemaSize at = this;
    for (String name : path) {
      switch (name) {
        case "@items":
        case "@values":
          at = at.elements;
          break;
        case "@keys":
          at = at.keys;
          break;
        default:
          at = at.fields.get(name);
          break;
      }
      if (at == null) {
        return null;
      }
    }
    return at;
  }
}
