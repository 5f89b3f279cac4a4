package dev.machinery.apiserver.openapi;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.conversion.Property;
import dev.machinery.core.patch.ListMapKeys;
import dev.machinery.core.patch.ListType;
import dev.machinery.core.patch.MapType;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
import dev.machinery.core.runtime.WireProperties;
import dev.machinery.core.typed.Atom;
import dev.machinery.core.typed.ElementRelationship;
import dev.machinery.core.typed.JavaSchemas;
import dev.machinery.core.typed.ListAtom;
import dev.machinery.core.typed.MapAtom;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.core.typed.StructField;
import dev.machinery.core.typed.TypeRef;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.Duration;
import dev.machinery.unversioned.meta.v1.MicroTime;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.resource.Quantity;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * OpenAPI v3 schemas of Java types, as the codecs read and write them ({@code WireProperties}):
 * objects with their properties, lists and maps, enums, and Kubernetes' value types as Kubernetes
 * describes them (a quantity is a string or a number, an int-or-string has {@code
 * x-kubernetes-int-or-string}, times are {@code date-time} strings). Named schemas go to the
 * components under Kubernetes' names for the shared types and the class name otherwise; patch
 * strategies become {@code x-kubernetes-patch-strategy} and {@code x-kubernetes-patch-merge-key}.
 * Descriptions come from {@code @JsonClassDescription} and {@code @JsonPropertyDescription};
 * {@code @JsonProperty(required = true)} marks a required property. One generator builds one
 * document; not thread-safe.
 */
final class SchemaGenerator {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

  private final Map<String, ObjectNode> components = new TreeMap<>();

  /** The named schemas made so far, by name, sorted. */
  Map<String, ObjectNode> components() {
    return components;
  }

  /** A reference to the named schema of a class, made on first use. */
  ObjectNode reference(Class<?> type) {
    String name = name(type);
    if (!components.containsKey(name)) {
      components.put(name, NODES.objectNode()); // placeholder: recursive types refer to themselves
      components.put(name, objectSchema(type));
    }
    return ref(name);
  }

  static ObjectNode ref(String name) {
    ObjectNode ref = NODES.objectNode();
    ref.put("$ref", "#/components/schemas/" + name);
    return ref;
  }

  /** The name Kubernetes gives the shared types, else the class's name. */
  static String name(Class<?> type) {
    if (type == Quantity.class) {
      return "io.k8s.apimachinery.pkg.api.resource.Quantity";
    }
    if (type == IntOrString.class) {
      return "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    }
    if (type.getPackageName().equals("dev.machinery.unversioned.meta.v1")) {
      return META + type.getSimpleName();
    }
    return type.getName().replace('$', '.');
  }

  ObjectNode schema(Type type) {
    Class<?> raw = raw(type);
    ObjectNode schema = NODES.objectNode();
    if (raw == String.class || raw == char.class || raw == Character.class) {
      schema.put("type", "string");
    } else if (raw == int.class
        || raw == Integer.class
        || raw == short.class
        || raw == Short.class) {
      schema.put("type", "integer").put("format", "int32");
    } else if (raw == long.class || raw == Long.class) {
      schema.put("type", "integer").put("format", "int64");
    } else if (raw == double.class || raw == Double.class) {
      schema.put("type", "number").put("format", "double");
    } else if (raw == float.class || raw == Float.class) {
      schema.put("type", "number").put("format", "float");
    } else if (raw == boolean.class || raw == Boolean.class) {
      schema.put("type", "boolean");
    } else if (raw == byte[].class) {
      schema.put("type", "string").put("format", "byte");
    } else if (raw == java.math.BigDecimal.class || raw == java.math.BigInteger.class) {
      schema.put("type", "number");
    } else if (raw == Instant.class || raw == OffsetDateTime.class) {
      schema.put("type", "string").put("format", "date-time");
    } else if (raw == java.time.Duration.class || raw == Duration.class) {
      return valueSchema(raw, "string", null);
    } else if (raw == Time.class || raw == MicroTime.class) {
      return valueSchema(raw, "string", "date-time");
    } else if (raw == Quantity.class) {
      return reference(Quantity.class);
    } else if (raw == IntOrString.class) {
      return reference(IntOrString.class);
    } else if (raw.isEnum()) {
      schema.put("type", "string");
      ArrayNode values = schema.putArray("enum");
      for (Object constant : raw.getEnumConstants()) {
        values.add(((Enum<?>) constant).name());
      }
    } else if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
      schema.put("type", "array");
      schema.set("items", schema(raw.isArray() ? raw.getComponentType() : argument(type, 0)));
    } else if (Map.class.isAssignableFrom(raw)) {
      schema.put("type", "object");
      Type values = argument(type, 1);
      if (raw(values) == Object.class) {
        schema.put("x-kubernetes-preserve-unknown-fields", true);
      } else {
        schema.set("additionalProperties", schema(values));
      }
    } else if (raw == Object.class || raw.getName().startsWith("java.")) {
      schema.put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
    } else {
      return reference(raw);
    }
    return schema;
  }

  /** A value type written as one string, named as Kubernetes names its own. */
  private ObjectNode valueSchema(Class<?> type, String kind, String format) {
    String name = type == java.time.Duration.class ? META + "Duration" : name(type);
    if (!components.containsKey(name)) {
      ObjectNode schema = NODES.objectNode().put("type", kind);
      if (format != null) {
        schema.put("format", format);
      }
      components.put(name, schema);
    }
    return ref(name);
  }

  /**
   * The struct a class is to server-side apply (the one model of its list and map shapes, built
   * from the same annotations), or {@code null} for a class it takes as opaque.
   */
  private static MapAtom shapeOf(Class<?> type) {
    SchemaType typed = JavaSchemas.of(type);
    Atom atom = typed.schema().resolve(typed.ref());
    return atom == null ? null : atom.map();
  }

  /**
   * Writes the {@code x-kubernetes-list-type}, {@code x-kubernetes-list-map-keys} and {@code
   * x-kubernetes-map-type} of a property, as its server-side apply schema has them.
   */
  private static void applyExtensions(ObjectNode value, StructField field) {
    if (field == null) {
      return;
    }
    TypeRef ref = field.type();
    ElementRelationship relationship = ref.relationship();
    Atom atom = ref.inlined();
    if (atom != null && atom.list() != null) {
      ListAtom list = atom.list();
      if (list.relationship() == ElementRelationship.ATOMIC) {
        value.put("x-kubernetes-list-type", "atomic");
      } else if (list.keys().isEmpty()) {
        value.put("x-kubernetes-list-type", "set");
      } else {
        value.put("x-kubernetes-list-type", "map");
        ArrayNode keys = value.putArray("x-kubernetes-list-map-keys");
        list.keys().forEach(keys::add);
      }
    } else if (atom != null && atom.map() != null) {
      value.put(
          "x-kubernetes-map-type",
          atom.map().relationship() == ElementRelationship.ATOMIC ? "atomic" : "granular");
    } else if (relationship != null) {
      value.put(
          "x-kubernetes-map-type",
          relationship == ElementRelationship.ATOMIC ? "atomic" : "granular");
    }
  }

  private ObjectNode objectSchema(Class<?> type) {
    ObjectNode schema = NODES.objectNode();
    if (type == Quantity.class) {
      schema.put(
          "description",
          "A fixed-point number with a unit suffix, such as 500m, 1Gi or 1e3; written as a"
              + " string, read from a string or a number.");
      ArrayNode oneOf = schema.putArray("oneOf");
      oneOf.addObject().put("type", "string");
      oneOf.addObject().put("type", "number");
      return schema;
    }
    if (type == IntOrString.class) {
      schema.put("description", "An integer or a string, such as a port number or name.");
      schema.put("x-kubernetes-int-or-string", true);
      ArrayNode anyOf = schema.putArray("anyOf");
      anyOf.addObject().put("type", "integer");
      anyOf.addObject().put("type", "string");
      return schema;
    }
    JsonClassDescription description = type.getAnnotation(JsonClassDescription.class);
    if (description != null) {
      schema.put("description", description.value());
    }
    schema.put("type", "object");
    MapAtom shape = shapeOf(type);
    if (type.getAnnotation(MapType.class) != null
        && shape != null
        && shape.relationship() == ElementRelationship.ATOMIC) {
      schema.put("x-kubernetes-map-type", "atomic");
    }
    ObjectNode properties = NODES.objectNode();
    ArrayNode required = NODES.arrayNode();
    for (Property property : WireProperties.standard().properties(type)) {
      if (property.isCatchAll()) {
        schema.put("x-kubernetes-preserve-unknown-fields", true);
        continue;
      }
      ObjectNode value = schema(property.type());
      if (value.has("$ref")) {
        // Siblings of a $ref are ignored in OpenAPI 3.0: Kubernetes wraps it in allOf.
        ObjectNode wrapped = NODES.objectNode();
        wrapped.putArray("allOf").add(value);
        value = wrapped;
      }
      JsonPropertyDescription about = property.annotation(JsonPropertyDescription.class);
      if (about != null) {
        value.put("description", about.value());
      }
      PatchStrategy strategy = property.annotation(PatchStrategy.class);
      if (strategy != null) {
        value.put("x-kubernetes-patch-strategy", String.join(",", strategy.value()));
      }
      PatchMergeKey key = property.annotation(PatchMergeKey.class);
      if (key != null) {
        value.put("x-kubernetes-patch-merge-key", key.value());
      }
      if (strategy != null
          || key != null
          || property.annotation(ListType.class) != null
          || property.annotation(ListMapKeys.class) != null
          || property.annotation(MapType.class) != null) {
        applyExtensions(value, shape == null ? null : shape.field(property.name()));
      }
      JsonNode fallback = JavaSchemas.declaredDefault(property);
      if (fallback != null) {
        value.set("default", fallback);
      }
      JsonProperty declared = property.annotation(JsonProperty.class);
      if (declared != null && declared.required()) {
        required.add(property.name());
      }
      properties.set(property.name(), value);
    }
    schema.set("properties", properties);
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    return schema;
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> plain) {
      return plain;
    }
    if (type instanceof ParameterizedType parameterized) {
      return raw(parameterized.getRawType());
    }
    if (type instanceof WildcardType wildcard) {
      return raw(wildcard.getUpperBounds()[0]);
    }
    return Object.class;
  }

  private static Type argument(Type type, int index) {
    if (type instanceof ParameterizedType parameterized
        && parameterized.getActualTypeArguments().length > index) {
      return parameterized.getActualTypeArguments()[index];
    }
    return Object.class;
  }

  /** The names of the schemas made so far. */
  List<String> names() {
    return List.copyOf(components.keySet());
  }
}
