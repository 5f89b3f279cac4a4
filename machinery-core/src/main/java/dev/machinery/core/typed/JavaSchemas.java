package dev.machinery.core.typed;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.machinery.conversion.Property;
import dev.machinery.core.codec.SerializedAsDeclared;
import dev.machinery.core.patch.ListMapKeys;
import dev.machinery.core.patch.ListType;
import dev.machinery.core.patch.MapType;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
import dev.machinery.core.runtime.WireProperties;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Schemas from Java types, through the codecs' view of their properties ({@link WireProperties}),
 * with the list and map annotations Kubernetes' Go types carry as markers and struct tags:
 *
 * <ul>
 *   <li>records and beans are granular structs of their wire properties (a bean's catch-all of
 *       unknown fields keeps other entries as deduced values), atomic under {@link
 *       MapType @MapType("atomic")} on the property or the class;
 *   <li>{@code Map<String, T>} is a granular map of {@code T};
 *   <li>lists, sets and arrays are atomic unless {@link ListType @ListType} says {@code set} or
 *       {@code map} (keyed by {@link ListMapKeys @ListMapKeys}, else by {@link
 *       PatchMergeKey @PatchMergeKey}), or, without it, {@link
 *       PatchStrategy @PatchStrategy("merge")} makes them a set or, with a merge key, a map, as
 *       Kubernetes derives its OpenAPI from the same tags;
 *   <li>strings, characters, enums and {@code byte[]} are strings; numbers numeric; booleans
 *       boolean; other JDK types untyped scalars; {@code Object}, {@link JsonNode}, type variables
 *       and classes serialized their own way ({@code @JsonValue}, {@code @JsonSerialize(using =
 *       ...)}, as fabric8's {@code Quantity} and {@code IntOrString}) are deduced from the value.
 * </ul>
 *
 * Each class is a named type (its binary name), so recursive classes work. Schemas are built once
 * per type and cached; safe for concurrent use.
 */
public final class JavaSchemas {
  private static final Map<Type, SchemaType> CACHE = new ConcurrentHashMap<>();
  private static final ObjectMapper DEFAULTS = new ObjectMapper();

  private final Schema.Builder builder = Schema.builder();

  private JavaSchemas() {}

  /**
   * Returns the type of a Java class or generic type, in a schema holding every class it reaches.
   *
   * @param type the class or type
   * @return the type
   * @throws IllegalArgumentException if an annotation cannot be used (an unknown list or map type,
   *     a map list without keys)
   */
  public static SchemaType of(Type type) {
    SchemaType cached = CACHE.get(type);
    if (cached == null) {
      JavaSchemas walk = new JavaSchemas();
      TypeRef root = walk.ref(type);
      cached = walk.builder.build().type(root);
      CACHE.putIfAbsent(type, cached);
    }
    return cached;
  }

  private TypeRef ref(Type type) {
    Class<?> raw = raw(type);
    if (raw == null || raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
      return TypeRef.named(Schema.DEDUCED);
    }
    ScalarType scalar = scalar(raw);
    if (scalar != null) {
      return TypeRef.inline(Atom.scalar(scalar));
    }
    if (raw.isArray() || Collection.class.isAssignableFrom(raw)) {
      Type element =
          raw.isArray()
              ? type instanceof GenericArrayType generic
                  ? generic.getGenericComponentType()
                  : raw.getComponentType()
              : argument(type, 0);
      return TypeRef.inline(Atom.list(ListAtom.atomic(ref(element))));
    }
    if (Map.class.isAssignableFrom(raw)) {
      return TypeRef.inline(Atom.map(MapAtom.of(ref(argument(type, 1)))));
    }
    if (raw.getName().startsWith("java.") || raw.isInterface() || selfSerialized(raw)) {
      return TypeRef.named(
          raw.getName().startsWith("java.") ? Schema.UNTYPED_ATOMIC : Schema.DEDUCED);
    }
    String name = raw.getName();
    if (!builder.has(name)) {
      builder.type(name, Atom.map(MapAtom.struct())); // placeholder while the class is walked
      builder.type(name, Atom.map(struct(raw)));
    }
    return TypeRef.named(name);
  }

  private MapAtom struct(Class<?> raw) {
    List<StructField> fields = new ArrayList<>();
    TypeRef others = null;
    for (Property property : WireProperties.standard().properties(raw)) {
      if (property.isCatchAll()) {
        others = TypeRef.named(Schema.DEDUCED);
      } else {
        fields.add(
            new StructField(property.name(), field(raw, property), declaredDefault(property)));
      }
    }
    if (fields.isEmpty() && others == null) {
      others = TypeRef.named(Schema.DEDUCED);
    }
    MapType mapType = raw.getAnnotation(MapType.class);
    return new MapAtom(fields, others, mapType == null ? null : mapRelationship(raw, mapType));
  }

  /**
   * The default a property declares with {@code @JsonProperty(defaultValue = ...)}, as Kubernetes'
   * {@code +default} marker: server-side apply keys an associative list's item that leaves out a
   * key field by it (a container port without a protocol is the {@code TCP} one), and the generated
   * OpenAPI carries it as {@code default}. Text for string-like properties, else the JSON the text
   * reads as.
   *
   * @param property the property
   * @return the default, or null when it declares none
   */
  public static JsonNode declaredDefault(Property property) {
    JsonProperty declared = property.annotation(JsonProperty.class);
    if (declared == null || declared.defaultValue().isEmpty()) {
      return null;
    }
    String text = declared.defaultValue();
    Type type = property.type();
    if (type instanceof Class<?> plain
        && (plain == String.class
            || plain == Character.class
            || plain == char.class
            || plain.isEnum())) {
      return TextNode.valueOf(text);
    }
    try {
      return DEFAULTS.readTree(text);
    } catch (JsonProcessingException e) {
      return TextNode.valueOf(text);
    }
  }

  private TypeRef field(Class<?> owner, Property property) {
    TypeRef ref = ref(property.type());
    MapType mapType = property.annotation(MapType.class);
    if (mapType != null) {
      ElementRelationship relationship = mapRelationship(owner, mapType);
      if (ref.inlined() != null && ref.inlined().map() != null) {
        return TypeRef.inline(Atom.map(ref.inlined().map().withRelationship(relationship)));
      }
      return ref.withRelationship(relationship);
    }
    if (ref.inlined() == null || ref.inlined().list() == null) {
      return ref;
    }
    ListAtom list = ref.inlined().list();
    String where = owner.getName() + "." + property.name();
    ListType listType = property.annotation(ListType.class);
    ListMapKeys mapKeys = property.annotation(ListMapKeys.class);
    PatchMergeKey mergeKey = property.annotation(PatchMergeKey.class);
    List<String> keys =
        mapKeys != null
            ? List.of(mapKeys.value())
            : mergeKey != null ? List.of(mergeKey.value()) : List.of();
    if (listType != null) {
      switch (listType.value()) {
        case "atomic":
          return ref;
        case "set":
          return TypeRef.inline(Atom.list(ListAtom.set(list.elementType())));
        case "map":
          if (keys.isEmpty()) {
            throw new IllegalArgumentException(
                where + ": list type map needs @ListMapKeys or @PatchMergeKey");
          }
          return TypeRef.inline(
              Atom.list(new ListAtom(list.elementType(), ElementRelationship.ASSOCIATIVE, keys)));
        default:
          throw new IllegalArgumentException(where + ": unknown list type " + listType.value());
      }
    }
    PatchStrategy strategy = property.annotation(PatchStrategy.class);
    if (strategy != null && Arrays.asList(strategy.value()).contains("merge")) {
      return TypeRef.inline(
          Atom.list(new ListAtom(list.elementType(), ElementRelationship.ASSOCIATIVE, keys)));
    }
    return ref;
  }

  private static ElementRelationship mapRelationship(Class<?> where, MapType mapType) {
    return switch (mapType.value()) {
      case "atomic" -> ElementRelationship.ATOMIC;
      case "granular" -> ElementRelationship.SEPARABLE;
      default ->
          throw new IllegalArgumentException(
              where.getName() + ": unknown map type " + mapType.value());
    };
  }

  private static ScalarType scalar(Class<?> raw) {
    if (raw == String.class
        || CharSequence.class.isAssignableFrom(raw)
        || raw == char.class
        || raw == Character.class
        || raw.isEnum()
        || raw == byte[].class) {
      return ScalarType.STRING;
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return ScalarType.BOOLEAN;
    }
    if (raw.isPrimitive() || Number.class.isAssignableFrom(raw)) {
      return ScalarType.NUMERIC;
    }
    return null;
  }

  /**
   * A class written by its own serializer or as one of its values (the class or a superclass says
   * so, as Jackson reads class annotations): its shape is unknown.
   */
  private static boolean selfSerialized(Class<?> raw) {
    if (raw.isAnnotationPresent(SerializedAsDeclared.class)) {
      return false;
    }
    for (Class<?> c = raw; c != null && c != Object.class; c = c.getSuperclass()) {
      JsonSerialize serialize = c.getAnnotation(JsonSerialize.class);
      if (serialize != null
          && serialize.using() != com.fasterxml.jackson.databind.JsonSerializer.None.class) {
        return true;
      }
    }
    for (Method method : raw.getMethods()) {
      JsonValue value = method.getAnnotation(JsonValue.class);
      if (value != null && value.value()) {
        return true;
      }
    }
    return false;
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    if (type instanceof GenericArrayType) {
      return Object[].class;
    }
    return null;
  }

  private static Type argument(Type type, int index) {
    return type instanceof ParameterizedType p && p.getActualTypeArguments().length > index
        ? p.getActualTypeArguments()[index]
        : Object.class;
  }
}
