package dev.machinery.conversion;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The runtime converter behind {@link Converter.Builder#addGenericConversion}: a plan of property
 * steps built once by reflection, with the generator's matching rules, and walked for each object.
 */
final class GenericConversion implements ConversionFunction<Object, Object> {
  private final Class<?> source;
  private final Class<?> target;
  private final PropertyModel model;
  private Step[] steps;
  private Constructor<?> constructor;
  private Object[] recordDefaults;

  GenericConversion(Class<?> source, Class<?> target, PropertyModel model) {
    this.source = source;
    this.target = target;
    this.model = model;
  }

  /** Converts one property value. */
  @FunctionalInterface
  private interface Value {
    Object apply(Object value, ConversionScope scope);
  }

  private record Step(Property from, Property to, Value value) {}

  void prepare(
      BiFunction<Class<?>, Class<?>, ConversionFunction<Object, Object>> hasConversion,
      Predicate<Class<?>> hasDeepCopy,
      List<String> found) {
    String pair = source.getName() + " to " + target.getName();
    Map<String, Property> from = properties(source, "generic conversion from " + pair, found);
    Map<String, Property> to = properties(target, "generic conversion from " + pair, found);
    if (from == null || to == null) {
      return;
    }
    List<Step> plan = new ArrayList<>();
    for (Property property : from.values()) {
      NotConverted omitted = property.annotation(NotConverted.class);
      if (omitted != null) {
        if (omitted.reason().isBlank()) {
          found.add(
              "@NotConverted on "
                  + source.getName()
                  + "."
                  + property.name()
                  + " must give a reason");
        }
        continue;
      }
      Property counterpart = to.get(property.name());
      if (counterpart == null) {
        found.add(
            "property "
                + property.name()
                + " of "
                + source.getName()
                + " has no counterpart in "
                + target.getName()
                + " and would be lost; mark it @NotConverted(reason = ...) or register a"
                + " conversion function for the pair");
        continue;
      }
      Value value =
          plan(
              property.type(),
              counterpart.type(),
              hasConversion,
              hasDeepCopy,
              found,
              source.getName() + "." + property.name());
      if (value != null) {
        plan.add(new Step(property, counterpart, value));
      }
    }
    this.steps = plan.toArray(new Step[0]);
    try {
      if (target.isRecord()) {
        RecordComponent[] components = target.getRecordComponents();
        Class<?>[] types =
            Arrays.stream(components).map(RecordComponent::getType).toArray(Class[]::new);
        constructor = target.getConstructor(types);
        recordDefaults = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
          recordDefaults[i] = defaultValue(components[i].getType());
        }
      } else {
        constructor = target.getConstructor();
      }
    } catch (NoSuchMethodException e) {
      found.add(target.getName() + " has no public canonical or no-argument constructor");
    }
  }

  @Override
  public Object convert(Object in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    Step current = null;
    try {
      if (recordDefaults != null) {
        Object[] args = recordDefaults.clone();
        for (Step step : steps) {
          current = step;
          args[step.to().index()] = step.value().apply(step.from().get(in), scope);
        }
        current = null;
        return constructor.newInstance(args);
      }
      Object out = constructor.newInstance();
      for (Step step : steps) {
        current = step;
        step.to().set(out, step.value().apply(step.from().get(in), scope));
      }
      return out;
    } catch (ConversionException e) {
      throw current == null ? e : e.within(current.from().name());
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new ConversionException(
          "converting " + source.getName() + " to " + target.getName() + " failed", e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new ConversionException(
          "converting " + source.getName() + " to " + target.getName() + " failed", e);
    }
  }

  /**
   * Whether the runtime converter can read and build a class by itself: a public, concrete record,
   * or bean with a public no-argument constructor, outside the JDK's own packages.
   */
  static boolean canDerive(Class<?> type) {
    if (!Modifier.isPublic(type.getModifiers())
        || type.isInterface()
        || Modifier.isAbstract(type.getModifiers())
        || type.isEnum()
        || type.isArray()
        || type.isPrimitive()
        || type.getName().startsWith("java.")
        || type.getName().startsWith("javax.")) {
      return false;
    }
    if (type.isRecord()) {
      return true;
    }
    try {
      return Modifier.isPublic(type.getConstructor().getModifiers());
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private Map<String, Property> properties(Class<?> type, String context, List<String> found) {
    if (!Modifier.isPublic(type.getModifiers())) {
      found.add(context + ": " + type.getName() + " is not public");
      return null;
    }
    Map<String, Property> properties = new LinkedHashMap<>();
    for (Property property : model.properties(type)) {
      properties.put(property.name(), property);
    }
    return properties;
  }

  private static Value plan(
      Type from,
      Type to,
      BiFunction<Class<?>, Class<?>, ConversionFunction<Object, Object>> hasConversion,
      Predicate<Class<?>> hasDeepCopy,
      List<String> found,
      String where) {
    Class<?> rawFrom = raw(from);
    Class<?> rawTo = raw(to);
    if (rawFrom == null || rawTo == null) {
      found.add(where + ": type " + from.getTypeName() + " is not supported");
      return null;
    }
    if (rawFrom == rawTo && isImmutable(rawFrom)) {
      return (value, scope) -> value;
    }
    if (rawFrom.isPrimitive() && box(rawFrom) == rawTo) {
      return (value, scope) -> value;
    }
    if (rawFrom == rawTo && rawFrom.isArray() && rawFrom.getComponentType().isPrimitive()) {
      return (value, scope) -> value == null ? null : copyArray(value);
    }
    if (rawFrom == rawTo && hasDeepCopy.test(rawFrom)) {
      return (value, scope) -> scope.deepCopy(value);
    }
    if (rawFrom == Object.class && rawTo == Object.class) {
      // Untyped JSON values (a third-party model's additionalProperties): copied as JSON.
      return (value, scope) -> {
        try {
          return JsonValues.deepCopy(value);
        } catch (IllegalArgumentException e) {
          throw new ConversionException(e.getMessage());
        }
      };
    }
    if (rawFrom.isEnum() && rawTo.isEnum()) {
      List<String> missing =
          Arrays.stream(rawFrom.getEnumConstants())
              .map(constant -> ((Enum<?>) constant).name())
              .filter(name -> !enumNames(rawTo).contains(name))
              .collect(Collectors.toList());
      if (!missing.isEmpty()) {
        found.add(where + ": constants " + missing + " have no counterpart in " + rawTo.getName());
        return null;
      }
      return (value, scope) -> value == null ? null : enumValue(rawTo, ((Enum<?>) value).name());
    }
    if (rawFrom.isEnum() && rawTo == String.class) {
      return (value, scope) -> value == null ? null : ((Enum<?>) value).name();
    }
    if (rawFrom == String.class && rawTo.isEnum()) {
      return (value, scope) -> value == null ? null : enumValue(rawTo, (String) value);
    }
    if ((List.class == rawFrom && List.class == rawTo)
        || (Set.class == rawFrom && Set.class == rawTo)) {
      Value element =
          plan(argument(from, 0), argument(to, 0), hasConversion, hasDeepCopy, found, where + "[]");
      if (element == null) {
        return null;
      }
      boolean list = rawFrom == List.class;
      return (value, scope) -> {
        if (value == null) {
          return null;
        }
        Collection<?> in = (Collection<?>) value;
        Collection<Object> out = list ? new ArrayList<>(in.size()) : new LinkedHashSet<>();
        int index = 0;
        for (Object item : in) {
          try {
            out.add(item == null ? null : element.apply(item, scope));
          } catch (ConversionException e) {
            throw e.withinIndex(index);
          }
          index++;
        }
        return out;
      };
    }
    if (Map.class == rawFrom && Map.class == rawTo) {
      Class<?> keyFrom = raw(argument(from, 0));
      if (keyFrom == null || keyFrom != raw(argument(to, 0)) || !isImmutable(keyFrom)) {
        found.add(where + ": map keys must be of one immutable type on both sides");
        return null;
      }
      Value entry =
          plan(argument(from, 1), argument(to, 1), hasConversion, hasDeepCopy, found, where + "[]");
      if (entry == null) {
        return null;
      }
      return (value, scope) -> {
        if (value == null) {
          return null;
        }
        Map<?, ?> in = (Map<?, ?>) value;
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> item : in.entrySet()) {
          try {
            out.put(
                item.getKey(),
                item.getValue() == null ? null : entry.apply(item.getValue(), scope));
          } catch (ConversionException e) {
            throw e.withinKey(item.getKey());
          }
        }
        return out;
      };
    }
    ConversionFunction<Object, Object> function = hasConversion.apply(rawFrom, rawTo);
    if (function != null) {
      return function::convert;
    }
    found.add(
        where
            + ": no conversion from "
            + from.getTypeName()
            + " to "
            + to.getTypeName()
            + " is registered");
    return null;
  }

  private static Object copyArray(Object array) {
    int length = java.lang.reflect.Array.getLength(array);
    Object copy = java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), length);
    System.arraycopy(array, 0, copy, 0, length);
    return copy;
  }

  private static Set<String> enumNames(Class<?> type) {
    return Arrays.stream(type.getEnumConstants())
        .map(constant -> ((Enum<?>) constant).name())
        .collect(Collectors.toSet());
  }

  private static Object enumValue(Class<?> type, String name) {
    for (Object constant : type.getEnumConstants()) {
      if (((Enum<?>) constant).name().equals(name)) {
        return constant;
      }
    }
    throw new ConversionException(
        "\""
            + name
            + "\" is not one of "
            + enumNames(type).stream().sorted().collect(Collectors.joining(", ")));
  }

  private static Type argument(Type type, int index) {
    return type instanceof ParameterizedType parameterized
        ? parameterized.getActualTypeArguments()[index]
        : Object.class;
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> plain) {
      return plain;
    }
    if (type instanceof ParameterizedType parameterized
        && parameterized.getRawType() instanceof Class<?> plain) {
      return plain;
    }
    return null;
  }

  static boolean isImmutable(Class<?> type) {
    return type.isPrimitive()
        || type.isEnum()
        || type == String.class
        || type == Boolean.class
        || type == Character.class
        || type == Byte.class
        || type == Short.class
        || type == Integer.class
        || type == Long.class
        || type == Float.class
        || type == Double.class
        || type == BigDecimal.class
        || type == BigInteger.class
        || type == UUID.class
        || (type.getPackageName().equals("java.time") && Modifier.isFinal(type.getModifiers()))
        || (Modifier.isFinal(type.getModifiers()) && type.isAnnotationPresent(Immutable.class));
  }

  private static Class<?> box(Class<?> primitive) {
    if (primitive == int.class) {
      return Integer.class;
    } else if (primitive == long.class) {
      return Long.class;
    } else if (primitive == boolean.class) {
      return Boolean.class;
    } else if (primitive == double.class) {
      return Double.class;
    } else if (primitive == float.class) {
      return Float.class;
    } else if (primitive == short.class) {
      return Short.class;
    } else if (primitive == byte.class) {
      return Byte.class;
    } else if (primitive == char.class) {
      return Character.class;
    }
    return primitive;
  }

  private static Object defaultValue(Class<?> type) {
    if (!type.isPrimitive()) {
      return null;
    } else if (type == boolean.class) {
      return false;
    } else if (type == char.class) {
      return '\0';
    } else if (type == long.class) {
      return 0L;
    } else if (type == double.class) {
      return 0.0;
    } else if (type == float.class) {
      return 0.0f;
    } else if (type == short.class) {
      return (short) 0;
    } else if (type == byte.class) {
      return (byte) 0;
    }
    return 0;
  }
}
