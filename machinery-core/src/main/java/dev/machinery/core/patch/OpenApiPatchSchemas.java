package dev.machinery.core.patch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Strategic merge patch schemas read from an OpenAPI document, for objects without Java classes:
 * the named schemas of its {@code definitions} (v2, as {@code /openapi/v2} and Kubernetes' {@code
 * swagger.json}) or {@code components.schemas} (v3), as Kubernetes' {@code PatchMetaFromOpenAPI}
 * reads them.
 *
 * <ul>
 *   <li>A property's {@code x-kubernetes-patch-strategy} ({@code merge}, {@code replace}, {@code
 *       retainKeys}, or two joined by a comma, one of them {@code retainKeys}) and {@code
 *       x-kubernetes-patch-merge-key} are its strategies and merge key. These two extensions are
 *       the only ones read: {@code x-kubernetes-list-type}, {@code x-kubernetes-list-map-keys} and
 *       {@code x-kubernetes-map-type} belong to server-side apply, and a list marked {@code
 *       x-kubernetes-list-type: map} without a patch strategy is replaced by a strategic merge
 *       patch, as in Kubernetes.
 *   <li>{@code $ref} (alone, or as the one entry of {@code allOf}) names a schema of the document
 *       by its last segment; references are followed when a patch first reaches them, so recursive
 *       schemas (apiextensions' {@code JSONSchemaProps}) are safe. Inline schemas (an object under
 *       {@code properties}, {@code items} or {@code additionalProperties}) are read in place.
 *   <li>An object with {@code properties} declares its fields: a field it does not declare is an
 *       error where its strategy is needed (two different objects or lists under it), unless the
 *       object has {@code additionalProperties} or {@code x-kubernetes-preserve-unknown-fields}; an
 *       object with only {@code additionalProperties} is a map of values of that schema; an array's
 *       {@code items} is its elements' schema. Anything else (a scalar, {@code
 *       x-kubernetes-int-or-string}, a schema without {@code type} or {@code properties}) is a
 *       value the patch knows nothing about, merged as a JSON merge patch does.
 * </ul>
 *
 * <p>Where Kubernetes' {@code PatchMetaFromOpenAPI} refuses to look into a map whose values are
 * objects, the values are merged with their schema here, as kube-apiserver (whose patch metadata
 * comes from the Go structs) does.
 *
 * <p>The document is checked whole when read; schemas are built once per name, when first asked
 * for, and kept. Immutable from outside and safe to use from any number of threads.
 */
public final class OpenApiPatchSchemas {
  private static final String STRATEGY = "x-kubernetes-patch-strategy";
  private static final String MERGE_KEY = "x-kubernetes-patch-merge-key";
  private static final Set<String> STRATEGIES = Set.of("merge", "replace", "retainKeys");

  private final Map<String, JsonNode> definitions;
  private final Map<GroupVersionKind, String> kinds;
  private final Map<String, PatchSchema> built = new ConcurrentHashMap<>();

  private OpenApiPatchSchemas(
      Map<String, JsonNode> definitions, Map<GroupVersionKind, String> kinds) {
    this.definitions = definitions;
    this.kinds = kinds;
  }

  /**
   * Reads the named schemas of an OpenAPI v2 or v3 document.
   *
   * @param document the document (copied; later changes to it are not seen)
   * @return the schemas
   * @throws PatchSchemaException when the document has no named schemas, or any of them has patch
   *     metadata that cannot be read or a reference to a schema the document lacks; every problem
   *     is listed with its JSON pointer
   */
  public static OpenApiPatchSchemas of(JsonNode document) {
    Objects.requireNonNull(document, "document");
    JsonNode named = document.path("definitions");
    String prefix = "/definitions/";
    if (!named.isObject()) {
      named = document.path("components").path("schemas");
      prefix = "/components/schemas/";
    }
    if (!named.isObject()) {
      throw new PatchSchemaException(
          List.of(
              "/: an OpenAPI document with definitions (v2) or components.schemas (v3) was"
                  + " expected"));
    }
    Map<String, JsonNode> definitions = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : named.properties()) {
      definitions.put(entry.getKey(), entry.getValue().deepCopy());
    }
    List<String> problems = new ArrayList<>();
    Map<GroupVersionKind, String> kinds = new HashMap<>();
    for (Map.Entry<String, JsonNode> entry : definitions.entrySet()) {
      String pointer = prefix + escape(entry.getKey());
      check(entry.getValue(), pointer, definitions.keySet(), problems);
      for (JsonNode gvk : entry.getValue().path("x-kubernetes-group-version-kind")) {
        if (gvk.path("version").isTextual() && gvk.path("kind").isTextual()) {
          kinds.putIfAbsent(
              GroupVersionKind.of(
                  gvk.path("group").asText(""),
                  gvk.get("version").asText(),
                  gvk.get("kind").asText()),
              entry.getKey());
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new PatchSchemaException(problems);
    }
    return new OpenApiPatchSchemas(definitions, Map.copyOf(kinds));
  }

  /**
   * Returns the schema of a named definition, such as {@code io.k8s.api.apps.v1.Deployment}.
   *
   * @param name the definition's name in the document
   * @return the schema
   * @throws IllegalArgumentException when the document has no definition of that name
   */
  public StrategicMergeSchema forDefinition(String name) {
    Objects.requireNonNull(name, "name");
    if (!definitions.containsKey(name)) {
      throw new IllegalArgumentException(
          "the OpenAPI document has no definition \"" + name + "\"" + hint(name));
    }
    return new StrategicMergeSchema(definition(name), name);
  }

  /**
   * Returns the schema of the definition that declares a kind in its {@code
   * x-kubernetes-group-version-kind} extension, as Kubernetes' documents mark every kind.
   *
   * @param kind the kind, such as {@code apps/v1, Kind=Deployment}
   * @return the schema, or empty when no definition declares the kind
   */
  public Optional<StrategicMergeSchema> forKind(GroupVersionKind kind) {
    String name = kinds.get(Objects.requireNonNull(kind, "kind"));
    return name == null ? Optional.empty() : Optional.of(forDefinition(name));
  }

  private String hint(String name) {
    String tail = name.substring(name.lastIndexOf('.') + 1);
    List<String> near = new ArrayList<>();
    for (String candidate : definitions.keySet()) {
      if (candidate.endsWith("." + tail) || candidate.equals(tail)) {
        near.add(candidate);
      }
    }
    if (near.isEmpty()) {
      return "";
    }
    near.sort(null);
    return " (did you mean "
        + String.join(" or ", near.subList(0, Math.min(3, near.size())))
        + "?)";
  }

  /** The schema of a definition, built once; an alias chain that loops is a value of any type. */
  private PatchSchema definition(String name) {
    PatchSchema schema = built.get(name);
    if (schema == null) {
      String target = name;
      for (int hops = 0; refName(definitions.get(target)) != null; hops++) {
        if (hops > definitions.size()) {
          return PatchSchema.NONE;
        }
        target = refName(definitions.get(target));
      }
      schema = build(definitions.get(target), simpleName(target));
      built.putIfAbsent(name, schema);
    }
    return schema;
  }

  private Supplier<PatchSchema> reference(JsonNode spec, String owner) {
    String ref = refName(spec);
    if (ref != null) {
      return () -> definition(ref);
    }
    return PatchSchema.memoized(() -> build(spec, owner));
  }

  private PatchSchema build(JsonNode spec, String owner) {
    if (spec == null
        || !spec.isObject()
        || spec.path("x-kubernetes-int-or-string").asBoolean(false)) {
      return PatchSchema.NONE;
    }
    JsonNode typeNode = spec.path("type");
    String type = typeNode.isArray() ? typeNode.path(0).asText("") : typeNode.asText("");
    JsonNode properties = spec.get("properties");
    JsonNode additional = spec.get("additionalProperties");
    if (type.equals("array") || (type.isEmpty() && spec.has("items"))) {
      JsonNode items = spec.get("items");
      return items != null && items.isObject()
          ? PatchSchema.list(owner, reference(items, owner))
          : PatchSchema.list(owner, () -> PatchSchema.NONE);
    }
    if (!type.isEmpty() && !type.equals("object")) {
      return PatchSchema.NONE;
    }
    if (properties != null && properties.isObject()) {
      Map<String, PatchSchema.Field> fields = new HashMap<>();
      for (Map.Entry<String, JsonNode> property : properties.properties()) {
        JsonNode member = property.getValue();
        fields.put(
            property.getKey(),
            new PatchSchema.Field(
                reference(member, owner + "." + property.getKey()),
                strategies(member),
                member.path(MERGE_KEY).isTextual() ? member.get(MERGE_KEY).asText() : null));
      }
      boolean open =
          spec.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
              || (additional != null
                  && (additional.isObject() || (additional.isBoolean() && additional.asBoolean())));
      return PatchSchema.object(owner, fields, open);
    }
    if (additional != null && additional.isObject()) {
      return PatchSchema.map(owner, reference(additional, owner));
    }
    return PatchSchema.NONE;
  }

  private static Set<String> strategies(JsonNode member) {
    JsonNode strategy = member.get(STRATEGY);
    if (strategy == null || !strategy.isTextual()) {
      return Set.of();
    }
    return Set.of(strategy.asText().split(","));
  }

  /** The name a schema refers to by {@code $ref}, alone or as the one entry of {@code allOf}. */
  private static String refName(JsonNode spec) {
    if (spec == null) {
      return null;
    }
    String ref = spec.path("$ref").asText("");
    JsonNode allOf = spec.path("allOf");
    if (ref.isEmpty() && allOf.size() == 1) {
      ref = allOf.get(0).path("$ref").asText("");
    }
    return ref.isEmpty() ? null : ref.substring(ref.lastIndexOf('/') + 1);
  }

  private static String simpleName(String definition) {
    return definition.substring(definition.lastIndexOf('.') + 1);
  }

  /** Collects the problems of a schema and the schemas inside it (references are not followed). */
  private static void check(
      JsonNode spec, String pointer, Set<String> names, List<String> problems) {
    if (!spec.isObject()) {
      problems.add(pointer + ": a schema must be a JSON object, found " + spec.getNodeType());
      return;
    }
    JsonNode strategy = spec.get(STRATEGY);
    if (strategy != null) {
      if (!strategy.isTextual()) {
        problems.add(pointer + ": " + STRATEGY + " must be a string, found " + strategy);
      } else {
        List<String> parts = List.of(strategy.asText().split(",", -1));
        boolean known = parts.stream().allMatch(STRATEGIES::contains);
        boolean pairWithRetainKeys =
            parts.size() == 2 && parts.contains("retainKeys") && !parts.get(0).equals(parts.get(1));
        if (!known || (parts.size() == 2 && !pairWithRetainKeys) || parts.size() > 2) {
          problems.add(
              pointer
                  + ": unexpected patch strategy \""
                  + strategy.asText()
                  + "\" (expected merge, replace or retainKeys, or one of them with retainKeys)");
        }
      }
    }
    JsonNode mergeKey = spec.get(MERGE_KEY);
    if (mergeKey != null && !mergeKey.isTextual()) {
      problems.add(pointer + ": " + MERGE_KEY + " must be a string, found " + mergeKey);
    }
    JsonNode ref = spec.get("$ref");
    if (ref != null) {
      String text = ref.asText("");
      String name = text.substring(text.lastIndexOf('/') + 1);
      if (!ref.isTextual() || !names.contains(name)) {
        problems.add(pointer + ": $ref " + ref + " names no schema of the document");
      }
    }
    JsonNode properties = spec.get("properties");
    if (properties != null && properties.isObject()) {
      for (Map.Entry<String, JsonNode> property : properties.properties()) {
        check(
            property.getValue(),
            pointer + "/properties/" + escape(property.getKey()),
            names,
            problems);
      }
    }
    JsonNode items = spec.get("items");
    if (items != null && items.isObject()) {
      check(items, pointer + "/items", names, problems);
    }
    JsonNode additional = spec.get("additionalProperties");
    if (additional != null && additional.isObject()) {
      check(additional, pointer + "/additionalProperties", names, problems);
    }
    JsonNode allOf = spec.get("allOf");
    if (allOf != null && allOf.isArray()) {
      for (int i = 0; i < allOf.size(); i++) {
        check(allOf.get(i), pointer + "/allOf/" + i, names, problems);
      }
    }
  }

  private static String escape(String segment) {
    return segment.replace("~", "~0").replace("/", "~1");
  }
}
