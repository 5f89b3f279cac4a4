package dev.machinery.cel;

import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import java.math.BigInteger;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * JSON values as CEL sees them, following the schema the way {@link DeclaredTypes} types them:
 * integers as {@code Long}, numbers as {@code Double}, {@code date-time} strings as {@code
 * Instant}, {@code duration} strings (Go's form, {@code 1h30m}) as {@code Duration}, {@code byte}
 * strings as bytes, {@code null} as CEL's null. A string a format cannot read stays a string, so
 * that a rule comparing it fails with an error rather than a wrong answer. Stateless.
 */
final class CelValues {
  private CelValues() {}

  static Object toCel(Object value, JSONSchemaProps schema, boolean resource) {
    if (value == null) {
      return NullValue.NULL_VALUE;
    }
    if (schema == null || schema.allowsIntOrString()) {
      return dynamic(value);
    }
    String type = schema.type() == null ? "" : schema.type();
    switch (type) {
      case "object":
        if (!(value instanceof Map<?, ?> map)) {
          return dynamic(value);
        }
        return object(map, schema, resource || schema.embedsResource());
      case "array":
        if (!(value instanceof List<?> list)) {
          return dynamic(value);
        }
        List<Object> items = new ArrayList<>(list.size());
        for (Object item : list) {
          items.add(toCel(item, schema.items(), false));
        }
        return items;
      case "string":
        return value instanceof String text ? string(text, schema.format()) : dynamic(value);
      case "integer":
        if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 0x1p63) {
          return d.longValue();
        }
        return dynamic(value);
      case "number":
        return value instanceof Number number ? (Object) number.doubleValue() : dynamic(value);
      default:
        return dynamic(value);
    }
  }

  private static Object object(Map<?, ?> map, JSONSchemaProps schema, boolean resource) {
    Map<String, JSONSchemaProps> properties =
        schema.properties() == null ? Map.of() : schema.properties();
    Map<String, Object> out = new LinkedHashMap<>();
    if (properties.isEmpty() && !resource) {
      JSONSchemaProps values =
          schema.additionalProperties() == null ? null : schema.additionalProperties().schema();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.put(String.valueOf(entry.getKey()), toCel(entry.getValue(), values, false));
      }
      return out;
    }
    if (resource) {
      copyString(map, "apiVersion", out);
      copyString(map, "kind", out);
      if (map.get("metadata") instanceof Map<?, ?> metadata) {
        Map<String, Object> meta = new LinkedHashMap<>();
        copyString(metadata, "name", meta);
        copyString(metadata, "generateName", meta);
        out.put("metadata", meta);
      }
    }
    for (Map.Entry<String, JSONSchemaProps> property : properties.entrySet()) {
      String name = property.getKey();
      String field = FieldNames.escape(name);
      if (field != null && map.containsKey(name) && !(resource && out.containsKey(field))) {
        out.put(field, toCel(map.get(name), property.getValue(), false));
      }
    }
    return out;
  }

  private static void copyString(Map<?, ?> from, String name, Map<String, Object> to) {
    if (from.get(name) instanceof String text) {
      to.put(name, text);
    }
  }

  private static Object string(String text, String format) {
    if (format == null) {
      return text;
    }
    switch (format) {
      case "date-time":
      case "datetime":
        try {
          String normal = text.replace(' ', 'T').toUpperCase(Locale.ROOT);
          return OffsetDateTime.parse(normal).toInstant();
        } catch (DateTimeParseException e) {
          return text;
        }
      case "date":
        try {
          return java.time.LocalDate.parse(text).atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
          return text;
        }
      case "duration":
        Duration duration = GoDurations.parse(text);
        return duration == null ? text : duration;
      case "byte":
        try {
          return CelByteString.of(Base64.getDecoder().decode(text));
        } catch (IllegalArgumentException e) {
          return text;
        }
      default:
        return text;
    }
  }

  /** A value of no declared type: maps, lists and scalars as they come. */
  static Object dynamic(Object value) {
    if (value == null) {
      return NullValue.NULL_VALUE;
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigInteger big) {
      return big.doubleValue();
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), dynamic(v)));
      return out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(item -> out.add(dynamic(item)));
      return out;
    }
    return value;
  }
}
