package dev.machinery.unversioned.meta.v1;

import dev.machinery.conversion.Property;
import dev.machinery.core.runtime.WireProperties;
import java.lang.reflect.InvocationTargetException;

/**
 * Reaches the metadata of any object ({@code meta.Accessor}): an object that is a {@link
 * MetaObject} itself (an {@code Unstructured}, an {@link ObjectMeta}), or one with a {@code
 * metadata} property of type {@link ObjectMeta} as the codecs see it (every typed kind, {@link
 * PartialObjectMetadata}); a typed object without metadata yet gets an empty one, so that setters
 * work.
 *
 * <p>Stateless and safe to use from any thread; the objects are as thread-safe as they are.
 */
public final class Accessor {
  private Accessor() {}

  /**
   * Returns the metadata of an object.
   *
   * @param object the object
   * @return its metadata, live: changes through it change the object
   * @throws MetadataAccessException when the object has no metadata
   */
  public static MetaObject of(Object object) {
    if (object instanceof MetaObject meta) {
      return meta;
    }
    Property property = WireProperties.standard().property(object.getClass(), "metadata");
    if (property == null || !property.rawType().isAssignableFrom(ObjectMeta.class)) {
      throw new MetadataAccessException(object.getClass());
    }
    try {
      Object meta = property.get(object);
      if (meta == null) {
        if (property.index() >= 0) {
          throw new MetadataAccessException(object.getClass());
        }
        meta = new ObjectMeta();
        property.set(object, meta);
      }
      return (ObjectMeta) meta;
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          "reading the metadata of " + object.getClass().getName() + " failed", e.getCause());
    }
  }
}
