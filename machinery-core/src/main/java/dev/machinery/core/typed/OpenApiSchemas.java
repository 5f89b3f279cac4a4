package dev.machinery.core.typed;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Schemas from OpenAPI: Kubernetes' own ({@code /openapi/v2} {@code definitions}, {@code
 * /openapi/v3} {@code components.schemas}) and the structural schemas of custom resources, read as
 * Jackson trees and converted as kube-openapi's {@code schemaconv} converts them, so built-in kinds
 * and custom resources get the types kube-apiserver tracks their fields with.
 *
 * <ul>
 *   <li>{@code properties} are struct fields (a property's {@code default} is kept, for key fields
 *       of associative lists); {@code additionalProperties} is the type of other entries; an object
 *       with neither, or under {@code x-kubernetes-preserve-unknown-fields}, keeps any other entry
 *       as a {@link Schema#DEDUCED deduced} value;
 *   <li>{@code items} is a list's element type; lists are atomic unless {@code
 *       x-kubernetes-list-type} says {@code set} or {@code map} (with {@code
 *       x-kubernetes-list-map-keys}), or, without it, {@code x-kubernetes-patch-strategy: merge}
 *       makes them associative (keyed by {@code x-kubernetes-patch-merge-key} when given);
 *   <li>{@code x-kubernetes-map-type} {@code atomic} or {@code granular} sets a map's or struct's
 *       relationship, also beside a {@code $ref};
 *   <li>{@code $ref} (alone or as the one entry of {@code allOf}) names the type by the last
 *       segment of the reference, {@code #/definitions/...} or {@code #/components/schemas/...};
 *   <li>a schema without {@code type} is any value (an untyped scalar, an atomic list or a deduced
 *       map); strings of a {@code format} other than {@code byte}, and {@code
 *       x-kubernetes-int-or-string}, are untyped scalars; {@code Quantity} is an untyped scalar and
 *       {@code RawExtension} any value held as one;
 *   <li>{@code x-kubernetes-embedded-resource} adds {@code apiVersion}, {@code kind} and {@code
 *       metadata} to the object when it does not declare them, as the custom resource server
 *       publishes them.
 * </ul>
 *
 * Problems (an unknown list type, a list type {@code map} without keys, an array without {@code
 * items}) are reported together as a {@link TypedException} whose paths name the types.
 */
public final class OpenApiSchemas {
  private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
  private static final String RAW_EXTENSION = "io.k8s.apimachinery.pkg.runtime.RawExtension";
  private static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

  private final List<ValidationError> errors = new ArrayList<>();
  private final boolean hasObjectMeta;

  private OpenApiSchemas(boolean hasObjectMeta) {
    this.hasObjectMeta = hasObjectMeta;
  }

  /**
   * Converts the named schemas of an OpenAPI document: its {@code definitions} (v2) or {@code
   * components.schemas} (v3). Unknown fields are not kept unless a schema says so.
   *
   * @param document the OpenAPI document
   * @return the schema, a type for each named schema
   * @throws TypedException if a schema cannot be converted
   */
  public static Schema fromOpenApi(JsonNode document) {
    return fromOpenApi(document, false);
  }

  /**
   * Converts the named schemas of an OpenAPI document.
   *
   * @param document the OpenAPI document
   * @param preserveUnknownFields whether every object keeps unknown fields, as custom resources
   *     with {@code preserveUnknownFields: true} do
   * @return the schema
   * @throws TypedException if a schema cannot be converted
   */
  public static Schema fromOpenApi(JsonNode document, boolean preserveUnknownFields) {
    JsonNode named = document.path("definitions");
    if (!named.isObject()) {
      named = document.path("components").path("schemas");
    }
    OpenApiSchemas converter = new OpenApiSchemas(named.has(OBJECT_META));
    Schema.Builder builder = Schema.builder();
    for (Map.Entry<String, JsonNode> entry : named.properties()) {
      converter.define(builder, entry.getKey(), entry.getValue(), preserveUnknownFields);
    }
    converter.finish();
    return builder.build();
  }

  /**
   * Converts the named schemas of an OpenAPI document as {@link #fromOpenApi(JsonNode)} does, each
   * when the schema first resolves its name rather than all at once: a schema of hundreds of types
   * of which a server reads a few at start (server-side apply's schema of Kubernetes' kinds) costs
   * only those. The schema equals the one {@link #fromOpenApi(JsonNode)} makes of the same
   * definitions (comparing, hashing or listing its names converts every type). Unknown fields are
   * not kept unless a schema says so.
   *
   * @param names the named schemas' names, in the document's order
   * @param definitions a named schema by name, called at most once for each name and from any
   *     thread; null for a name it does not know
   * @return the schema
   * @throws TypedException from the schema's methods, when the type they resolve cannot be
   *     converted (naming that type)
   */
  public static Schema fromOpenApiLazily(
      List<String> names, Function<String, JsonNode> definitions) {
    List<String> all = List.copyOf(names);
    boolean hasObjectMeta = all.contains(OBJECT_META);
    return Schema.lazy(
        all,
        name -> {
          JsonNode spec = definitions.apply(name);
          if (spec == null) {
            return null;
          }
          OpenApiSchemas converter = new OpenApiSchemas(hasObjectMeta);
          Atom atom = converter.convert(name, spec, false);
          converter.finish();
          return atom;
        });
  }

  /**
   * Converts one schema without references, as a custom resource version's {@code openAPIV3Schema},
   * into a schema with one named type.
   *
   * @param name the type's name
   * @param schema the schema
   * @param preserveUnknownFields whether every object keeps unknown fields
   * @return the schema; {@code schema.type(name)} is the converted type
   * @throws TypedException if the schema cannot be converted
   */
  public static Schema fromSchema(String name, JsonNode schema, boolean preserveUnknownFields) {
    OpenApiSchemas converter = new OpenApiSchemas(false);
    Schema.Builder builder = Schema.builder();
    converter.define(builder, name, schema, preserveUnknownFields);
    converter.finish();
    return builder.build();
  }

  private void define(Schema.Builder builder, String name, JsonNode spec, boolean preserve) {
    Atom atom = convert(name, spec, preserve);
    if (atom != null) {
      builder.type(name, atom);
    }
  }

  /** The type of a named schema, or null when it has none (an alias, or an empty type). */
  private Atom convert(String name, JsonNode spec, boolean preserve) {
    if (!spec.path("$ref").asText().isEmpty()) {
      return null; // an alias: references resolve to its target by name
    }
    Atom atom;
    if (name.equals(QUANTITY)) {
      atom = Atom.scalar(ScalarType.UNTYPED);
    } else if (name.equals(RAW_EXTENSION)) {
      atom =
          new Atom(
              ScalarType.UNTYPED,
              ListAtom.atomic(TypeRef.named(Schema.UNTYPED_ATOMIC)),
              new MapAtom(
                  List.of(), TypeRef.named(Schema.UNTYPED_ATOMIC), ElementRelationship.ATOMIC));
    } else {
      atom = visit(spec, name, preserve);
    }
    return atom.isEmpty() ? null : atom;
  }

  private void finish() {
    if (!errors.isEmpty()) {
      throw new TypedException(errors);
    }
  }

  private void error(String where, String message) {
    errors.add(new ValidationError(where, message));
  }

  private Atom visit(JsonNode spec, String where, boolean preserve) {
    boolean keep = preserve || spec.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    if (spec.path("x-kubernetes-int-or-string").asBoolean(false)) {
      return Atom.scalar(ScalarType.UNTYPED);
    }
    JsonNode typeNode = spec.path("type");
    String type = typeNode.isArray() ? typeNode.path(0).asText("") : typeNode.asText("");
    switch (type) {
      case "":
        return new Atom(
            ScalarType.UNTYPED, list(spec, where, keep, false), object(spec, where, keep));
      case "object":
        return Atom.map(object(spec, where, keep));
      case "array":
        return Atom.list(list(spec, where, keep, true));
      case "integer", "number":
        return Atom.scalar(ScalarType.NUMERIC);
      case "boolean":
        return Atom.scalar(ScalarType.BOOLEAN);
      case "string":
        String format = spec.path("format").asText("");
        return Atom.scalar(
            format.isEmpty() || format.equals("byte") ? ScalarType.STRING : ScalarType.UNTYPED);
      default:
        error(where, "unrecognized type: '" + type + "'");
        return Atom.scalar(ScalarType.UNTYPED);
    }
  }

  private TypeRef ref(JsonNode spec, String where, boolean preserve) {
    String ref = spec.path("$ref").asText("");
    JsonNode allOf = spec.path("allOf");
    if (ref.isEmpty() && allOf.size() == 1) {
      ref = allOf.get(0).path("$ref").asText("");
    }
    String name = ref.substring(ref.lastIndexOf('/') + 1);
    if (!name.isEmpty()) {
      ElementRelationship relationship = mapRelationship(spec, where);
      TypeRef named = TypeRef.named(name);
      return relationship == null ? named : named.withRelationship(relationship);
    }
    return TypeRef.inline(visit(spec, "inlined in " + where, preserve));
  }

  private MapAtom object(JsonNode spec, String where, boolean preserve) {
    List<StructField> fields = new ArrayList<>();
    JsonNode properties = spec.path("properties");
    for (Map.Entry<String, JsonNode> property : properties.properties()) {
      JsonNode member = property.getValue();
      JsonNode fallback = member.get("default");
      fields.add(
          new StructField(
              property.getKey(),
              ref(member, where, preserve),
              fallback == null || fallback.isNull() ? null : fallback));
    }
    if (spec.path("x-kubernetes-embedded-resource").asBoolean(false)) {
      embed(fields, properties);
    }
    JsonNode additional = spec.get("additionalProperties");
    TypeRef elementType;
    if (additional == null) {
      elementType = preserve || properties.isEmpty() ? TypeRef.named(Schema.DEDUCED) : null;
    } else if (additional.isObject()) {
      elementType = ref(additional, where, preserve);
    } else if (additional.asBoolean(false)) {
      elementType = TypeRef.named(Schema.DEDUCED);
    } else {
      elementType = null;
    }
    return new MapAtom(fields, elementType, mapRelationship(spec, where));
  }

  private void embed(List<StructField> fields, JsonNode properties) {
    TypeRef string = TypeRef.inline(Atom.scalar(ScalarType.STRING));
    if (!properties.has("apiVersion")) {
      fields.add(StructField.of("apiVersion", string));
    }
    if (!properties.has("kind")) {
      fields.add(StructField.of("kind", string));
    }
    if (!properties.has("metadata")) {
      fields.add(
          StructField.of("metadata", TypeRef.named(hasObjectMeta ? OBJECT_META : Schema.DEDUCED)));
    }
  }

  private ListAtom list(JsonNode spec, String where, boolean preserve, boolean typed) {
    ElementRelationship relationship = ElementRelationship.ATOMIC;
    List<String> keys = List.of();
    JsonNode listType = spec.get("x-kubernetes-list-type");
    JsonNode strategy = spec.get("x-kubernetes-patch-strategy");
    if (listType != null) {
      switch (listType.asText()) {
        case "atomic" -> relationship = ElementRelationship.ATOMIC;
        case "set" -> relationship = ElementRelationship.ASSOCIATIVE;
        case "map" -> {
          relationship = ElementRelationship.ASSOCIATIVE;
          JsonNode mapKeys = spec.get("x-kubernetes-list-map-keys");
          if (mapKeys == null) {
            error(where, "missing map keys");
          } else if (!mapKeys.isArray()) {
            error(where, "uninterpreted map keys: " + mapKeys);
          } else {
            List<String> names = new ArrayList<>();
            mapKeys.forEach(
                key -> {
                  if (key.isTextual()) {
                    names.add(key.asText());
                  }
                });
            keys = names;
          }
        }
        default -> error(where, "unknown list type " + listType.asText());
      }
    } else if (strategy != null) {
      switch (strategy.asText()) {
        case "merge", "merge,retainKeys" -> {
          relationship = ElementRelationship.ASSOCIATIVE;
          JsonNode key = spec.get("x-kubernetes-patch-merge-key");
          if (key != null && key.isTextual()) {
            keys = List.of(key.asText());
          } else if (key != null) {
            error(where, "uninterpreted merge key: " + key);
          }
        }
        case "retainKeys" -> relationship = ElementRelationship.ATOMIC;
        default -> error(where, "unknown patch strategy " + strategy.asText());
      }
    }
    JsonNode items = spec.get("items");
    TypeRef elementType;
    if (items != null) {
      if (!items.isObject()) {
        error(where, "structural schema arrays must have exactly one member subtype");
        elementType = TypeRef.named(Schema.DEDUCED);
      } else {
        elementType = ref(items, where, preserve);
      }
    } else {
      if (typed) {
        error(where, "`items` must be specified on arrays");
      }
      elementType = TypeRef.named(Schema.UNTYPED_ATOMIC);
    }
    return new ListAtom(elementType, relationship, keys);
  }

  private ElementRelationship mapRelationship(JsonNode spec, String where) {
    JsonNode mapType = spec.get("x-kubernetes-map-type");
    if (mapType == null) {
      return null;
    }
    return switch (mapType.asText()) {
      case "atomic" -> ElementRelationship.ATOMIC;
      case "granular" -> ElementRelationship.SEPARABLE;
      default -> {
        error(where, "unknown map type " + mapType.asText());
        yield null;
      }
    };
  }
}
