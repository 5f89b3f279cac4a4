package dev.machinery.cel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** Schemas and objects of the tests, written as YAML. */
final class Schemas {
  private static final ObjectMapper YAML = new YAMLMapper();

  private Schemas() {}

  static JSONSchemaProps schema(String yaml) {
    try {
      return YAML.readValue(yaml, JSONSchemaProps.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(String yaml) {
    try {
      return YAML.readValue(yaml, Map.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A resource schema whose spec has the given property schemas and rules, indented YAML. */
  static JSONSchemaProps spec(String specYaml) {
    String indented = specYaml.strip().indent(6);
    return schema("type: object\nproperties:\n  spec:\n" + indented);
  }
}
