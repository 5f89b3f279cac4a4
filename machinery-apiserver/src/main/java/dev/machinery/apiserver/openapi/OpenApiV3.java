package dev.machinery.apiserver.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.discovery.Discovery;
import dev.machinery.apiserver.registry.rest.ObjectModel;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The OpenAPI v3 documents kube-apiserver serves under {@code /openapi/v3}, built from a Scheme and
 * a discovery document: an index of the served group versions ({@code api/v1}, {@code
 * apis/<group>/<version>}), each with a {@code serverRelativeURL} carrying the document's content
 * hash ({@code ?hash=}), and per group version a document with the paths of each resource and verb
 * (list, create, read, replace, patch, delete, deletecollection, as the resource's verbs allow; the
 * patch operation lists the {@code fieldValidation} parameter, which tells kubectl the server
 * validates fields) and the schemas of its kinds with {@code x-kubernetes-group-version-kind}.
 * Output is deterministic: the same Scheme gives the same bytes and hashes.
 *
 * <p>Built once; immutable and safe for concurrent use.
 */
public final class OpenApiV3 {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
  private static final List<String> PATCH_TYPES =
      List.of(
          "application/json-patch+json",
          "application/merge-patch+json",
          "application/strategic-merge-patch+json",
          "application/apply-patch+yaml");

  private final Map<String, byte[]> documents;
  private final Map<String, String> hashes;

  private OpenApiV3(Map<String, byte[]> documents, Map<String, String> hashes) {
    this.documents = documents;
    this.hashes = hashes;
  }

  /**
   * Builds the documents of every served group version.
   *
   * @param scheme the scheme that holds the kinds' classes
   * @param discovery what is served
   * @param version the server's version, written as the documents' {@code info.version}
   * @return the documents
   */
  public static OpenApiV3 build(Scheme scheme, Discovery discovery, String version) {
    return build(scheme, discovery, version, Map.of());
  }

  /**
   * Builds the documents of every served group version, with the schemas of kinds the Scheme does
   * not register (custom resources), each published as kube-apiserver publishes a
   * CustomResourceDefinition's: under the name of its reversed group, version and kind (such as
   * {@code com.example.stable.v1.CronTab}), with {@code apiVersion}, {@code kind} and {@code
   * metadata} added.
   *
   * @param scheme the scheme that holds the kinds' classes
   * @param discovery what is served
   * @param version the server's version, written as the documents' {@code info.version}
   * @param unregistered the schemas of kinds without a class, by kind
   * @return the documents
   */
  public static OpenApiV3 build(
      Scheme scheme,
      Discovery discovery,
      String version,
      Map<GroupVersionKind, JsonNode> unregistered) {
    return build(scheme, discovery, version, unregistered, Map.of(), Set.of());
  }

  /**
   * Builds the documents of every served group version, with the schemas of kinds the Scheme does
   * not register, some of which may be references ({@code $ref} to {@code
   * #/components/schemas/<name>}) to named schemas, as Kubernetes' own OpenAPI describes its
   * built-in kinds: a kind given as a reference is published under that name, and each document
   * holds the named schemas its kinds reach. Of those kinds, some take strategic merge patches:
   * those list {@code application/strategic-merge-patch+json} among their patch types, as
   * kube-apiserver lists it for its built-in kinds (the others leave it out, as for custom
   * resources, so that {@code kubectl apply} sends them JSON merge patches).
   *
   * @param scheme the scheme that holds the kinds' classes
   * @param discovery what is served
   * @param version the server's version, written as the documents' {@code info.version}
   * @param unregistered the schemas of kinds without a class, by kind (list kinds too, when given)
   * @param components the named schemas the references reach
   * @param strategicMergePatchKinds the kinds without a class that take strategic merge patches
   * @return the documents
   */
  public static OpenApiV3 build(
      Scheme scheme,
      Discovery discovery,
      String version,
      Map<GroupVersionKind, JsonNode> unregistered,
      Map<String, JsonNode> components,
      Set<GroupVersionKind> strategicMergePatchKinds) {
    Map<String, byte[]> documents = new TreeMap<>();
    Map<String, String> hashes = new TreeMap<>();
    for (List<GroupVersion> versions : discovery.servedVersions().values()) {
      for (GroupVersion groupVersion : versions) {
        Optional<APIResourceList> resources = discovery.apiResourceList(groupVersion);
        if (resources.isEmpty()) {
          continue;
        }
        String path = path(groupVersion);
        byte[] document =
            document(
                scheme,
                groupVersion,
                resources.get(),
                version,
                unregistered,
                components,
                strategicMergePatchKinds);
        documents.put(path, document);
        hashes.put(path, hash(document));
      }
    }
    return new OpenApiV3(Map.copyOf(documents), Map.copyOf(hashes));
  }

  /** {@code api/v1} for the core group, {@code apis/<group>/<version>} for the others. */
  static String path(GroupVersion groupVersion) {
    return groupVersion.group().isEmpty()
        ? "api/" + groupVersion.version()
        : "apis/" + groupVersion.group() + "/" + groupVersion.version();
  }

  /**
   * Returns {@code GET /openapi/v3}: each group version's path and {@code serverRelativeURL}.
   *
   * @return the index, as JSON
   */
  public byte[] index() {
    ObjectNode index = NODES.objectNode();
    ObjectNode paths = index.putObject("paths");
    for (Map.Entry<String, String> entry : new TreeMap<>(hashes).entrySet()) {
      paths
          .putObject(entry.getKey())
          .put("serverRelativeURL", "/openapi/v3/" + entry.getKey() + "?hash=" + entry.getValue());
    }
    return write(index);
  }

  /**
   * Returns the document of a group version.
   *
   * @param path such as {@code apis/apps/v1} or {@code api/v1}
   * @return the document, as JSON, or empty when the path is not served
   */
  public Optional<byte[]> document(String path) {
    byte[] document = documents.get(path);
    return document == null ? Optional.empty() : Optional.of(document.clone());
  }

  /**
   * Returns the paths of the served group versions, sorted.
   *
   * @return such as {@code api/v1}, {@code apis/apps/v1}
   */
  public java.util.List<String> paths() {
    return java.util.List.copyOf(new TreeMap<>(documents).keySet());
  }

  /**
   * Returns the content hash of a document, as the index gives it.
   *
   * @param path such as {@code apis/apps/v1}
   * @return the hash (SHA-512, upper-case hex), or empty when the path is not served
   */
  public Optional<String> hash(String path) {
    return Optional.ofNullable(hashes.get(path));
  }

  /**
   * Adds a custom resource's schema (or, with {@code list}, its list's, whose items refer to {@code
   * given}) to the components and returns a reference to it.
   */
  private static ObjectNode customSchema(
      SchemaGenerator schemas, GroupVersionKind kind, JsonNode given, boolean list) {
    List<String> parts = new ArrayList<>(List.of(kind.group().split("\\.")));
    java.util.Collections.reverse(parts);
    String name = String.join(".", parts) + "." + kind.version() + "." + kind.kind();
    ObjectNode schema;
    if (list) {
      name = name + "List";
      schema = NODES.objectNode();
      schema.put("description", kind.kind() + "List is a list of " + kind.kind());
      schema.put("type", "object");
      schema.putArray("required").add("items");
      ObjectNode properties = schema.putObject("properties");
      properties.putObject("items").put("type", "array").set("items", given.deepCopy());
      properties.set("metadata", schemas.reference(ListMeta.class));
    } else {
      schema = given.isObject() ? ((ObjectNode) given).deepCopy() : NODES.objectNode();
      ObjectNode properties =
          schema.has("properties") && schema.get("properties").isObject()
              ? (ObjectNode) schema.get("properties")
              : schema.putObject("properties");
      properties
          .putObject("apiVersion")
          .put(
              "description",
              "APIVersion defines the versioned schema of this representation of an object.")
          .put("type", "string");
      properties
          .putObject("kind")
          .put(
              "description",
              "Kind is a string value representing the REST resource this object" + " represents.")
          .put("type", "string");
      properties.set("metadata", schemas.reference(ObjectMeta.class));
    }
    ObjectNode listProperties = (ObjectNode) schema.get("properties");
    if (list) {
      listProperties
          .putObject("apiVersion")
          .put(
              "description",
              "APIVersion defines the versioned schema of this representation of an object.")
          .put("type", "string");
      listProperties
          .putObject("kind")
          .put(
              "description",
              "Kind is a string value representing the REST resource this object" + " represents.")
          .put("type", "string");
      ArrayNode gvks = schema.putArray("x-kubernetes-group-version-kind");
      gvks.addObject()
          .put("group", kind.group())
          .put("kind", kind.kind() + "List")
          .put("version", kind.version());
    }
    schemas.components().put(name, schema);
    return SchemaGenerator.ref(name);
  }

  /**
   * Copies the named schema a reference names, and every named schema it reaches, into the
   * document's components, and returns the reference.
   */
  private static ObjectNode named(
      SchemaGenerator schemas, JsonNode reference, Map<String, JsonNode> components) {
    java.util.ArrayDeque<JsonNode> pending = new java.util.ArrayDeque<>();
    pending.add(reference);
    while (!pending.isEmpty()) {
      JsonNode node = pending.pop();
      if (node.isObject() && node.path("$ref").isTextual()) {
        String ref = node.get("$ref").asText();
        if (ref.startsWith("#/components/schemas/")) {
          String name = ref.substring("#/components/schemas/".length());
          JsonNode target = components.get(name);
          if (target != null && !schemas.components().containsKey(name)) {
            schemas.components().put(name, ((ObjectNode) target).deepCopy());
            pending.push(target);
          }
        }
      }
      node.forEach(pending::push);
    }
    return ((ObjectNode) reference).deepCopy();
  }

  private static byte[] document(
      Scheme scheme,
      GroupVersion groupVersion,
      APIResourceList resources,
      String version,
      Map<GroupVersionKind, JsonNode> unregistered,
      Map<String, JsonNode> components,
      Set<GroupVersionKind> strategicMergePatchKinds) {
    SchemaGenerator schemas = new SchemaGenerator();
    ObjectNode document = NODES.objectNode();
    document.put("openapi", "3.0.0");
    document.putObject("info").put("title", "Kubernetes").put("version", version);
    ObjectNode paths = NODES.objectNode();
    String prefix = "/" + path(groupVersion);
    for (APIResource resource : resources.getResources()) {
      if (resource.getName().contains("/")) {
        continue; // subresources are not described here yet
      }
      GroupVersionKind kind = groupVersion.withKind(resource.getKind());
      Optional<Class<?>> type = scheme.typeFor(kind);
      JsonNode custom = unregistered.get(kind);
      if (type.isEmpty() && custom == null) {
        continue;
      }
      ObjectNode schema =
          type.isPresent()
              ? schemas.reference(type.get())
              : custom.has("$ref")
                  ? named(schemas, custom, components)
                  : customSchema(schemas, kind, custom, false);
      String name = schema.get("$ref").asText().substring("#/components/schemas/".length());
      ArrayNode gvks = NODES.arrayNode();
      gvks.addObject()
          .put("group", kind.group())
          .put("kind", kind.kind())
          .put("version", kind.version());
      schemas.components().get(name).set("x-kubernetes-group-version-kind", gvks);
      Optional<Class<?>> listType =
          scheme.typeFor(groupVersion.withKind(resource.getKind() + "List"));
      JsonNode customList = unregistered.get(groupVersion.withKind(resource.getKind() + "List"));
      ObjectNode listSchema =
          type.isPresent()
              ? listType.map(schemas::reference).orElse(schema)
              : customList != null && customList.has("$ref")
                  ? named(schemas, customList, components)
                  : customSchema(schemas, kind, schema, true);
      ObjectNode status = schemas.reference(Status.class);
      ObjectNode deleteOptions = schemas.reference(DeleteOptions.class);
      List<String> verbs = resource.getVerbs() == null ? List.of() : resource.getVerbs();
      String collection =
          prefix
              + (resource.isNamespaced() ? "/namespaces/{namespace}/" : "/")
              + resource.getName();
      ObjectNode collectionPath = NODES.objectNode();
      ObjectNode itemPath = NODES.objectNode();
      String operationKind = resource.getKind();
      if (verbs.contains("list")) {
        collectionPath.set(
            "get",
            operation(
                "list",
                operationKind,
                kind,
                listSchema,
                null,
                List.of(
                    "labelSelector",
                    "fieldSelector",
                    "limit",
                    "continue",
                    "resourceVersion",
                    "watch")));
      }
      if (verbs.contains("create")) {
        collectionPath.set(
            "post",
            operation(
                "create",
                operationKind,
                kind,
                schema,
                jsonBody(schema),
                List.of("dryRun", "fieldManager", "fieldValidation")));
      }
      if (verbs.contains("deletecollection")) {
        collectionPath.set(
            "delete",
            operation(
                "deletecollection",
                operationKind,
                kind,
                status,
                jsonBody(deleteOptions),
                List.of("labelSelector", "fieldSelector", "dryRun")));
      }
      if (verbs.contains("get")) {
        itemPath.set("get", operation("read", operationKind, kind, schema, null, List.of()));
      }
      if (verbs.contains("update")) {
        itemPath.set(
            "put",
            operation(
                "replace",
                operationKind,
                kind,
                schema,
                jsonBody(schema),
                List.of("dryRun", "fieldManager", "fieldValidation")));
      }
      if (verbs.contains("patch")) {
        ObjectNode body = NODES.objectNode();
        ObjectNode content = body.putObject("content");
        for (String patchType : PATCH_TYPES) {
          if ((type.isEmpty() || ObjectModel.heldWithoutClass(type.get()))
              && patchType.equals("application/strategic-merge-patch+json")
              && !strategicMergePatchKinds.contains(kind)) {
            // As kube-apiserver publishes custom resources: no strategic merge patch, so that
            // kubectl apply sends them JSON merge patches.
            continue;
          }
          content.putObject(patchType).putObject("schema").put("type", "object");
        }
        body.put("required", true);
        itemPath.set(
            "patch",
            operation(
                "patch",
                operationKind,
                kind,
                schema,
                body,
                List.of("dryRun", "fieldManager", "fieldValidation", "force")));
      }
      if (verbs.contains("delete")) {
        itemPath.set(
            "delete",
            operation(
                "delete",
                operationKind,
                kind,
                status,
                jsonBody(deleteOptions),
                List.of("dryRun", "gracePeriodSeconds", "propagationPolicy")));
      }
      ArrayNode common = NODES.arrayNode();
      if (resource.isNamespaced()) {
        common.add(
            pathParameter(
                "namespace", "object name and auth scope, such as for teams and projects"));
      }
      common.add(queryParameter("pretty"));
      if (!collectionPath.isEmpty()) {
        collectionPath.set("parameters", common.deepCopy());
        paths.set(collection, collectionPath);
      }
      if (!itemPath.isEmpty()) {
        ArrayNode itemParameters = NODES.arrayNode();
        itemParameters.add(pathParameter("name", "name of the " + resource.getKind()));
        itemParameters.addAll(common);
        itemPath.set("parameters", itemParameters);
        paths.set(collection + "/{name}", itemPath);
      }
    }
    document.set("paths", paths);
    ObjectNode componentsNode = document.putObject("components");
    ObjectNode named = componentsNode.putObject("schemas");
    schemas.components().forEach(named::set);
    return write(document);
  }

  private static ObjectNode operation(
      String action,
      String kind,
      GroupVersionKind gvk,
      ObjectNode response,
      ObjectNode body,
      List<String> query) {
    ObjectNode operation = NODES.objectNode();
    operation.put("description", action + " " + kind);
    operation.put(
        "operationId",
        action + GroupVersions.camel(gvk.group()) + GroupVersions.camel(gvk.version()) + kind);
    ArrayNode parameters = operation.putArray("parameters");
    for (String name : query) {
      parameters.add(queryParameter(name));
    }
    if (body != null) {
      operation.set("requestBody", body);
    }
    ObjectNode ok = operation.putObject("responses").putObject("200");
    ok.put("description", "OK");
    ObjectNode content = ok.putObject("content");
    for (String mediaType : List.of("application/json", "application/yaml")) {
      content.putObject(mediaType).set("schema", response.deepCopy());
    }
    operation.put(
        "x-kubernetes-action",
        switch (action) {
          case "read" -> "get";
          case "create" -> "post";
          case "replace" -> "put";
          default -> action;
        });
    operation
        .putObject("x-kubernetes-group-version-kind")
        .put("group", gvk.group())
        .put("kind", gvk.kind())
        .put("version", gvk.version());
    return operation;
  }

  private static ObjectNode jsonBody(ObjectNode schema) {
    ObjectNode body = NODES.objectNode();
    body.putObject("content").putObject("*/*").set("schema", schema.deepCopy());
    body.put("required", true);
    return body;
  }

  private static ObjectNode pathParameter(String name, String description) {
    ObjectNode parameter = NODES.objectNode();
    parameter
        .put("name", name)
        .put("in", "path")
        .put("description", description)
        .put("required", true);
    parameter.putObject("schema").put("type", "string").put("uniqueItems", true);
    return parameter;
  }

  private static ObjectNode queryParameter(String name) {
    ObjectNode parameter = NODES.objectNode();
    parameter.put("name", name).put("in", "query").put("uniqueItems", true);
    ObjectNode schema = parameter.putObject("schema");
    switch (name) {
      case "limit", "gracePeriodSeconds" -> schema.put("type", "integer");
      case "watch", "force" -> schema.put("type", "boolean");
      default -> schema.put("type", "string");
    }
    return parameter;
  }

  private static byte[] write(ObjectNode node) {
    try {
      return JSON.writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing a JSON tree failed", e);
    }
  }

  private static String hash(byte[] document) {
    try {
      return HexFormat.of()
          .withUpperCase()
          .formatHex(MessageDigest.getInstance("SHA-512").digest(document));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-512 is missing from this JVM", e);
    }
  }
}
