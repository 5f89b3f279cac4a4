package dev.machinery.examples.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The CRD files and sample objects of real projects kept under {@code src/test/resources/crds}:
 * copied to a temporary directory (files stored as {@code .gz} decompressed, so kubectl reads them)
 * and read as YAML for what a test expects of them (names, kinds, scopes, served versions, printer
 * columns, field types; each sample's kind, namespace and name).
 */
final class ProjectCrds {
  private static final YAMLMapper YAML = new YAMLMapper();

  private ProjectCrds() {}

  /**
   * Copies a project's folder to a new temporary directory, decompressing each {@code NAME.gz} to
   * {@code NAME}; returns the directory, which has the folder's paths.
   */
  static Path unpack(Path folder) throws IOException {
    Path target = Files.createTempDirectory("crds-" + folder.getFileName());
    List<Path> files;
    try (Stream<Path> walk = Files.walk(folder)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    for (Path file : files) {
      String relative = folder.relativize(file).toString();
      if (relative.endsWith(".gz")) {
        Path out = target.resolve(relative.substring(0, relative.length() - 3));
        Files.createDirectories(out.getParent());
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
          Files.copy(in, out);
        }
      } else {
        Path out = target.resolve(relative);
        Files.createDirectories(out.getParent());
        Files.copy(file, out);
      }
    }
    return target;
  }

  /** Deletes a directory and everything in it. */
  static void delete(Path dir) throws IOException {
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(dir)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path path : paths) {
      Files.deleteIfExists(path);
    }
  }

  /** The YAML files under a directory, in path order. */
  static List<Path> yamlFiles(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  /** The documents of a (multi-document) YAML file, empty ones left out. */
  static List<JsonNode> documents(Path file) {
    List<JsonNode> documents = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      while (it.hasNext()) {
        JsonNode document = it.next();
        if (document != null && document.isObject()) {
          documents.add(document);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(file.toString(), e);
    }
    return documents;
  }

  /** One object of a sample file: what kubectl names it by. */
  record SampleObject(String group, String kind, String namespace, String name) {
    static SampleObject of(JsonNode document) {
      String apiVersion = document.path("apiVersion").asText();
      int slash = apiVersion.indexOf('/');
      return new SampleObject(
          slash < 0 ? "" : apiVersion.substring(0, slash),
          document.path("kind").asText(),
          document.path("metadata").path("namespace").asText(""),
          document.path("metadata").path("name").asText());
    }

    /** kubectl's name of the kind: {@code kind.group}, or the kind alone in the core group. */
    String kindRef() {
      String kind = this.kind.toLowerCase(Locale.ROOT);
      return group.isEmpty() ? kind : kind + "." + group;
    }

    /** The same object in a namespace when it names none (as kubectl's default namespace). */
    SampleObject in(String namespace) {
      return this.namespace.isEmpty() && !kind.equals("Namespace")
          ? new SampleObject(group, kind, namespace, name)
          : this;
    }
  }

  /** A CustomResourceDefinition as kubectl shows it. */
  record Definition(
      String name,
      String group,
      String kind,
      String plural,
      boolean namespaced,
      List<String> servedVersions,
      Map<String, JsonNode> schemas,
      Map<String, List<String>> columns) {

    static Definition of(JsonNode crd) {
      JsonNode spec = crd.path("spec");
      List<String> served = new ArrayList<>();
      Map<String, JsonNode> schemas = new LinkedHashMap<>();
      Map<String, List<String>> columns = new LinkedHashMap<>();
      for (JsonNode version : spec.path("versions")) {
        if (!version.path("served").asBoolean()) {
          continue;
        }
        String name = version.path("name").asText();
        served.add(name);
        schemas.put(name, version.path("schema").path("openAPIV3Schema"));
        List<String> names = new ArrayList<>();
        for (JsonNode column : version.path("additionalPrinterColumns")) {
          names.add(column.path("name").asText());
        }
        columns.put(name, names);
      }
      served.sort(Definition::byKubePriority);
      return new Definition(
          crd.path("metadata").path("name").asText(),
          spec.path("group").asText(),
          spec.path("names").path("kind").asText(),
          spec.path("names").path("plural").asText(),
          spec.path("scope").asText().equals("Namespaced"),
          served,
          schemas,
          columns);
    }

    /** The version kubectl uses when none is named: the first in Kubernetes' version order. */
    String preferredVersion() {
      return servedVersions.get(0);
    }

    /** {@code plural.group}, the resource as kubectl takes it unambiguously. */
    String resource() {
      return plural + "." + group;
    }

    /**
     * The header of {@code kubectl get -o wide} across namespaces: NAMESPACE (of a namespaced
     * kind), NAME, then every printer column of the version (AGE alone when it has none), in
     * capitals.
     */
    List<String> wideHeader(String version) {
      List<String> header = new ArrayList<>();
      if (namespaced) {
        header.add("NAMESPACE");
      }
      header.add("NAME");
      List<String> names = columns.get(version);
      if (names.isEmpty()) {
        header.add("AGE");
      } else {
        for (String column : names) {
          header.add(column.toUpperCase(Locale.ROOT));
        }
      }
      return header;
    }

    /**
     * A field of {@code spec} to explain, with the type kubectl shows for it: the first of a plain
     * type if there is one, else the first.
     */
    Map.Entry<String, String> explainableField(String version) {
      JsonNode properties = schemas.get(version).path("properties").path("spec").path("properties");
      Map.Entry<String, String> first = null;
      for (Map.Entry<String, JsonNode> e : properties.properties()) {
        String type = explainType(e.getValue());
        if (first == null) {
          first = Map.entry(e.getKey(), type);
        }
        if (List.of("string", "integer", "boolean", "number").contains(type)) {
          return Map.entry(e.getKey(), type);
        }
      }
      return first;
    }

    private static String explainType(JsonNode schema) {
      if (schema.path("x-kubernetes-int-or-string").asBoolean()) {
        return "IntOrString";
      }
      String type = schema.path("type").asText("");
      return switch (type) {
        case "array" -> "[]" + explainType(schema.path("items"));
        case "object" ->
            schema.path("additionalProperties").isObject()
                ? "map[string]" + explainType(schema.path("additionalProperties"))
                : "Object";
        default -> type;
      };
    }

    private static final Pattern VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

    /** Kubernetes' version order: GA, then beta, then alpha, higher numbers first. */
    static int byKubePriority(String a, String b) {
      return Comparator.<String>comparingInt(v -> rank(v)[0])
          .thenComparingInt(v -> -rank(v)[1])
          .thenComparingInt(v -> -rank(v)[2])
          .thenComparing(Comparator.naturalOrder())
          .compare(a, b);
    }

    private static int[] rank(String version) {
      Matcher m = VERSION.matcher(version);
      if (!m.matches()) {
        return new int[] {3, 0, 0};
      }
      int level = m.group(2) == null ? 0 : m.group(2).equals("beta") ? 1 : 2;
      int minor = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
      return new int[] {level, Integer.parseInt(m.group(1)), minor};
    }
  }

  /** The CustomResourceDefinitions in files, in file order. */
  static List<Definition> definitions(List<Path> files) {
    List<Definition> definitions = new ArrayList<>();
    for (Path file : files) {
      for (JsonNode document : documents(file)) {
        if (document.path("kind").asText().equals("CustomResourceDefinition")) {
          definitions.add(Definition.of(document));
        }
      }
    }
    return definitions;
  }
}
