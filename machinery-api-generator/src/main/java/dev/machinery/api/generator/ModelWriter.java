package dev.machinery.api.generator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes the Java sources of Kubernetes' built-in kinds from an OpenAPI v2 document: one mutable
 * bean a definition, in one package a group version ({@code io.k8s.api.apps.v1.Deployment} becomes
 * {@code dev.machinery.api.apps.v1.Deployment}), a {@code package-info.java} a package, and the
 * registration list {@code dev.machinery.api.GeneratedKinds}. Definitions of k8s.io/apimachinery
 * are mapped to the classes machinery-unversioned already holds; what it does not hold and is
 * referenced is generated into {@code dev.machinery.api.meta.v1}.
 */
final class ModelWriter {
  static final String ROOT = "dev.machinery.api";

  private static final String UNVERSIONED_META = "dev.machinery.unversioned.meta.v1.";
  private static final String JSON_NODE = "com.fasterxml.jackson.databind.JsonNode";

  /** Definitions held by machinery-unversioned (or as JSON trees), by OpenAPI name. */
  private static final Map<String, String> MAPPED = new HashMap<>();

  static {
    String meta = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    for (String name :
        List.of(
            "APIGroup",
            "APIGroupList",
            "APIResource",
            "APIResourceList",
            "APIVersions",
            "Condition",
            "DeleteOptions",
            "GroupVersionForDiscovery",
            "LabelSelector",
            "LabelSelectorRequirement",
            "ListMeta",
            "ManagedFieldsEntry",
            "MicroTime",
            "ObjectMeta",
            "OwnerReference",
            "Preconditions",
            "ServerAddressByClientCIDR",
            "Status",
            "StatusCause",
            "StatusDetails",
            "Time",
            "WatchEvent")) {
      MAPPED.put(meta + name, UNVERSIONED_META + name);
    }
    MAPPED.put(meta + "FieldsV1", JSON_NODE);
    MAPPED.put("io.k8s.apimachinery.pkg.runtime.RawExtension", JSON_NODE);
    MAPPED.put(
        "io.k8s.apimachinery.pkg.api.resource.Quantity",
        "dev.machinery.unversioned.resource.Quantity");
    MAPPED.put(
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
        "dev.machinery.unversioned.intstr.IntOrString");
    String apiextensions = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.";
    for (String name :
        List.of(
            "JSON",
            "JSONSchemaPropsOrArray",
            "JSONSchemaPropsOrBool",
            "JSONSchemaPropsOrStringArray")) {
      MAPPED.put(apiextensions + name, JSON_NODE);
    }
  }

  private static final Set<String> KEYWORDS =
      Set.of(
          "abstract",
          "assert",
          "boolean",
          "break",
          "byte",
          "case",
          "catch",
          "char",
          "class",
          "const",
          "continue",
          "default",
          "do",
          "double",
          "else",
          "enum",
          "extends",
          "final",
          "finally",
          "float",
          "for",
          "goto",
          "if",
          "implements",
          "import",
          "instanceof",
          "int",
          "interface",
          "long",
          "native",
          "new",
          "package",
          "private",
          "protected",
          "public",
          "return",
          "short",
          "static",
          "strictfp",
          "super",
          "switch",
          "synchronized",
          "this",
          "throw",
          "throws",
          "transient",
          "try",
          "void",
          "volatile",
          "while",
          "true",
          "false",
          "null",
          "var",
          "record",
          "yield",
          "sealed",
          "permits",
          "value",
          "other",
          "that");

  private final Map<String, Object> definitions;
  private final String release;

  /** OpenAPI name → fully qualified Java name of every generated definition. */
  private final Map<String, String> generated = new TreeMap<>();

  /** Java package → simple names of the classes generated into it. */
  private final Map<String, Set<String>> packages = new TreeMap<>();

  /** Java package → API group version ({@code apps/v1}, {@code v1}), from its kinds. */
  private final Map<String, String> groupVersions = new TreeMap<>();

  /** The field numbers of the .proto files, which order the properties. */
  private final ProtoFieldOrder protos;

  ModelWriter(Map<String, Object> document, String release) {
    this(document, release, ProtoFieldOrder.NONE);
  }

  @SuppressWarnings("unchecked")
  ModelWriter(Map<String, Object> document, String release, ProtoFieldOrder protos) {
    this.protos = protos;
    this.definitions = (Map<String, Object>) document.get("definitions");
    if (definitions == null) {
      throw new IllegalArgumentException("the OpenAPI document has no definitions");
    }
    this.release = release;
    List<String> wanted = new ArrayList<>();
    for (String name : definitions.keySet()) {
      if (!name.startsWith("io.k8s.apimachinery.") && !MAPPED.containsKey(name)) {
        wanted.add(name);
      }
    }
    // What the built-in kinds reference and machinery-unversioned does not hold.
    for (String name : new ArrayList<>(wanted)) {
      collectUnmapped(definition(name), wanted);
    }
    for (String name : wanted) {
      String javaName = javaClassOf(name);
      generated.put(name, javaName);
      String pkg = javaName.substring(0, javaName.lastIndexOf('.'));
      packages
          .computeIfAbsent(pkg, p -> new TreeSet<>())
          .add(javaName.substring(javaName.lastIndexOf('.') + 1));
      for (Map<String, Object> gvk : kinds(definition(name))) {
        String group = (String) gvk.get("group");
        String gv =
            (group == null || group.isEmpty() ? "" : group + "/") + (String) gvk.get("version");
        String earlier = groupVersions.putIfAbsent(pkg, gv);
        if (earlier != null && !earlier.equals(gv)) {
          throw new IllegalArgumentException(
              "package " + pkg + " would hold two group versions: " + earlier + " and " + gv);
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void collectUnmapped(Object schema, List<String> wanted) {
    if (schema instanceof Map<?, ?> map) {
      Object ref = map.get("$ref");
      if (ref instanceof String s) {
        String target = s.substring(s.lastIndexOf('/') + 1);
        if (!MAPPED.containsKey(target) && !wanted.contains(target)) {
          wanted.add(target);
          collectUnmapped(definition(target), wanted);
        }
      }
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!"$ref".equals(e.getKey())) {
          collectUnmapped(e.getValue(), wanted);
        }
      }
    } else if (schema instanceof List<?> list) {
      for (Object o : list) {
        collectUnmapped(o, wanted);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> definition(String name) {
    Object d = definitions.get(name);
    if (!(d instanceof Map<?, ?>)) {
      throw new IllegalArgumentException("no definition " + name);
    }
    return (Map<String, Object>) d;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> kinds(Map<String, Object> definition) {
    Object gvks = definition.get("x-kubernetes-group-version-kind");
    return gvks == null ? List.of() : (List<Map<String, Object>>) gvks;
  }

  /** {@code io.k8s.api.apps.v1.Deployment} → {@code dev.machinery.api.apps.v1.Deployment}. */
  static String javaClassOf(String definition) {
    String[] parts = definition.split("\\.");
    if (parts.length < 3) {
      throw new IllegalArgumentException("unexpected definition name " + definition);
    }
    String group = parts[parts.length - 3].replace('-', '_').toLowerCase(Locale.ROOT);
    String version = parts[parts.length - 2].toLowerCase(Locale.ROOT);
    return ROOT + "." + group + "." + version + "." + parts[parts.length - 1];
  }

  /** The sources, by fully qualified class name ({@code package-info} included). */
  Map<String, String> sources() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : generated.entrySet()) {
      out.put(e.getValue(), new ClassWriter(e.getKey(), e.getValue()).write());
    }
    for (String pkg : packages.keySet()) {
      out.put(pkg + ".package-info", packageInfo(pkg));
    }
    out.put(ROOT + ".GeneratedKinds", registration());
    return out;
  }

  /** The generated packages. */
  Set<String> packages() {
    return Collections.unmodifiableSet(packages.keySet());
  }

  private String packageInfo(String pkg) {
    String gv = groupVersions.get(pkg);
    StringBuilder b = new StringBuilder();
    b.append("/**\n");
    if (gv != null) {
      b.append(" * The {@code ")
          .append(gv)
          .append("} API of Kubernetes ")
          .append(release)
          .append(": its kinds and the types they hold, generated\n");
    } else {
      b.append(" * Types of k8s.io/apimachinery that Kubernetes ")
          .append(release)
          .append("'s kinds reference and machinery-unversioned\n * does not hold, generated\n");
    }
    b.append(
            " * from Kubernetes' OpenAPI document when this module is built. Each type is a mutable bean\n")
        .append(
            " * whose properties are the JSON fields of Kubernetes' Go type; fields not set are left out\n")
        .append(" * of the JSON.\n */\npackage ")
        .append(pkg)
        .append(";\n");
    return b.toString();
  }

  private String registration() {
    Map<String, List<String>> byVersion = new TreeMap<>();
    Map<String, String> gvOf = new HashMap<>();
    for (Map.Entry<String, String> e : generated.entrySet()) {
      for (Map<String, Object> gvk : kinds(definition(e.getKey()))) {
        String group = (String) gvk.get("group");
        String version = (String) gvk.get("version");
        String key = (group == null ? "" : group) + "/" + version;
        gvOf.put(
            key, "GroupVersion.of(\"" + (group == null ? "" : group) + "\", \"" + version + "\")");
        String kind = (String) gvk.get("kind");
        String simple = e.getValue().substring(e.getValue().lastIndexOf('.') + 1);
        if (!kind.equals(simple)) {
          throw new IllegalArgumentException(
              e.getKey() + " is kind " + kind + ", which its class name does not say");
        }
        byVersion.computeIfAbsent(key, k -> new ArrayList<>()).add(e.getValue());
      }
    }
    StringBuilder b = new StringBuilder();
    b.append("package ").append(ROOT).append(";\n\n");
    b.append("import dev.machinery.core.schema.GroupVersion;\n");
    b.append("import java.util.List;\n");
    b.append("import java.util.Map;\n\n");
    b.append("/** The kinds of every group version of the OpenAPI document, generated. */\n");
    b.append("final class GeneratedKinds {\n");
    b.append("  private GeneratedKinds() {}\n\n");
    b.append("  /** The release the document describes. */\n");
    b.append("  static final String RELEASE = \"").append(release).append("\";\n\n");
    b.append("  /** Each group version's kinds, under their simple class names. */\n");
    b.append("  static final Map<GroupVersion, List<Class<?>>> KINDS =\n");
    b.append("      Map.ofEntries(\n");
    List<String> entries = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : byVersion.entrySet()) {
      StringBuilder entry = new StringBuilder();
      entry.append("          Map.entry(\n              ").append(gvOf.get(e.getKey()));
      entry.append(",\n              List.of(");
      List<String> classes = new ArrayList<>();
      for (String c : e.getValue()) {
        classes.add("\n                  " + c + ".class");
      }
      entry.append(String.join(",", classes)).append("))");
      entries.add(entry.toString());
    }
    b.append(String.join(",\n", entries)).append(");\n\n");
    // Kubernetes binds the option kinds into every group version its server registers, including
    // versions without kinds of their own; the document lists them under DeleteOptions.
    List<String> optionVersions = new ArrayList<>();
    Object options = definitions.get("io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions");
    if (options instanceof Map<?, ?>) {
      @SuppressWarnings("unchecked")
      Map<String, Object> deleteOptions = (Map<String, Object>) options;
      for (Map<String, Object> gvk : kinds(deleteOptions)) {
        String group = (String) gvk.get("group");
        optionVersions.add(
            "\n          GroupVersion.of(\""
                + (group == null ? "" : group)
                + "\", \""
                + gvk.get("version")
                + "\")");
      }
    }
    b.append("  /** The group versions the document binds the option kinds into. */\n");
    b.append("  static final List<GroupVersion> OPTION_VERSIONS =\n      List.of(");
    b.append(String.join(",", optionVersions)).append(");\n}\n");
    return b.toString();
  }

  /**
   * Escapes text for a Javadoc comment: HTML, {@code @} (no tags), the comment's end, {@code \}.
   */
  static String escape(String text) {
    StringBuilder b = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '@' -> b.append("&#64;");
        case '\\' -> b.append("&#92;");
        case '/' -> b.append(i > 0 && text.charAt(i - 1) == '*' ? "&#47;" : "/");
        case '{', '}' -> b.append(c == '{' ? "&#123;" : "&#125;");
        case '\r' -> {}
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * The lines of a Javadoc comment's text, paragraphs split where the description has a blank line.
   */
  static List<String> docLines(String description) {
    List<String> lines = new ArrayList<>();
    boolean paragraph = false;
    for (String line : escape(description.strip()).split("\n", -1)) {
      String l = line.stripTrailing();
      if (l.isBlank()) {
        paragraph = !lines.isEmpty();
        continue;
      }
      if (paragraph) {
        lines.add("");
        l = "<p>" + l;
        paragraph = false;
      }
      lines.addAll(wrap(l, 92));
    }
    return lines;
  }

  /** Splits a line at spaces into lines of at most {@code width} characters where words allow. */
  static List<String> wrap(String line, int width) {
    List<String> out = new ArrayList<>();
    String rest = line;
    while (rest.length() > width) {
      int cut = rest.lastIndexOf(' ', width);
      if (cut <= 0) {
        cut = rest.indexOf(' ', width);
        if (cut < 0) {
          break;
        }
      }
      out.add(rest.substring(0, cut).stripTrailing());
      rest = rest.substring(cut + 1).stripLeading();
    }
    if (!rest.isEmpty()) {
      out.add(rest);
    }
    return out;
  }

  /**
   * A Java identifier for a JSON field name: {@code x-kubernetes-list-type} → {@code
   * xKubernetesListType}.
   */
  static String javaName(String json) {
    StringBuilder b = new StringBuilder();
    boolean upper = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (!Character.isLetterOrDigit(c)) {
        upper = b.length() > 0;
        continue;
      }
      b.append(upper ? Character.toUpperCase(c) : c);
      upper = false;
    }
    if (b.length() == 0) {
      throw new IllegalArgumentException("no Java name for the field " + json);
    }
    if (Character.isDigit(b.charAt(0))) {
      b.insert(0, 'f');
    }
    b.setCharAt(0, Character.toLowerCase(b.charAt(0)));
    return b.toString();
  }

  private static String capitalize(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /**
   * The order of a definition's properties: by their positions in the definition's protobuf message
   * (close to Go's declaration order, see {@link ProtoFieldOrder}), then what the message lacks in
   * the document's order; without a message, {@code apiVersion}, {@code kind} and {@code metadata}
   * first, then the document's order.
   */
  List<String> order(String definitionName, Set<String> names) {
    String[] parts = definitionName.split("\\.");
    String key =
        parts[parts.length - 3].replace('-', '_').toLowerCase(Locale.ROOT)
            + "."
            + parts[parts.length - 2]
            + "."
            + parts[parts.length - 1];
    Map<String, String> byJavaName = new LinkedHashMap<>();
    for (String name : names) {
      byJavaName.put(javaName(name), name);
    }
    Map<String, List<Integer>> positions = protos.positions(key, byJavaName.keySet());
    List<String> order = new ArrayList<>();
    if (positions.isEmpty()) {
      for (String first : List.of("apiVersion", "kind", "metadata")) {
        if (names.contains(first)) {
          order.add(first);
        }
      }
    }
    List<String> placed = new ArrayList<>(positions.keySet());
    placed.sort(
        (a, b) -> {
          List<Integer> x = positions.get(a);
          List<Integer> y = positions.get(b);
          for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int c = Integer.compare(x.get(i), y.get(i));
            if (c != 0) {
              return c;
            }
          }
          return Integer.compare(x.size(), y.size());
        });
    for (String java : placed) {
      order.add(byJavaName.get(java));
    }
    for (String name : names) {
      if (!order.contains(name)) {
        order.add(name);
      }
    }
    return order;
  }

  /** One generated class. */
  private final class ClassWriter {
    private final String definitionName;
    private final Map<String, Object> definition;
    private final String pkg;
    private final String simpleName;
    private final Map<String, String> imports = new TreeMap<>();
    private final Set<String> localNames;
    private boolean needsByteMapEquals;

    ClassWriter(String definitionName, String javaName) {
      this.definitionName = definitionName;
      this.definition = definition(definitionName);
      this.pkg = javaName.substring(0, javaName.lastIndexOf('.'));
      this.simpleName = javaName.substring(javaName.lastIndexOf('.') + 1);
      this.localNames = packages.get(pkg);
    }

    /**
     * A name usable in this file: imported when nothing else has its simple name, else qualified.
     */
    private String use(String qualified) {
      int dot = qualified.lastIndexOf('.');
      String simple = qualified.substring(dot + 1);
      String owner = qualified.substring(0, dot);
      if (owner.equals(pkg)) {
        return simple;
      }
      if (localNames.contains(simple) || simple.equals(simpleName)) {
        return qualified;
      }
      String earlier = imports.putIfAbsent(simple, qualified);
      return earlier == null || earlier.equals(qualified) ? simple : qualified;
    }

    private String lang(String simple) {
      return localNames.contains(simple) ? "java.lang." + simple : simple;
    }

    private String typeOf(Map<String, Object> schema, String where) {
      Object ref = schema.get("$ref");
      if (ref instanceof String s) {
        String target = s.substring(s.lastIndexOf('/') + 1);
        String mapped = MAPPED.get(target);
        if (mapped != null) {
          return use(mapped);
        }
        String javaName = generated.get(target);
        if (javaName == null) {
          throw new IllegalArgumentException(where + " references " + target + ", not generated");
        }
        return use(javaName);
      }
      String type = (String) schema.get("type");
      String format = (String) schema.get("format");
      if (type == null) {
        return use(JSON_NODE);
      }
      switch (type) {
        case "string":
          return "byte".equals(format) ? "byte[]" : lang("String");
        case "integer":
          return "int32".equals(format) ? lang("Integer") : lang("Long");
        case "number":
          return lang("Double");
        case "boolean":
          return lang("Boolean");
        case "array":
          return use("java.util.List") + "<" + typeOf(child(schema, "items", where), where) + ">";
        case "object":
          Object additional = schema.get("additionalProperties");
          if (additional instanceof Map<?, ?>) {
            return use("java.util.Map")
                + "<"
                + lang("String")
                + ", "
                + typeOf(child(schema, "additionalProperties", where), where)
                + ">";
          }
          return use(JSON_NODE);
        default:
          throw new IllegalArgumentException(where + " has the unknown type " + type);
      }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> child(Map<String, Object> schema, String key, String where) {
      Object child = schema.get(key);
      if (!(child instanceof Map<?, ?>)) {
        throw new IllegalArgumentException(where + " has no schema in " + key);
      }
      return (Map<String, Object>) child;
    }

    @SuppressWarnings("unchecked")
    String write() {
      Map<String, Object> properties =
          (Map<String, Object>) definition.getOrDefault("properties", Map.of());
      boolean isKind =
          !kinds(definition).isEmpty()
              && properties.containsKey("apiVersion")
              && properties.containsKey("kind");
      List<Property> props = new ArrayList<>();
      Map<String, String> javaNames = new HashMap<>();
      List<String> order = order(definitionName, properties.keySet());
      for (String json : order) {
        Map<String, Object> schema = (Map<String, Object>) properties.get(json);
        String java = javaName(json);
        String clash = javaNames.put(java, json);
        if (clash != null) {
          throw new IllegalArgumentException(
              definitionName + ": fields " + clash + " and " + json + " have one Java name");
        }
        String type = typeOf(schema, definitionName + "." + json);
        props.add(new Property(json, java, type, schema));
      }

      StringBuilder body = new StringBuilder();
      for (Property p : props) {
        body.append("  private ").append(p.type).append(' ').append(p.field()).append(";\n");
      }
      if (!props.isEmpty()) {
        body.append('\n');
      }
      body.append("  /** Creates an empty ").append(simpleName).append(". */\n");
      body.append("  public ").append(simpleName).append("() {}\n");
      String jsonProperty = use("com.fasterxml.jackson.annotation.JsonProperty");
      for (Property p : props) {
        body.append('\n');
        String getter = "get" + capitalize(p.java);
        String setter = "set" + capitalize(p.java);
        boolean override = isKind && (p.json.equals("apiVersion") || p.json.equals("kind"));
        if (override) {
          body.append("  @Override\n");
        } else {
          body.append("  /**\n");
          String description = (String) p.schema.get("description");
          List<String> lines =
              description == null || description.isBlank() ? List.of() : docLines(description);
          body.append("   * Returns {@code ").append(escape(p.json)).append('}');
          if (lines.isEmpty()) {
            body.append(".\n");
          } else {
            body.append(": ").append(lines.get(0)).append('\n');
            for (String l : lines.subList(1, lines.size())) {
              body.append(l.isEmpty() ? "   *\n" : "   * " + l + "\n");
            }
          }
          body.append("   *\n   * @return the value, or null when the field is not set\n   */\n");
        }
        body.append("  @").append(jsonProperty).append("(\"").append(p.json).append("\")\n");
        annotations(body, p.schema);
        body.append("  public ").append(p.type).append(' ').append(getter).append("() {\n");
        body.append("    return ").append(p.field()).append(";\n  }\n\n");
        if (override) {
          body.append("  @Override\n");
        } else {
          body.append("  /**\n   * Sets {@code ")
              .append(escape(p.json))
              .append("}; see {@link #")
              .append(getter)
              .append("()}.\n   *\n");
          body.append("   * @param value the value, or null to leave the field out\n   */\n");
        }
        body.append("  @").append(jsonProperty).append("(\"").append(p.json).append("\")\n");
        body.append("  public void ")
            .append(setter)
            .append('(')
            .append(p.type)
            .append(" value) {\n");
        body.append("    this.").append(p.field()).append(" = value;\n  }\n");
      }
      equalsAndHashCode(body, props);

      String apiObject = isKind ? use("dev.machinery.core.runtime.ApiObject") : null;
      StringBuilder head = new StringBuilder();
      head.append("package ").append(pkg).append(";\n\n");
      String objects = imports.get("Objects");
      for (String imported : new TreeSet<>(imports.values())) {
        head.append("import ").append(imported).append(";\n");
      }
      if (objects != null || !imports.isEmpty()) {
        head.append('\n');
      }
      head.append("/**\n");
      String description = (String) definition.get("description");
      List<String> lines =
          description == null || description.isBlank()
              ? List.of(simpleName + ".")
              : docLines(description);
      for (String l : lines) {
        head.append(l.isEmpty() ? " *\n" : " * " + l + "\n");
      }
      head.append(" *\n * <p>Generated from the definition {@code ")
          .append(definitionName)
          .append("} of Kubernetes ")
          .append(release)
          .append("'s OpenAPI\n * document");
      if (isKind) {
        List<String> gvks = new ArrayList<>();
        for (Map<String, Object> gvk : kinds(definition)) {
          String group = (String) gvk.get("group");
          gvks.add(
              (group == null || group.isEmpty() ? "" : group + "/")
                  + gvk.get("version")
                  + " "
                  + gvk.get("kind"));
        }
        head.append("; the kind {@code ").append(String.join(", ", gvks)).append('}');
      }
      head.append(
              ".\n *\n * <p>Mutable and not thread-safe: confine an instance to one thread, or publish it safely\n")
          .append(" * after its last change.\n */\n");
      head.append("public final class ").append(simpleName);
      if (isKind) {
        head.append(" implements ").append(apiObject);
      }
      head.append(" {\n");
      return head + body.toString() + "}\n";
    }

    private void annotations(StringBuilder body, Map<String, Object> schema) {
      Object strategy = schema.get("x-kubernetes-patch-strategy");
      if (strategy instanceof String s) {
        body.append("  @")
            .append(use("dev.machinery.core.patch.PatchStrategy"))
            .append("(\"")
            .append(s)
            .append("\")\n");
      }
      Object key = schema.get("x-kubernetes-patch-merge-key");
      if (key instanceof String s) {
        body.append("  @")
            .append(use("dev.machinery.core.patch.PatchMergeKey"))
            .append("(\"")
            .append(s)
            .append("\")\n");
      }
      Object listType = schema.get("x-kubernetes-list-type");
      if (listType instanceof String s) {
        body.append("  @")
            .append(use("dev.machinery.core.patch.ListType"))
            .append("(\"")
            .append(s)
            .append("\")\n");
      }
      Object mapKeys = schema.get("x-kubernetes-list-map-keys");
      if (mapKeys instanceof List<?> keys && !keys.isEmpty()) {
        List<String> quoted = new ArrayList<>();
        for (Object k : keys) {
          quoted.add("\"" + k + "\"");
        }
        body.append("  @").append(use("dev.machinery.core.patch.ListMapKeys")).append("(");
        body.append(quoted.size() == 1 ? quoted.get(0) : "{" + String.join(", ", quoted) + "}");
        body.append(")\n");
      }
    }

    private void equalsAndHashCode(StringBuilder body, List<Property> props) {
      String objects = use("java.util.Objects");
      body.append("\n  @Override\n  public boolean equals(")
          .append(lang("Object"))
          .append(" other) {\n");
      body.append("    if (this == other) {\n      return true;\n    }\n");
      body.append(
          "    if (other == null || other.getClass() != getClass()) {\n      return false;\n    }\n");
      if (props.isEmpty()) {
        body.append("    return true;\n  }\n");
      } else {
        body.append("    ")
            .append(simpleName)
            .append(" that = (")
            .append(simpleName)
            .append(") other;\n");
        List<String> checks = new ArrayList<>();
        for (Property p : props) {
          if (p.type.equals("byte[]")) {
            checks.add(
                use("java.util.Arrays") + ".equals(" + p.field() + ", that." + p.field() + ")");
          } else if (p.type.endsWith(", byte[]>")) {
            needsByteMapEquals = true;
            checks.add("bytesEqual(" + p.field() + ", that." + p.field() + ")");
          } else {
            checks.add(objects + ".equals(" + p.field() + ", that." + p.field() + ")");
          }
        }
        body.append("    return ").append(String.join("\n        && ", checks)).append(";\n  }\n");
      }
      body.append("\n  @Override\n  public int hashCode() {\n");
      List<String> hashed = new ArrayList<>();
      for (Property p : props) {
        if (p.type.equals("byte[]")) {
          hashed.add(use("java.util.Arrays") + ".hashCode(" + p.field() + ")");
        } else if (p.type.endsWith(", byte[]>")) {
          hashed.add(p.field() + " == null ? 0 : " + p.field() + ".keySet().hashCode()");
        } else {
          hashed.add(p.field());
        }
      }
      body.append("    return ").append(objects).append(".hash(").append(String.join(", ", hashed));
      body.append(");\n  }\n");
      if (needsByteMapEquals) {
        String map = use("java.util.Map");
        body.append("\n  private static boolean bytesEqual(")
            .append(map)
            .append("<String, byte[]> a, ")
            .append(map)
            .append("<String, byte[]> b) {\n");
        body.append("    if (a == null || b == null) {\n      return a == b;\n    }\n");
        body.append("    if (!a.keySet().equals(b.keySet())) {\n      return false;\n    }\n");
        body.append("    for (").append(map).append(".Entry<String, byte[]> e : a.entrySet()) {\n");
        body.append("      if (!")
            .append(use("java.util.Arrays"))
            .append(".equals(e.getValue(), b.get(e.getKey()))) {\n");
        body.append("        return false;\n      }\n    }\n    return true;\n  }\n");
      }
    }
  }

  /** A property of a generated class. */
  private record Property(String json, String java, String type, Map<String, Object> schema) {
    String field() {
      return KEYWORDS.contains(java) ? java + "Value" : java;
    }
  }
}
