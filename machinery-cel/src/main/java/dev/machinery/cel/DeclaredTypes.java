package dev.machinery.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL types of a schema's values, as Kubernetes declares them: an object with properties is an
 * object type with its declared fields (a resource's root and an embedded resource also have {@code
 * apiVersion}, {@code kind} and {@code metadata} with {@code name} and {@code generateName}, unless
 * its schema declares them all as strings and {@code metadata} as an object, as a built-in kind's
 * does, when it keeps its declared types, {@code metadata} whole), an object with {@code
 * additionalProperties} a map, an array a list, a string of {@code format: date-time} or {@code
 * date} a timestamp, of {@code duration} a duration, of {@code byte} bytes, integers {@code int},
 * numbers {@code double}, and {@code x-kubernetes-int-or-string} and objects that keep unknown
 * fields without declaring any {@code dyn}.
 *
 * <p>One instance serves one version's schema; it is also the type provider its environments
 * resolve the object types with. Built by one thread, then only read: thread-safe once published.
 */
final class DeclaredTypes implements CelTypeProvider {
  private static final StructType METADATA =
      StructType.create(
          "kubernetes.ObjectMeta",
          ImmutableSet.of("name", "generateName"),
          field -> Optional.of(SimpleType.STRING));

  private final Map<String, CelType> types = new LinkedHashMap<>();

  DeclaredTypes() {
    types.put(METADATA.name(), METADATA);
  }

  /**
   * The type of the values of a schema.
   *
   * @param schema the schema
   * @param name the name an object type takes, unique in the schema (its path)
   * @param resource whether the value is a whole resource (the root or an embedded resource)
   */
  CelType typeOf(JSONSchemaProps schema, String name, boolean resource) {
    if (schema.allowsIntOrString()) {
      return SimpleType.DYN;
    }
    String type = schema.type() == null ? "" : schema.type();
    switch (type) {
      case "object":
        return objectType(schema, name, resource || schema.embedsResource());
      case "array":
        return schema.items() == null
            ? ListType.create(SimpleType.DYN)
            : ListType.create(typeOf(schema.items(), name + ".@items", false));
      case "string":
        return switch (schema.format() == null ? "" : schema.format()) {
          case "date-time", "datetime", "date" -> SimpleType.TIMESTAMP;
          case "duration" -> SimpleType.DURATION;
          case "byte" -> SimpleType.BYTES;
          default -> SimpleType.STRING;
        };
      case "integer":
        return SimpleType.INT;
      case "number":
        return SimpleType.DOUBLE;
      case "boolean":
        return SimpleType.BOOL;
      default:
        return SimpleType.DYN;
    }
  }

  /**
   * Adds a type of its own making, such as one a variable is declared with.
   *
   * @param type the type, replacing one of the same name
   */
  void add(CelType type) {
    types.put(type.name(), type);
  }

  private CelType objectType(JSONSchemaProps schema, String name, boolean resource) {
    Map<String, JSONSchemaProps> properties =
        schema.properties() == null ? Map.of() : schema.properties();
    if (resource && declaresTypeAndObjectMeta(properties)) {
      // As Kubernetes: a resource whose schema declares apiVersion, kind and metadata with name
      // and generateName (a built-in kind's) keeps its own types for them, metadata whole.
      resource = false;
    }
    if (properties.isEmpty() && !resource) {
      if (schema.additionalProperties() != null && schema.additionalProperties().schema() != null) {
        return MapType.create(
            SimpleType.STRING,
            typeOf(schema.additionalProperties().schema(), name + ".@values", false));
      }
      if (schema.preservesUnknownFields()) {
        return SimpleType.DYN;
      }
      return MapType.create(SimpleType.STRING, SimpleType.DYN);
    }
    Map<String, CelType> fields = new LinkedHashMap<>();
    if (resource) {
      fields.put("apiVersion", SimpleType.STRING);
      fields.put("kind", SimpleType.STRING);
      fields.put("metadata", METADATA);
    }
    for (Map.Entry<String, JSONSchemaProps> property : properties.entrySet()) {
      String field = FieldNames.escape(property.getKey());
      if (field == null || resource && fields.containsKey(field)) {
        continue;
      }
      fields.put(field, typeOf(property.getValue(), name + "." + field, false));
    }
    Map<String, CelType> declared = Map.copyOf(fields);
    StructType struct =
        StructType.create(
            name, ImmutableSet.copyOf(fields.keySet()), f -> Optional.ofNullable(declared.get(f)));
    types.put(name, struct);
    return struct;
  }

  private static boolean declaresTypeAndObjectMeta(Map<String, JSONSchemaProps> properties) {
    JSONSchemaProps metadata = properties.get("metadata");
    if (!isType(properties.get("kind"), "string")
        || !isType(properties.get("apiVersion"), "string")
        || !isType(metadata, "object")
        || metadata.properties() == null) {
      return false;
    }
    return isType(metadata.properties().get("name"), "string")
        && isType(metadata.properties().get("generateName"), "string");
  }

  private static boolean isType(JSONSchemaProps schema, String type) {
    return schema != null && type.equals(schema.type());
  }

  @Override
  public ImmutableCollection<CelType> types() {
    return ImmutableList.copyOf(types.values());
  }

  @Override
  public Optional<CelType> findType(String typeName) {
    return Optional.ofNullable(types.get(typeName));
  }
}
