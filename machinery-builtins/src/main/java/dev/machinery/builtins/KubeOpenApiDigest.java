package dev.machinery.builtins;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.schema.GroupVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the server reads of Kubernetes' OpenAPI document when it starts, prepared from the document
 * once and bundled beside it ({@code digest.txt}): the resources its paths describe ({@link
 * BuiltinResource}) and each named schema cut to what a structural schema keeps (types, formats,
 * enums, defaults, required fields, the {@code x-kubernetes-*} keywords a structural schema has,
 * and the properties, items, additional properties and references that hold them; no descriptions).
 * The patch strategies are kept too, for server-side apply's schema, which every write's managed
 * fields are tracked by. A start reads these 0.27 MB instead of parsing the 3.7 MB document; the
 * whole document is parsed only when a client first asks for OpenAPI or a strategic merge patch
 * needs its schemas. {@code KubeOpenApiDigestTest} fails when the bundled digest is not what {@link
 * #write} makes of the bundled document, and writes the digest it expects under {@code target}.
 *
 * <p>The format is one record a line, fields separated by tabs: {@code #} comments; {@code R}
 * group, version, resource, kind, schema name, list schema name ({@code -} for none), namespaced,
 * verbs, subresources (comma-separated), whether a delete answers the object; {@code D} schema
 * name, the schema cut down as compact JSON.
 *
 * <p>Immutable and thread-safe once read.
 */
final class KubeOpenApiDigest {
  /**
   * The mapper schemas are read and written with, made on first use: reading the digest's records
   * needs none, so a start may read them while Jackson starts on another thread.
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private static final String NONE = "-";

  /** Schema keywords a structural schema keeps (the rest, descriptions first, is left out). */
  static final Set<String> KEPT =
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
          "x-kubernetes-embedded-resource");

  /**
   * What the digest keeps of a schema besides {@link #KEPT}: the patch strategies server-side
   * apply's schema reads where a list has no {@code x-kubernetes-list-type}.
   */
  private static final Set<String> PATCH =
      Set.of("x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key");

  private final List<BuiltinResource> resources;
  private final Map<String, String> definitions;
  private final Map<String, JsonNode> parsed = new ConcurrentHashMap<>();

  private KubeOpenApiDigest(List<BuiltinResource> resources, Map<String, String> definitions) {
    this.resources = resources;
    this.definitions = definitions;
  }

  /** The resources of the document's paths, in its order. */
  List<BuiltinResource> resources() {
    return resources;
  }

  /** The names of the document's schemas, in its order. */
  List<String> definitionNames() {
    return List.copyOf(definitions.keySet());
  }

  /** Whether the document names a schema so. */
  boolean hasDefinition(String name) {
    return definitions.containsKey(name);
  }

  /**
   * A named schema, cut down, parsed on its first read (not to be changed); null when the document
   * has none of that name.
   */
  JsonNode definition(String name) {
    JsonNode known = parsed.get(name);
    if (known != null) {
      return known;
    }
    String text = definitions.get(name);
    if (text == null) {
      return null;
    }
    try {
      JsonNode tree = Json.MAPPER.readTree(text);
      parsed.put(name, tree);
      return tree;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the digest's schema " + name + " is not JSON", e);
    }
  }

  /**
   * Reads a digest.
   *
   * @param in the digest's text, UTF-8
   * @param source its name, for errors
   * @throws IllegalStateException naming the line when a record is malformed
   */
  static KubeOpenApiDigest read(InputStream in, String source) {
    String text;
    try {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + source + " failed", e);
    }
    List<BuiltinResource> resources = new ArrayList<>();
    Map<String, String> definitions = new LinkedHashMap<>();
    int start = 0;
    int number = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      String line = text.substring(start, end);
      start = end + 1;
      number++;
      if (line.isEmpty() || line.charAt(0) == '#') {
        continue;
      }
      String[] fields = line.split("\t", -1);
      if (fields[0].equals("R") && fields.length == 11) {
        resources.add(
            new BuiltinResource(
                GroupVersion.of(fields[1], fields[2]),
                fields[3],
                fields[4],
                fields[5],
                fields[6].equals(NONE) ? null : fields[6],
                Boolean.parseBoolean(fields[7]),
                names(fields[8]),
                names(fields[9]),
                Boolean.parseBoolean(fields[10])));
      } else if (fields[0].equals("D") && fields.length == 3) {
        definitions.put(fields[1], fields[2]);
      } else {
        throw new IllegalStateException(
            source
                + ", line "
                + number
                + ": not a record of a digest: \""
                + abbreviate(line)
                + "\"");
      }
    }
    return new KubeOpenApiDigest(List.copyOf(resources), definitions);
  }

  private static Set<String> names(String field) {
    return field.isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(field.split(",")));
  }

  private static String abbreviate(String line) {
    return line.length() <= 60 ? line : line.substring(0, 60) + "…";
  }

  /**
   * Makes the digest of a document (its key defaults added, as {@link KubeOpenApi} reads it).
   *
   * @param release the release, for the digest's first line
   * @param document the whole document
   * @return the digest's text
   */
  static String write(String release, ObjectNode document) {
    StringBuilder out = new StringBuilder();
    out.append("# What the server reads at start of Kubernetes ")
        .append(release)
        .append("'s swagger.json (beside this file), made from it by KubeOpenApiDigest.write;\n")
        .append("# KubeOpenApiDigestTest fails when it no longer matches. Records: see")
        .append(" KubeOpenApiDigest.\n");
    for (BuiltinResource resource : BuiltinResource.fromPaths(document.path("paths"))) {
      out.append("R\t")
          .append(resource.version().group())
          .append('\t')
          .append(resource.version().version())
          .append('\t')
          .append(resource.resource())
          .append('\t')
          .append(resource.kind())
          .append('\t')
          .append(resource.definition())
          .append('\t')
          .append(resource.listDefinition() == null ? NONE : resource.listDefinition())
          .append('\t')
          .append(resource.namespaced())
          .append('\t')
          .append(String.join(",", new TreeSet<>(resource.verbs())))
          .append('\t')
          .append(String.join(",", new TreeSet<>(resource.subresources())))
          .append('\t')
          .append(resource.deleteReturnsObject())
          .append('\n');
    }
    for (Map.Entry<String, JsonNode> definition : document.path("definitions").properties()) {
      try {
        out.append("D\t")
            .append(definition.getKey())
            .append('\t')
            .append(Json.MAPPER.writeValueAsString(cut(definition.getValue())))
            .append('\n');
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(
            "the schema " + definition.getKey() + " cannot be written", e);
      }
    }
    return out.toString();
  }

  /**
   * A schema with what a structural schema reads of it: the kept keywords as they are, references,
   * and {@code allOf}, {@code properties}, {@code items} and {@code additionalProperties} cut down
   * in turn.
   */
  static JsonNode cut(JsonNode schema) {
    if (!(schema instanceof ObjectNode object)) {
      return schema;
    }
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      String key = field.getKey();
      JsonNode value = field.getValue();
      if (KEPT.contains(key) || PATCH.contains(key) || key.equals("$ref")) {
        out.set(key, value);
      } else if (key.equals("allOf") && value instanceof ArrayNode all) {
        ArrayNode cut = out.putArray("allOf");
        all.forEach(item -> cut.add(cut(item)));
      } else if (key.equals("properties")) {
        if (value.isObject()) {
          ObjectNode properties = out.putObject("properties");
          value.properties().forEach(p -> properties.set(p.getKey(), cut(p.getValue())));
        } else {
          out.set("properties", value);
        }
      } else if (key.equals("items") && value.isObject()) {
        out.set("items", cut(value));
      } else if (key.equals("additionalProperties")) {
        out.set("additionalProperties", cut(value));
      }
    }
    return out;
  }
}
