package dev.machinery.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.apiserver.openapi.OpenApiV3;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The schemas of the served kinds as the server publishes them in OpenAPI v3, for type checking:
 * the component a kind's {@code x-kubernetes-group-version-kind} names, with its references inlined
 * (a reference to a schema it is already inside becomes an object of any fields, as a recursive
 * type cannot be written out) and only the keywords that decide a value's type kept. Built-in
 * kinds, kinds with Java classes and custom resources are all found this way, as kube-apiserver's
 * type checker resolves them from OpenAPI. Resolved schemas are kept by the document's hash.
 * Thread-safe.
 */
final class OpenApiKindSchemas {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String REF = "#/components/schemas/";
  private static final Set<String> KEPT =
      Set.of(
          "type",
          "format",
          "x-kubernetes-int-or-string",
          "x-kubernetes-preserve-unknown-fields",
          "x-kubernetes-embedded-resource");

  private record Key(GroupVersionKind kind, String hash) {}

  private final Supplier<OpenApiV3> documents;
  private final Map<Key, Optional<JSONSchemaProps>> resolved = new ConcurrentHashMap<>();

  OpenApiKindSchemas(Supplier<OpenApiV3> documents) {
    this.documents = documents;
  }

  /** The schema of a kind, or empty when its group version or kind is not published. */
  Optional<JSONSchemaProps> schema(GroupVersionKind kind) {
    OpenApiV3 openApi = documents.get();
    String path =
        kind.group().isEmpty()
            ? "api/" + kind.version()
            : "apis/" + kind.group() + "/" + kind.version();
    Optional<String> hash = openApi.hash(path);
    if (hash.isEmpty()) {
      return Optional.empty();
    }
    Key key = new Key(kind, hash.get());
    Optional<JSONSchemaProps> found = resolved.get(key);
    if (found == null) {
      found = resolve(openApi, path, kind);
      if (resolved.size() > 1000) {
        resolved.clear();
      }
      resolved.put(key, found);
    }
    return found;
  }

  private static Optional<JSONSchemaProps> resolve(
      OpenApiV3 openApi, String path, GroupVersionKind kind) {
    Optional<byte[]> bytes = openApi.document(path);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    JsonNode components;
    try {
      components = JSON.readTree(bytes.get()).path("components").path("schemas");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return resolve(components, kind);
  }

  /** The schema of a kind among a document's named schemas, references inlined. */
  static Optional<JSONSchemaProps> resolve(JsonNode components, GroupVersionKind kind) {
    for (Map.Entry<String, JsonNode> component : components.properties()) {
      for (JsonNode gvk : component.getValue().path("x-kubernetes-group-version-kind")) {
        if (gvk.path("group").asText("").equals(kind.group())
            && gvk.path("version").asText("").equals(kind.version())
            && gvk.path("kind").asText("").equals(kind.kind())) {
          Deque<String> inside = new ArrayDeque<>();
          inside.push(component.getKey());
          JsonNode inlined = inline(component.getValue(), components, inside);
          try {
            return Optional.of(JSON.treeToValue(inlined, JSONSchemaProps.class));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
    return Optional.empty();
  }

  /** A schema with its references inlined and only the keywords that type values. */
  private static JsonNode inline(JsonNode schema, JsonNode components, Deque<String> inside) {
    if (!schema.isObject()) {
      return NODES.objectNode();
    }
    JsonNode ref = schema.get("$ref");
    JsonNode allOf = schema.get("allOf");
    if (ref == null && allOf != null && allOf.isArray() && allOf.size() == 1) {
      // kube-apiserver writes a reference with siblings (a default) as allOf of one reference.
      ref = allOf.get(0).get("$ref");
    }
    if (ref != null && ref.isTextual() && ref.asText().startsWith(REF)) {
      String name = ref.asText().substring(REF.length());
      JsonNode target = components.get(name);
      if (target == null || inside.contains(name)) {
        ObjectNode any = NODES.objectNode();
        any.put("type", "object");
        any.put("x-kubernetes-preserve-unknown-fields", true);
        return any;
      }
      inside.push(name);
      try {
        return inline(target, components, inside);
      } finally {
        inside.pop();
      }
    }
    ObjectNode out = NODES.objectNode();
    for (String keyword : KEPT) {
      if (schema.has(keyword)) {
        out.set(keyword, schema.get(keyword));
      }
    }
    if ("int-or-string".equals(schema.path("format").asText(""))) {
      // Kubernetes' IntOrString, as its definition names it: any integer or string.
      out.put("x-kubernetes-int-or-string", true);
    }
    JsonNode properties = schema.get("properties");
    if (properties != null && properties.isObject()) {
      ObjectNode inlined = out.putObject("properties");
      for (Map.Entry<String, JsonNode> p : properties.properties()) {
        inlined.set(p.getKey(), inline(p.getValue(), components, inside));
      }
    }
    JsonNode items = schema.get("items");
    if (items != null && items.isObject()) {
      out.set("items", inline(items, components, inside));
    }
    JsonNode additional = schema.get("additionalProperties");
    if (additional != null) {
      out.set(
          "additionalProperties",
          additional.isObject() ? inline(additional, components, inside) : additional);
    }
    return out;
  }
}
