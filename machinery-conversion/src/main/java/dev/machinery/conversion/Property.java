package dev.machinery.conversion;

import java.lang.annotation.Annotation;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Objects;

/**
 * One property of an API class as a {@link PropertyModel} sees it: its name, its generic type, how
 * to read it and how to write it. A record component is read through its accessor and written
 * through the canonical constructor ({@link #index()} is its position); a bean property is read
 * through a getter or field and written through a setter or field.
 *
 * <p>Immutable and safe for concurrent use; reading and writing are as thread-safe as the object's
 * own accessors.
 */
public final class Property {
  /** One empty argument array for every getter call, rather than a new one each time. */
  private static final Object[] NO_ARGUMENTS = {};

  private final String name;
  private final Type type;
  private final int index;
  private final AccessibleObject reader;
  private final AccessibleObject writer;
  private final boolean catchAll;

  private Property(
      String name,
      Type type,
      int index,
      AccessibleObject reader,
      AccessibleObject writer,
      boolean catchAll) {
    this.name = Objects.requireNonNull(name, "name");
    this.type = Objects.requireNonNull(type, "type");
    this.index = index;
    this.reader = Objects.requireNonNull(reader, "reader");
    this.writer = writer;
    this.catchAll = catchAll;
    reader.trySetAccessible();
    if (writer != null) {
      writer.trySetAccessible();
    }
  }

  /**
   * A record component, read through its accessor and written through the canonical constructor.
   *
   * @param name the property's name
   * @param type the component's generic type
   * @param index the component's position in the canonical constructor
   * @param accessor the component's accessor
   * @return the property
   */
  public static Property component(String name, Type type, int index, Method accessor) {
    if (index < 0) {
      throw new IllegalArgumentException("a record component's index must not be negative");
    }
    return new Property(name, type, index, accessor, null, false);
  }

  /**
   * A bean property, read and written through methods or fields.
   *
   * @param name the property's name
   * @param type the generic type of the value written
   * @param reader a no-argument getter or a field
   * @param writer a one-argument setter or a field
   * @return the property
   */
  public static Property bean(
      String name, Type type, AccessibleObject reader, AccessibleObject writer) {
    return new Property(name, type, -1, reader, Objects.requireNonNull(writer, "writer"), false);
  }

  /**
   * A bean's catch-all of fields it does not declare (Jackson's any-getter and any-setter, as in
   * fabric8's {@code additionalProperties}): a {@code Map} read through the getter and written
   * through a setter of the whole map.
   *
   * @param name the property's name (the getter's bean name)
   * @param type the map's generic type
   * @param reader the getter of the map
   * @param writer the setter of the whole map
   * @return the property
   */
  public static Property catchAll(String name, Type type, Method reader, Method writer) {
    return new Property(name, type, -1, reader, Objects.requireNonNull(writer, "writer"), true);
  }

  /**
   * Returns the property's name.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * Returns the generic type of the property's value.
   *
   * @return the type
   */
  public Type type() {
    return type;
  }

  /**
   * Returns the raw type of the value the writer takes (a primitive type stays primitive).
   *
   * @return the raw type
   */
  public Class<?> rawType() {
    if (writer instanceof Method setter) {
      return setter.getParameterTypes()[0];
    }
    if (writer instanceof Field field) {
      return field.getType();
    }
    return ((Method) reader).getReturnType();
  }

  /**
   * Returns the position of a record component in the canonical constructor, or -1 for a bean
   * property.
   *
   * @return the index, or -1
   */
  public int index() {
    return index;
  }

  /**
   * Whether this is a bean's catch-all of undeclared fields rather than a declared field.
   *
   * @return true for a catch-all
   */
  public boolean isCatchAll() {
    return catchAll;
  }

  /**
   * Reads the property of an object.
   *
   * @param object the object
   * @return the value
   * @throws InvocationTargetException when the getter throws
   */
  public Object get(Object object) throws InvocationTargetException {
    try {
      return reader instanceof Field field
          ? field.get(object)
          : ((Method) reader).invoke(object, NO_ARGUMENTS);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read " + name + " of " + object.getClass(), e);
    }
  }

  /**
   * Writes the property of a bean.
   *
   * @param object the bean
   * @param value the value
   * @throws InvocationTargetException when the setter throws
   * @throws IllegalStateException for a record component, which only the constructor writes
   */
  public void set(Object object, Object value) throws InvocationTargetException {
    if (writer == null) {
      throw new IllegalStateException(
          name + " is a record component: it is written through the canonical constructor");
    }
    try {
      if (writer instanceof Field field) {
        field.set(object, value);
      } else {
        ((Method) writer).invoke(object, value);
      }
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot write " + name + " of " + object.getClass(), e);
    }
  }

  /**
   * Finds an annotation on the property: on its reader, its writer, or the field of its name
   * declared by the reader's class.
   *
   * @param <A> the annotation's type
   * @param annotation the annotation's class
   * @return the annotation, or null
   */
  public <A extends Annotation> A annotation(Class<A> annotation) {
    A found = reader.getAnnotation(annotation);
    if (found == null && writer != null) {
      found = writer.getAnnotation(annotation);
    }
    if (found == null && reader instanceof Method method) {
      found = field(method.getDeclaringClass(), annotation);
    }
    return found;
  }

  private <A extends Annotation> A field(Class<?> owner, Class<A> annotation) {
    for (Class<?> type = owner; type != null && type != Object.class; type = type.getSuperclass()) {
      try {
        return type.getDeclaredField(name).getAnnotation(annotation);
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return name + ": " + type.getTypeName();
  }
}
