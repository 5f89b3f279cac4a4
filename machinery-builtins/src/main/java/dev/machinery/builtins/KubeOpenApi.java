package dev.machinery.builtins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.machinery.apiserver.apiextensions.schema.StructuralSchema;
import dev.machinery.core.patch.OpenApiPatchSchemas;
import dev.machinery.core.typed.OpenApiSchemas;
import dev.machinery.core.typed.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Kubernetes' OpenAPI v2 document of one release and what the server derives from it: the resources
 * its paths describe, each kind's structural schema (references inlined, as a custom resource's
 * schema is written), the named schemas as OpenAPI v3 components and the schema server-side apply
 * reads objects by. A start and writes read only the document's digest ({@link KubeOpenApiDigest}:
 * the resources and the schemas cut to what structural schemas and apply's schema read); the whole
 * document is parsed once, when a client first reads OpenAPI or a strategic merge patch first needs
 * its schemas. The derived forms are built on first use and kept. Thread-safe.
 */
final class KubeOpenApi {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String V2_REF = "#/definitions/";
  private static final String V3_REF = "#/components/schemas/";

  /**
   * Values of these types are any integer or string (a quantity written as a JSON number is a
   * string before it is validated: {@link CanonicalValues}).
   */
  private static final Set<String> INT_OR_STRING =
      Set.of(
          "io.k8s.apimachinery.pkg.api.resource.Quantity",
          "io.k8s.apimachinery.pkg.util.intstr.IntOrString");

  /** Values of these types are kept as they come: raw JSON, field sets, JSON schemas. */
  private static final Set<String> ANY_VALUE =
      Set.of(
          "io.k8s.apimachinery.pkg.runtime.RawExtension",
          "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray");

  /**
   * The lists the OpenAPI document calls required that Kubernetes' Go validation lets be empty: Go
   * writes an empty list as {@code null} (no {@code omitempty}) and a protobuf value carries none,
   * so such an object comes back without the property, and kube-apiserver, which validates its Go
   * types and not the document, accepts it. Every other required list (a Pod's containers, an
   * endpoint's addresses, a policy rule's verbs, a node selector's terms, ...) is one Go requires
   * non-empty, and stays required.
   */
  private static final Map<String, Set<String>> MAY_BE_EMPTY =
      Map.of(
          "io.k8s.api.discovery.v1.EndpointSlice", Set.of("endpoints"),
          "io.k8s.api.batch.v1.PodFailurePolicy", Set.of("rules"),
          "io.k8s.api.core.v1.LimitRangeSpec", Set.of("limits"),
          "io.k8s.api.storage.v1.CSINodeSpec", Set.of("drivers"));

  private final String release;
  private final KubeOpenApiDigest digest;
  private final Lazy<ObjectNode> document;
  private final Lazy<Map<String, JsonNode>> components = new Lazy<>(this::rewriteReferences);
  private final Lazy<Schema> applySchema;
  private final Lazy<OpenApiPatchSchemas> patchSchemas =
      new Lazy<>(() -> OpenApiPatchSchemas.of(rewritten()));
  private final Map<String, StructuralSchema> structural = new ConcurrentHashMap<>();
  private final Map<String, CanonicalValues> canonicalValues = new ConcurrentHashMap<>();

  private KubeOpenApi(String release, KubeOpenApiDigest digest) {
    this.release = release;
    this.digest = digest;
    this.document = new Lazy<>(() -> document(release));
    // The digest keeps all that this schema reads (KubeOpenApiDigestTest compares the two). Each
    // type is converted when first resolved: a start's writes read a few dozen of the 707.
    this.applySchema =
        new Lazy<>(
            () -> OpenApiSchemas.fromOpenApiLazily(digest.definitionNames(), digest::definition));
  }

  /**
   * Reads the digest of a release's document bundled with this module; the document itself is read
   * on first use.
   *
   * @param release such as {@code v1.33}
   */
  static KubeOpenApi load(String release) {
    String resource = "kube-api/" + release + "/digest.txt";
    try (InputStream in = KubeOpenApi.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "the digest of Kubernetes' OpenAPI document of "
                + release
                + " is not bundled ("
                + resource
                + ")");
      }
      return new KubeOpenApi(release, KubeOpenApiDigest.read(in, resource));
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + resource + " failed", e);
    }
  }

  /**
   * Reads the whole document of a release bundled with this module, with the key defaults its v3
   * documents carry added.
   *
   * @param release such as {@code v1.33}
   */
  static ObjectNode document(String release) {
    String resource = "kube-api/" + release + "/swagger.json";
    try (InputStream in = KubeOpenApi.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "Kubernetes' OpenAPI document of " + release + " is not bundled (" + resource + ")");
      }
      // A mapper of its own, made when the document is first read: a start need not make one.
      JsonNode tree = new ObjectMapper().readTree(in);
      if (!(tree instanceof ObjectNode document) || !document.path("definitions").isObject()) {
        throw new IllegalStateException(resource + " has no definitions");
      }
      addKeyDefaults((ObjectNode) document.get("definitions"));
      return document;
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + resource + " failed", e);
    }
  }

  /**
   * The defaults of the key fields of associative lists that objects may leave out, which
   * Kubernetes' OpenAPI v3 documents carry and its v2 document does not: server-side apply keys a
   * container's or a Service's ports by port and protocol, {@code TCP} when absent.
   */
  private static final Map<String, String> KEY_DEFAULTS =
      Map.of(
          "io.k8s.api.core.v1.ContainerPort", "protocol",
          "io.k8s.api.core.v1.ServicePort", "protocol");

  private static void addKeyDefaults(ObjectNode definitions) {
    KEY_DEFAULTS.forEach(
        (type, field) -> {
          JsonNode property = definitions.path(type).path("properties").path(field);
          if (property instanceof ObjectNode node && !node.has("default")) {
            node.put("default", "TCP");
          }
        });
  }

  String release() {
    return release;
  }

  /** Whether the whole document has been parsed (a start reads only its digest). */
  boolean documentRead() {
    return document.isMade();
  }

  /** The resources the document's paths describe, in its order (from the digest). */
  List<BuiltinResource> resources() {
    return digest.resources();
  }

  /** Every named schema as an OpenAPI v3 component ({@code $ref}s to components). */
  Map<String, JsonNode> components() {
    return components.get();
  }

  /**
   * The named schemas as a map that makes them on its first read: the server reads them only when a
   * client first reads OpenAPI.
   */
  Map<String, JsonNode> lazyComponents() {
    return new java.util.AbstractMap<>() {
      @Override
      public JsonNode get(Object name) {
        return components().get(name);
      }

      @Override
      public boolean containsKey(Object name) {
        return components().containsKey(name);
      }

      @Override
      public java.util.Set<Map.Entry<String, JsonNode>> entrySet() {
        return components().entrySet();
      }
    };
  }

  /**
   * Rewrites the document's references to the v3 form, once, and returns its named schemas. The
   * rest of this class reads the document only after this (and reads both forms).
   */
  private Map<String, JsonNode> rewriteReferences() {
    Map<String, JsonNode> converted = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : document.get().get("definitions").properties()) {
      converted.put(entry.getKey(), toV3(entry.getValue()));
    }
    return java.util.Collections.unmodifiableMap(converted);
  }

  /** The document, its references rewritten. */
  private ObjectNode rewritten() {
    components();
    return document.get();
  }

  /** Rewrites v2 references into v3 ones, in place. */
  private static JsonNode toV3(JsonNode node) {
    Deque<JsonNode> pending = new ArrayDeque<>();
    pending.push(node);
    while (!pending.isEmpty()) {
      JsonNode next = pending.pop();
      if (next instanceof ObjectNode object) {
        JsonNode ref = object.get("$ref");
        if (ref != null && ref.isTextual() && ref.asText().startsWith(V2_REF)) {
          object.set("$ref", TextNode.valueOf(V3_REF + ref.asText().substring(V2_REF.length())));
        }
      }
      next.forEach(pending::push);
    }
    return node;
  }

  /**
   * The schema server-side apply and managed fields read objects by, from the digest, each named
   * schema converted once when first resolved.
   */
  Schema applySchema() {
    return applySchema.get();
  }

  /** The schema {@link #applySchema()} is, made from the whole document (to compare). */
  Schema applySchemaOfTheDocument() {
    return OpenApiSchemas.fromOpenApi(rewritten());
  }

  /** The strategies of strategic merge patches, read once. */
  OpenApiPatchSchemas patchSchemas() {
    return patchSchemas.get();
  }

  /**
   * The values of a kind's named schema that Go's decoding writes in a canonical form, found once
   * from the digest.
   */
  CanonicalValues canonicalValues(String name) {
    return canonicalValues.computeIfAbsent(name, n -> CanonicalValues.of(n, digest::definition));
  }

  /**
   * The structural schema of a kind's named schema: references inlined, cycles left open. Read from
   * the digest: the document is not parsed for it.
   */
  StructuralSchema structural(String name) {
    return structural.computeIfAbsent(
        name,
        n -> {
          return StructuralSchema.of(InlinedSchemas.read(inlined(n, digest::definition), n));
        });
  }

  /**
   * A named schema with its references inlined, cycles left open, the schemas read through {@code
   * definitions} (the digest's, or the whole document's).
   */
  static ObjectNode inlined(String name, Function<String, JsonNode> definitions) {
    return new Inliner(definitions).inline(name, new ArrayDeque<>(), true);
  }

  /**
   * The named schema a schema refers to with {@code $ref} (of OpenAPI v2 or v3), or null when it
   * refers to none.
   */
  static String referenced(JsonNode schema) {
    JsonNode ref = schema.get("$ref");
    if (ref != null && ref.isTextual()) {
      String target = ref.asText();
      if (target.startsWith(V2_REF)) {
        return target.substring(V2_REF.length());
      }
      if (target.startsWith(V3_REF)) {
        return target.substring(V3_REF.length());
      }
    }
    return null;
  }

  /** Inlines references, reading named schemas through a function. */
  private record Inliner(Function<String, JsonNode> definitions) {
    private ObjectNode inline(String name, Deque<String> stack, boolean root) {
      if (INT_OR_STRING.contains(name)) {
        return NODES.objectNode().put("x-kubernetes-int-or-string", true);
      }
      if (ANY_VALUE.contains(name) || stack.contains(name)) {
        return NODES.objectNode().put("x-kubernetes-preserve-unknown-fields", true);
      }
      JsonNode definition = definitions.apply(name);
      if (definition == null) {
        return NODES.objectNode().put("x-kubernetes-preserve-unknown-fields", true);
      }
      stack.push(name);
      try {
        ObjectNode out = inlineSchema(definition, stack, root);
        Set<String> mayBeEmpty = MAY_BE_EMPTY.get(name);
        if (mayBeEmpty != null && out.get("required") instanceof ArrayNode required) {
          ArrayNode kept = NODES.arrayNode();
          required.forEach(
              n -> {
                if (!mayBeEmpty.contains(n.asText())) {
                  kept.add(n);
                }
              });
          out.set("required", kept);
        }
        return out;
      } finally {
        stack.pop();
      }
    }

    private ObjectNode inlineSchema(JsonNode schema, Deque<String> stack, boolean root) {
      String target = referenced(schema);
      if (target != null) {
        return inline(target, stack, false);
      }
      JsonNode allOf = schema.get("allOf");
      if (allOf != null && allOf.size() == 1) {
        return inlineSchema(allOf.get(0), stack, false);
      }
      ObjectNode out = NODES.objectNode();
      for (Map.Entry<String, JsonNode> field : schema.properties()) {
        if (KubeOpenApiDigest.KEPT.contains(field.getKey())) {
          out.set(field.getKey(), field.getValue().deepCopy());
        }
      }
      JsonNode properties = schema.get("properties");
      if (properties != null && properties.isObject()) {
        ObjectNode inlined = out.putObject("properties");
        for (Map.Entry<String, JsonNode> property : properties.properties()) {
          if (root && property.getKey().equals("metadata")) {
            // The server's own rules govern an object's metadata.
            inlined.putObject("metadata").put("type", "object");
            continue;
          }
          inlined.set(property.getKey(), inlineSchema(property.getValue(), stack, false));
        }
      }
      JsonNode items = schema.get("items");
      if (items != null && items.isObject()) {
        out.set("items", inlineSchema(items, stack, false));
      }
      JsonNode additional = schema.get("additionalProperties");
      if (additional != null) {
        out.set(
            "additionalProperties",
            additional.isObject() ? inlineSchema(additional, stack, false) : additional);
      }
      if ("object".equals(out.path("type").asText())
          && properties == null
          && additional == null
          && !out.has("x-kubernetes-preserve-unknown-fields")) {
        // An object the document describes no further keeps what it holds.
        out.put("x-kubernetes-preserve-unknown-fields", true);
      }
      if (out.path("type").asText().equals("string") && "int-or-string".equals(format(out))) {
        out.remove("type");
        out.remove("format");
        out.put("x-kubernetes-int-or-string", true);
      }
      if (out.has("required") && !(out.get("required") instanceof ArrayNode)) {
        out.remove("required");
      }
      return out;
    }
  }

  private static String format(ObjectNode schema) {
    return schema.path("format").asText("");
  }
}
