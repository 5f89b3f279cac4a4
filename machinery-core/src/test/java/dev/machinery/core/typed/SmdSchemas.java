package dev.machinery.core.typed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads schemas written in structured-merge-diff's own YAML form ({@code types:} of {@code name}
 * with {@code scalar}, {@code list} or {@code map}), so its test tables carry over with their
 * schemas as they are. A list without {@code elementRelationship} is atomic.
 */
public final class SmdSchemas {
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private SmdSchemas() {}

  /**
   * Reads YAML text.
   *
   * @param text the text
   * @return the tree
   */
  public static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads a schema in structured-merge-diff's YAML form.
   *
   * @param text the schema
   * @return the schema
   */
  public static Schema parse(String text) {
    Schema.Builder builder = Schema.builder();
    for (JsonNode type : yaml(text).path("types")) {
      builder.type(type.path("name").asText(), atom(type));
    }
    return builder.build();
  }

  private static Atom atom(JsonNode node) {
    ScalarType scalar = node.has("scalar") ? scalar(node.get("scalar").asText()) : null;
    ListAtom list = null;
    if (node.has("list")) {
      JsonNode l = node.get("list");
      List<String> keys = new ArrayList<>();
      l.path("keys").forEach(k -> keys.add(k.asText()));
      list =
          new ListAtom(
              ref(l.path("elementType")), relationship(l, ElementRelationship.ATOMIC), keys);
    }
    MapAtom map = null;
    if (node.has("map")) {
      JsonNode m = node.get("map");
      List<StructField> fields = new ArrayList<>();
      for (JsonNode f : m.path("fields")) {
        fields.add(new StructField(f.path("name").asText(), ref(f.path("type")), f.get("default")));
      }
      map =
          new MapAtom(
              fields,
              m.has("elementType") ? ref(m.get("elementType")) : null,
              relationship(m, ElementRelationship.SEPARABLE));
    }
    return new Atom(scalar, list, map);
  }

  /**
   * A scalar kind; a name Go does not know (remove_test.go's {@code number}) checks nothing there,
   * as an untyped scalar.
   */
  private static ScalarType scalar(String name) {
    return switch (name) {
      case "numeric", "string", "boolean", "untyped" ->
          ScalarType.valueOf(name.toUpperCase(java.util.Locale.ROOT));
      default -> ScalarType.UNTYPED;
    };
  }

  private static ElementRelationship relationship(JsonNode node, ElementRelationship otherwise) {
    return node.has("elementRelationship")
        ? ElementRelationship.valueOf(
            node.get("elementRelationship").asText().toUpperCase(java.util.Locale.ROOT))
        : otherwise;
  }

  private static TypeRef ref(JsonNode node) {
    TypeRef ref =
        node.has("namedType")
            ? TypeRef.named(node.get("namedType").asText())
            : TypeRef.inline(atom(node));
    return node.has("elementRelationship") ? ref.withRelationship(relationship(node, null)) : ref;
  }
}
