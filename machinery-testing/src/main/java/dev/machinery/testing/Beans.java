package dev.machinery.testing;

import dev.machinery.conversion.NotConverted;
import dev.machinery.core.codec.PreserveUnknownFields;
import dev.machinery.core.runtime.WireProperties;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The properties of records and beans as the codecs see them ({@link WireProperties}: names as on
 * the wire, ignored members left out), with how to build an instance, found once per class and
 * cached. Thread-safe.
 */
final class Beans {
  /** Each class's shape, or empty when it has none: found once per class, absence included. */
  private static final ClassValue<Optional<Shape>> SHAPES =
      new ClassValue<>() {
        @Override
        protected Optional<Shape> computeValue(Class<?> type) {
          return Optional.ofNullable(computeShape(type));
        }
      };

  private static final ClassValue<Boolean> VALUES =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          return computeIsValue(type);
        }
      };

  /** A property value that {@link Shape#build} leaves unset. */
  static final Object ABSENT = new Object();

  private Beans() {}

  /** A property on the wire, and whether it is marked {@code @NotConverted} (found once). */
  record Property(dev.machinery.conversion.Property wire, boolean notConverted) {
    Property(dev.machinery.conversion.Property wire) {
      this(wire, wire.annotation(NotConverted.class) != null);
    }

    String name() {
      return wire.name();
    }

    Type type() {
      return wire.type();
    }

    int index() {
      return wire.index();
    }

    Object read(Object bean) {
      try {
        return wire.get(bean);
      } catch (InvocationTargetException e) {
        throw rethrow(e);
      }
    }
  }

  /** A class's properties and how to build an instance. */
  static final class Shape {
    final Class<?> type;
    final List<Property> properties;
    final boolean record;
    final Constructor<?> constructor;

    Shape(Class<?> type, List<Property> properties, boolean record, Constructor<?> constructor) {
      this.type = type;
      this.properties = properties;
      this.record = record;
      this.constructor = constructor;
    }

    /**
     * Builds an instance from property values, {@code values[i]} for {@code properties.get(i)};
     * {@link #ABSENT} ones are left to the class (a bean's own default, a record's zero value).
     */
    Object build(Object[] values) {
      try {
        if (record) {
          Class<?>[] types = constructor.getParameterTypes();
          Object[] args = new Object[types.length];
          for (int i = 0; i < types.length; i++) {
            args[i] = defaultValue(types[i]);
          }
          for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value != null && value != ABSENT) {
              args[properties.get(i).index()] = value;
            }
          }
          return constructor.newInstance(args);
        }
        Object bean = constructor.newInstance();
        for (int i = 0; i < values.length; i++) {
          Object value = values[i];
          Property property = properties.get(i);
          if (value == ABSENT || value == null && property.wire().rawType().isPrimitive()) {
            continue;
          }
          try {
            property.wire().set(bean, value);
          } catch (InvocationTargetException e) {
            throw new RejectedValueException(type, property.name(), value, e.getCause());
          }
        }
        return bean;
      } catch (InvocationTargetException e) {
        Map<String, Object> named = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
          if (values[i] != ABSENT) {
            named.put(properties.get(i).name(), values[i]);
          }
        }
        throw new RejectedValueException(type, null, named, e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot build " + type.getName(), e);
      }
    }

    /** The instance's property values, {@code values[i]} for {@code properties.get(i)}. */
    Object[] values(Object instance) {
      Object[] values = new Object[properties.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = properties.get(i).read(instance);
      }
      return values;
    }
  }

  /** A setter or constructor refused a value: names the class, the property and the value. */
  static final class RejectedValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    RejectedValueException(Class<?> type, String property, Object value, Throwable cause) {
      super(
          (property == null
                  ? "the constructor of " + type.getName() + " rejected the values "
                  : "property \"" + property + "\" of " + type.getName() + " rejected the value ")
              + Difference.show(value)
              + ": "
              + cause,
          cause);
    }
  }

  /** Whether a property is marked {@code @NotConverted}: lost in conversion by design. */
  static boolean isNotConverted(Property property) {
    return property.notConverted();
  }

  static RuntimeException rethrow(InvocationTargetException e) {
    Throwable cause = e.getCause();
    if (cause instanceof RuntimeException) {
      return (RuntimeException) cause;
    }
    if (cause instanceof Error) {
      throw (Error) cause;
    }
    return new IllegalStateException(cause);
  }

  /** Whether values of a class are leaves: compared and copied as they are. */
  static boolean isValue(Class<?> type) {
    return VALUES.get(type);
  }

  private static boolean computeIsValue(Class<?> type) {
    return type.isPrimitive()
        || type.isEnum()
        || type == String.class
        || Number.class.isAssignableFrom(type) && type.getName().startsWith("java.")
        || type == Boolean.class
        || type == Character.class
        || type == BigDecimal.class
        || type == BigInteger.class
        || type == UUID.class
        || type == Object.class
        || type.getName().startsWith("java.time.")
        || type.isAnnotationPresent(dev.machinery.conversion.Immutable.class);
  }

  /** The shape of a record or bean class, or null when it is neither. */
  static Shape shape(Class<?> type) {
    return SHAPES.get(type).orElse(null);
  }

  private static Shape computeShape(Class<?> type) {
    if (isValue(type)
        || type.isInterface()
        || type.isArray()
        || Modifier.isAbstract(type.getModifiers())) {
      return null;
    }
    try {
      boolean keepUnknown = type.isAnnotationPresent(PreserveUnknownFields.class);
      List<Property> properties = new ArrayList<>();
      for (dev.machinery.conversion.Property wire : WireProperties.standard().properties(type)) {
        // A catch-all of unknown fields is on the wire only where the class preserves them: a
        // strict decode rejects what would land in it.
        if (!wire.isCatchAll() || keepUnknown) {
          properties.add(new Property(wire));
        }
      }
      if (type.isRecord()) {
        Class<?>[] types =
            Arrays.stream(type.getRecordComponents())
                .map(RecordComponent::getType)
                .toArray(Class<?>[]::new);
        Constructor<?> constructor = type.getDeclaredConstructor(types);
        constructor.trySetAccessible();
        return new Shape(type, List.copyOf(properties), true, constructor);
      }
      Constructor<?> constructor = type.getConstructor();
      constructor.trySetAccessible();
      // A bean may have no property on the wire at all (fabric8's FieldsV1 holds only unknown
      // fields): it is still built and compared, as an empty object.
      return new Shape(type, List.copyOf(properties), false, constructor);
    } catch (NoSuchMethodException | RuntimeException e) {
      return null;
    }
  }

  static Object defaultValue(Class<?> type) {
    if (!type.isPrimitive()) {
      return null;
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == char.class) {
      return '\0';
    }
    if (type == long.class) {
      return 0L;
    }
    if (type == double.class) {
      return 0.0;
    }
    if (type == float.class) {
      return 0.0f;
    }
    if (type == short.class) {
      return (short) 0;
    }
    if (type == byte.class) {
      return (byte) 0;
    }
    return 0;
  }
}
