package dev.machinery.testing;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.machinery.conversion.NotConverted;
import dev.machinery.core.codec.PreserveUnknownFields;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The properties of records (components) and beans (public getter/setter pairs), read once per
 * class by reflection and cached. Thread-safe.
 */
final class Beans {
  private static final Map<Class<?>, Shape> SHAPES = new ConcurrentHashMap<>();

  private Beans() {}

  /**
   * A property: name, generic type, how to read it, how to write it (bean) or its index, and
   * whether it is marked {@code @NotConverted} (found once, when the shape is built).
   */
  record Property(
      String name, Type type, Method getter, Method setter, int index, boolean notConverted) {
    Property(String name, Type type, Method getter, Method setter, int index) {
      this(name, type, getter, setter, index, markedNotConverted(name, getter));
    }

    Object read(Object bean) {
      try {
        return getter.invoke(bean);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + name + " of " + bean.getClass(), e);
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

    /** Builds an instance from property values (by name; absent ones default). */
    Object build(Map<String, Object> values) {
      try {
        if (record) {
          Object[] args = new Object[properties.size()];
          for (Property property : properties) {
            Object value = values.get(property.name());
            args[property.index()] =
                value == null
                    ? defaultValue(constructor.getParameterTypes()[property.index()])
                    : value;
          }
          return constructor.newInstance(args);
        }
        Object bean = constructor.newInstance();
        for (Property property : properties) {
          if (values.containsKey(property.name())) {
            Object value = values.get(property.name());
            if (value == null && property.setter().getParameterTypes()[0].isPrimitive()) {
              continue;
            }
            try {
              property.setter().invoke(bean, value);
            } catch (InvocationTargetException e) {
              throw new RejectedValueException(type, property.name(), value, e.getCause());
            }
          }
        }
        return bean;
      } catch (InvocationTargetException e) {
        throw new RejectedValueException(type, null, values, e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot build " + type.getName(), e);
      }
    }

    Map<String, Object> read(Object instance) {
      Map<String, Object> values = new LinkedHashMap<>();
      for (Property property : properties) {
        values.put(property.name(), property.read(instance));
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

  /** Whether the getter, or the field of the property's name, carries {@code @NotConverted}. */
  private static boolean markedNotConverted(String name, Method getter) {
    if (getter.isAnnotationPresent(NotConverted.class)) {
      return true;
    }
    try {
      return getter
          .getDeclaringClass()
          .getDeclaredField(name)
          .isAnnotationPresent(NotConverted.class);
    } catch (NoSuchFieldException e) {
      return false;
    }
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
        || type.getName().startsWith("java.time.");
  }

  /**
   * Whether a bean property is part of what the codecs read and write, as Jackson sees it: not
   * {@code @JsonIgnore}d, and not a catch-all of unknown fields ({@code @JsonAnyGetter}), which a
   * strict decode rejects unless the class is marked {@code @PreserveUnknownFields}.
   */
  private static boolean onTheWire(Class<?> type, Method getter) {
    JsonIgnore ignore = getter.getAnnotation(JsonIgnore.class);
    if (ignore != null && ignore.value()) {
      return false;
    }
    JsonAnyGetter any = getter.getAnnotation(JsonAnyGetter.class);
    return any == null || !any.enabled() || type.isAnnotationPresent(PreserveUnknownFields.class);
  }

  /** The shape of a record or bean class, or null when it is neither. */
  static Shape shape(Class<?> type) {
    Shape cached = SHAPES.get(type);
    if (cached != null) {
      return cached;
    }
    Shape shape = computeShape(type);
    if (shape != null) {
      SHAPES.putIfAbsent(type, shape);
    }
    return shape;
  }

  private static Shape computeShape(Class<?> type) {
    if (isValue(type)
        || type.isInterface()
        || type.isArray()
        || Modifier.isAbstract(type.getModifiers())) {
      return null;
    }
    try {
      if (type.isRecord()) {
        RecordComponent[] components = type.getRecordComponents();
        List<Property> properties = new ArrayList<>();
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
          RecordComponent component = components[i];
          Method accessor = component.getAccessor();
          accessor.setAccessible(true);
          properties.add(
              new Property(component.getName(), component.getGenericType(), accessor, null, i));
          types[i] = component.getType();
        }
        Constructor<?> constructor = type.getDeclaredConstructor(types);
        constructor.setAccessible(true);
        return new Shape(type, Collections.unmodifiableList(properties), true, constructor);
      }
      Constructor<?> constructor = type.getConstructor();
      trySetAccessible(constructor);
      List<Property> properties = new ArrayList<>();
      for (Method getter : type.getMethods()) {
        String name = propertyName(getter);
        if (name == null || !onTheWire(type, getter)) {
          continue;
        }
        try {
          Method setter =
              type.getMethod(
                  "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1),
                  getter.getReturnType());
          if (!Modifier.isStatic(setter.getModifiers())) {
            trySetAccessible(getter);
            trySetAccessible(setter);
            properties.add(
                new Property(name, setter.getGenericParameterTypes()[0], getter, setter, -1));
          }
        } catch (NoSuchMethodException derived) {
          // a getter without a setter is derived, not state
        }
      }
      properties.sort((a, b) -> a.name().compareTo(b.name()));
      // A bean may have no property on the wire at all (fabric8's FieldsV1 holds only unknown
      // fields): it is still built and compared, as an empty object.
      return new Shape(type, Collections.unmodifiableList(properties), false, constructor);
    } catch (NoSuchMethodException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Skips the access check of every later call (public members of public classes pass it, but
   * slowly); where a module does not open the package, calls stay checked and still work.
   */
  private static void trySetAccessible(java.lang.reflect.AccessibleObject member) {
    member.trySetAccessible();
  }

  private static String propertyName(Method method) {
    if (Modifier.isStatic(method.getModifiers())
        || method.getParameterCount() != 0
        || method.getDeclaringClass() == Object.class) {
      return null;
    }
    String name = method.getName();
    String bare;
    if (name.startsWith("get") && name.length() > 3 && method.getReturnType() != void.class) {
      bare = name.substring(3);
    } else if (name.startsWith("is")
        && name.length() > 2
        && method.getReturnType() == boolean.class) {
      bare = name.substring(2);
    } else {
      return null;
    }
    return Character.toLowerCase(bare.charAt(0)) + bare.substring(1);
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
