package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.merge.VersionConverter;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.typed.Atom;
import dev.machinery.core.typed.JavaSchemas;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.core.typed.StructField;
import dev.machinery.unversioned.managedfields.FieldManager;
import dev.machinery.unversioned.managedfields.FieldManagers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Server-side apply's bookkeeping on the server's writes: one {@link FieldManager} per kind,
 * version and subresource (its schema from the kind's Java class, its reset fields from the
 * endpoint), and the conversion of objects to and from the JSON trees it works on. Thread-safe: the
 * field managers are built once each and shared.
 */
final class FieldManagement {
  private static final ObjectMapper TREES = ObjectJson.mapperBuilder().build();

  private final Scheme scheme;
  private final Codec json;
  private final Map<String, Built> managers = new ConcurrentHashMap<>();

  /** A field manager and the definition it was built for. */
  private record Built(ResourceDefinition definition, FieldManager manager) {}

  FieldManagement(Scheme scheme, Codec json) {
    this.scheme = scheme;
    this.json = json;
  }

  /** The manager a write is recorded under: {@code fieldManager}, else from the User-Agent. */
  static String manager(ApiRequest request) {
    return FieldManagers.managerOrUserAgent(
        request.parameter("fieldManager"), request.header("User-Agent"));
  }

  /**
   * The field manager of a kind of a store in one version, for the object itself or a subresource.
   */
  FieldManager forKind(
      GroupVersionKind kind, Class<?> type, String subresource, ResourceStore store) {
    ResourceDefinition definition = store.definition();
    VersionConverter converter = store.model().fieldConverter();
    String key = kind + "|" + (subresource == null ? "" : subresource);
    // A definition replaced at run time (a custom resource's new schema) gets a new manager.
    return managers
        .compute(
            key,
            (k, built) ->
                built != null && built.definition() == definition
                    ? built
                    : new Built(definition, build(kind, type, subresource, definition, converter)))
        .manager();
  }

  private FieldManager build(
      GroupVersionKind kind,
      Class<?> type,
      String subresource,
      ResourceDefinition definition,
      VersionConverter converter) {
    boolean hasStatus = definition.hasStatus();
    SchemaType schemaType = definition.applySchema(kind.apiVersion()).orElse(null);
    if (schemaType == null) {
      schemaType = JavaSchemas.of(type);
    }
    FieldSet reset = FieldSet.empty();
    if ("status".equals(subresource)) {
      reset = allBut(schemaType, "status");
    } else if (hasStatus && subresource == null) {
      reset = FieldSet.of(FieldPath.of("status"));
    } else if ("scale".equals(subresource)) {
      reset = hasStatus ? FieldSet.of(FieldPath.of("status")) : FieldSet.empty();
    } else if (subresource != null && definition.updateSubresources().containsKey(subresource)) {
      // A subresource written as the object (a CSR's approval) leaves the spec alone.
      reset = FieldSet.of(FieldPath.of("spec"));
    }
    return FieldManager.builder(schemaType, kind.apiVersion(), kind.kind())
        .subresource(subresource)
        .resetFields(reset)
        .converter(converter)
        .build();
  }

  /** Every top-level field of the type but one, so a subresource owns only its own part. */
  private static FieldSet allBut(SchemaType type, String kept) {
    List<FieldPath> paths = new ArrayList<>();
    Atom atom = type.schema().resolve(type.ref());
    if (atom != null && atom.map() != null) {
      for (StructField field : atom.map().fields()) {
        if (!field.name().equals(kept)) {
          paths.add(FieldPath.of(field.name()));
        }
      }
    }
    if (paths.isEmpty()) {
      paths.add(FieldPath.of("spec"));
      paths.add(FieldPath.of("metadata"));
    }
    return FieldSet.of(paths);
  }

  /** The object as a JSON tree, in its own version. */
  ObjectNode tree(Object object) {
    try {
      JsonNode node = TREES.readTree(json.encode(object));
      return (ObjectNode) node;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The object a JSON tree holds, as an instance of the given class. */
  <T> T object(JsonNode tree, Class<T> type) {
    try {
      return json.decode(TREES.writeValueAsBytes(tree), type).object();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The empty object of a kind, as kube-apiserver's live object on a create. */
  JsonNode empty(Class<?> type, GroupVersionKind kind) {
    try {
      Object zero = type.getDeclaredConstructor().newInstance();
      ObjectNode tree = tree(zero);
      tree.put("apiVersion", kind.apiVersion());
      tree.put("kind", kind.kind());
      return tree;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return NullNode.getInstance();
    }
  }
}
