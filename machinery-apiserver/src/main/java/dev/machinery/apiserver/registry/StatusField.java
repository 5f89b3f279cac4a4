package dev.machinery.apiserver.registry;

import dev.machinery.conversion.Property;
import dev.machinery.core.runtime.WireProperties;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;

/**
 * A resource's {@code status}, read and written through the one property model the codecs use
 * ({@link WireProperties}), as the {@code scale} subresource is through its accessor: the main
 * resource keeps the stored status, the {@code status} subresource changes only it, and a created
 * object starts with the status a new instance of its class has (an {@code Unstructured} custom
 * resource: none, its {@code status} entry being the field). No JSON round trip. Immutable;
 * thread-safe.
 */
final class StatusField {
  private final Class<?> type;
  private final Property property;
  private final Constructor<?> constructor;

  private StatusField(Class<?> type, Property property, Constructor<?> constructor) {
    this.type = type;
    this.property = property;
    this.constructor = constructor;
  }

  /**
   * The status of a storage class.
   *
   * @throws IllegalArgumentException when the class has no {@code status} property that its codecs
   *     read and that a setter writes, or no public no-argument constructor
   */
  static StatusField of(Class<?> type) {
    if (type == Unstructured.class) {
      return new StatusField(type, null, null);
    }
    Property property = WireProperties.standard().property(type, "status");
    if (property == null || property.index() >= 0) {
      throw new IllegalArgumentException(
          "a status subresource needs a status property with a getter and a setter; "
              + type.getName()
              + " has none");
    }
    try {
      return new StatusField(type, property, type.getConstructor());
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(
          type.getName() + " has no public no-argument constructor", e);
    }
  }

  /** The object's status. */
  Object get(Object object) {
    if (property == null) {
      return ((Unstructured) object).content().get("status");
    }
    try {
      return property.get(object);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("the status getter of " + type.getName() + " failed", e);
    }
  }

  /** Sets the object's status. */
  void set(Object object, Object status) {
    if (property == null) {
      if (status == null) {
        ((Unstructured) object).content().remove("status");
      } else {
        ((Unstructured) object).content().put("status", status);
      }
      return;
    }
    try {
      property.set(object, status);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("the status setter of " + type.getName() + " failed", e);
    }
  }

  /**
   * Gives the object the status of a new instance of its class, or an empty status when that is
   * null (what a create starts with).
   */
  void reset(Object object) {
    if (property == null) {
      set(object, null);
      return;
    }
    Object initial;
    try {
      initial = get(constructor.newInstance());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a new " + type.getName(), e);
    }
    set(object, initial != null ? initial : empty());
  }

  /**
   * An empty status of the property's type: an empty map for a map, a new instance of a class of
   * the model with a public no-argument constructor, or null for any other type (which has no empty
   * value).
   */
  private Object empty() {
    Class<?> raw = property.rawType();
    if (raw.isAssignableFrom(LinkedHashMap.class)) {
      return new LinkedHashMap<>();
    }
    if (raw.isInterface()
        || Modifier.isAbstract(raw.getModifiers())
        || raw.isPrimitive()
        || raw.getName().startsWith("java.")) {
      return null;
    }
    try {
      return raw.getConstructor().newInstance();
    } catch (NoSuchMethodException e) {
      return null;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a new " + raw.getName(), e);
    }
  }
}
