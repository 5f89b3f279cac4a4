package dev.machinery.controller.cache;

import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;

/**
 * The keys caches file objects under: {@code namespace/name}, or {@code name} for cluster-scoped
 * objects ({@code cache.MetaNamespaceKeyFunc}).
 *
 * <p>Stateless and thread-safe; this class has no instances.
 */
public final class Keys {
  private Keys() {}

  /**
   * Returns an object's key.
   *
   * @param object the object
   * @return the key
   * @throws IllegalArgumentException when the object has no name
   */
  public static String metaNamespaceKey(Object object) {
    MetaObject meta = Accessor.of(object);
    String name = meta.getName();
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(
          "object of " + object.getClass().getName() + " has no metadata.name to key it by");
    }
    String namespace = meta.getNamespace();
    return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /**
   * Returns the key of a namespace and name.
   *
   * @param namespace the namespace, or null or empty for cluster-scoped objects
   * @param name the name
   * @return the key
   */
  public static String key(String namespace, String name) {
    return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /**
   * Splits a key into namespace and name ({@code cache.SplitMetaNamespaceKey}).
   *
   * @param key the key
   * @return the namespace (empty for cluster-scoped) and the name
   * @throws IllegalArgumentException when the key has more than one slash
   */
  public static String[] split(String key) {
    String[] parts = key.split("/", -1);
    return switch (parts.length) {
      case 1 -> new String[] {"", parts[0]};
      case 2 -> parts;
      default -> throw new IllegalArgumentException("unexpected key format: \"" + key + "\"");
    };
  }
}
