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
 * Patch schemas read from Java types: an object's properties (the codecs' view of the class) with
 * their {@link PatchStrategy} and {@link PatchMergeKey}, a {@code Map}'s value type, a {@code
 * List}'s or {@code Set}'s element type; anything else (an {@code Object}, a JDK value, an enum) is
 * {@link PatchSchema#NONE}. Built once per type and cached. Thread-safe.
 */
final class JavaPatchSchemas {
  private static final Map<Type, PatchSchema> CACHE = new ConcurrentHashMap<>();

  private JavaPatchSchemas() {}

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
      return PatchSchema.NONE;
    }
    if (List.class.isAssignableFrom(raw) || Set.class.isAssignableFrom(raw)) {
      Type element = argument(type, 0);
      return PatchSchema.list(type.getTypeName(), () -> of(element));
    }
    if (Map.class.isAssignableFrom(raw)) {
      Type values = argument(type, 1);
      return PatchSchema.map(type.getTypeName(), () -> of(values));
    }
    if (raw.getName().startsWith("java.") || raw.isEnum() || raw.isArray()) {
      return PatchSchema.NONE;
    }
    Map<String, PatchSchema.Field> fields = new HashMap<>();
    boolean open = false;
    for (Property property : WireProperties.standard().properties(raw)) {
      if (property.isCatchAll()) {
        open = true;
        continue;
      }
      PatchStrategy strategy = property.annotation(PatchStrategy.class);
      PatchMergeKey key = property.annotation(PatchMergeKey.class);
      Type propertyType = property.type();
      fields.put(
          property.name(),
          new PatchSchema.Field(
              () -> of(propertyType),
              strategy == null ? Set.of() : Set.copyOf(Arrays.asList(strategy.value())),
              key == null ? null : key.value()));
    }
    return fields.isEmpty()
        ? PatchSchema.NONE
        : PatchSchema.object(raw.getSimpleName(), fields, open);
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
