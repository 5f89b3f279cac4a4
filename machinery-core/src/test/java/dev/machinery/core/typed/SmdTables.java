package dev.machinery.core.typed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.PathElement;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the tables of structured-merge-diff's typed tests kept as data under {@code typed/smd/}:
 * for each case its name, root type, schema (in the YAML form {@link SmdSchemas} reads) and
 * entries; objects are YAML or JSON text, field sets lists of paths, each a list of path elements
 * in their FieldsV1 form ({@code f:name}, {@code k:{...}}, {@code v:value}).
 */
final class SmdTables {
  private SmdTables() {}

  static JsonNode load(String name) {
    try (InputStream in = SmdTables.class.getResourceAsStream("/typed/smd/" + name)) {
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static SchemaType type(JsonNode tableCase) {
    return SmdSchemas.parse(tableCase.path("schema").asText())
        .type(tableCase.path("rootTypeName").asText());
  }

  /** An object of the table; empty text is a JSON null. */
  static JsonNode object(JsonNode text) {
    if (text == null || !text.isTextual()) {
      throw new IllegalArgumentException("not an object of the table: " + text);
    }
    JsonNode value = SmdSchemas.yaml(text.asText());
    return value == null || value.isMissingNode() ? NullNode.getInstance() : value;
  }

  static FieldSet set(JsonNode paths) {
    List<FieldPath> all = new ArrayList<>();
    for (JsonNode path : paths) {
      List<PathElement> elements = new ArrayList<>();
      path.forEach(element -> elements.add(PathElement.parse(element.asText())));
      all.add(new FieldPath(elements));
    }
    return FieldSet.of(all);
  }
}
