package dev.machinery.core.patch;

import dev.machinery.conversion.Property;
import dev.machinery.core.runtime.WireProperties;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a strategic merge patch knows about a JSON value from the Java type that holds it: an
 * object's properties with their strategies and merge keys, a map's value type, a list's element
 * type, or nothing (a value of unknown type merges as a JSON merge patch does). Built once per type
 * from the codecs' view of the class and cached. Thread-safe.
 */
final class PatchSchema {
  /** A value the patch knows nothing about. */
  static final PatchSchema NONE = new PatchSchema(Shape.NONE, null, null, Map.of(), true);

  private static final Map<Type, PatchSchema> CACHE = new ConcurrentHashMap<>();

  enum Shape {
    OBJECT,
    MAP,
    LIST,
    NONE
  }

  /** A property of an object: its schema, strategies and merge key. */
  record Field(Type type, Set<String> strategies, String mergeKey) {
    static final Field UNKNOWN = new Field(Object.class, Set.of(), null);

    PatchSchema schema() {
      return of(type);
    }

    boolean merges() {
      return strategies.contains("merge");
    }

    boolean replaces() {
      return strategies.contains("replace");
    }

    boolean retainsKeys() {
      return strategies.contains("retainKeys");
    }
  }

  final Shape shape;
  private final Type element;
  private final Type owner;
  private final Map<String, Field> fields;
  private final boolean open;

  private PatchSchema(
      Shape shape, Type element, Type owner, Map<String, Field> fields, boolean open) {
    this.shape = shape;
    this.element = element;
    this.owner = owner;
    this.fields = fields;
    this.open = open;
  }

  static PatchSchema of(Type type) {
    PatchSchema cached = CACHE.get(type);
    if (cached == null) {
      cached = build(type);
      CACHE.putIfAbsent(type, cached);
    }
    return cached;
  }

  private static PatchSchema build(Type type) {
    Class<?> raw = raw(type);
    if (raw == null
        || raw == Object.class
        || raw.isPrimitive()
        || raw.getName().startsWith("java.lang.")) {
      return NONE;
    }
    if (List.class.isAssignableFrom(raw) || Set.class.isAssignableFrom(raw)) {
      return new PatchSchema(Shape.LIST, argument(type, 0), type, Map.of(), true);
    }
    if (Map.class.isAssignableFrom(raw)) {
      return new PatchSchema(Shape.MAP, argument(type, 1), type, Map.of(), true);
    }
    if (raw.getName().startsWith("java.") || raw.isEnum() || raw.isArray()) {
      return NONE;
    }
    Map<String, Field> fields = new HashMap<>();
    boolean open = false;
    for (Property property : WireProperties.standard().properties(raw)) {
      if (property.isCatchAll()) {
        open = true;
        continue;
      }
      PatchStrategy strategy = property.annotation(PatchStrategy.class);
      PatchMergeKey key = property.annotation(PatchMergeKey.class);
      fields.put(
          property.name(),
          new Field(
              property.type(),
              strategy == null ? Set.of() : Set.copyOf(Arrays.asList(strategy.value())),
              key == null ? null : key.value()));
    }
    return fields.isEmpty()
        ? NONE
        : new PatchSchema(Shape.OBJECT, null, type, Map.copyOf(fields), open);
  }

  /**
   * The field of an object where its strategy is needed (its values differ, and are both objects or
   * both lists): as {@link #field}, but a field an object type does not declare (and does not keep
   * as unknown fields) is an error, as in Kubernetes.
   *
   * @param path where the field is, for the message
   */
  Field fieldWithStrategy(String name, String path) {
    if (shape == Shape.OBJECT && !open && !fields.containsKey(name)) {
      throw new PatchException(
          PatchException.Kind.MALFORMED,
          path
              + ": unable to find api field in struct "
              + raw(owner).getSimpleName()
              + " for the json field \""
              + name
              + "\"");
    }
    return field(name);
  }

  /** The field of an object, or of a map's values; UNKNOWN when the schema does not know it. */
  Field field(String name) {
    if (shape == Shape.OBJECT) {
      return fields.getOrDefault(name, Field.UNKNOWN);
    }
    if (shape == Shape.MAP) {
      return new Field(element, Set.of(), null);
    }
    return Field.UNKNOWN;
  }

  /**
   * The schema of a list's elements; for an object schema, the object itself (a list found where
   * the type declares one object holds objects of that type, as Kubernetes reads it).
   */
  PatchSchema element() {
    if (shape == Shape.OBJECT) {
      return this;
    }
    return shape == Shape.LIST ? of(element) : NONE;
  }

  @Override
  public String toString() {
    return shape + (owner == null ? "" : " " + owner.getTypeName());
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
    return null;
  }

  private static Type argument(Type type, int index) {
    if (type instanceof ParameterizedType parameterized
        && parameterized.getActualTypeArguments().length > index) {
      return parameterized.getActualTypeArguments()[index];
    }
    return Object.class;
  }
}
