package dev.machinery.controller;

import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.util.Objects;

/**
 * What a reconciler is asked to reconcile: an object's namespace and name ({@code
 * reconcile.Request}). Requests are queue items: equal requests are processed once.
 *
 * <p>Immutable; thread-safe.
 *
 * @param namespace the namespace, empty for cluster-scoped objects
 * @param name the name
 */
public record Request(String namespace, String name) {
  /**
   * Checks the parts.
   *
   * @param namespace the namespace
   * @param name the name
   * @throws IllegalArgumentException when the name is empty
   */
  public Request {
    namespace = namespace == null ? "" : namespace;
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a request needs a name");
    }
  }

  /**
   * Returns the request for an object.
   *
   * @param object the object
   * @return its namespace and name
   */
  public static Request of(Object object) {
    MetaObject meta = Accessor.of(object);
    return new Request(meta.getNamespace(), meta.getName());
  }

  /**
   * Returns {@code namespace/name}, or {@code name} for cluster-scoped objects.
   *
   * @return the key
   */
  @Override
  public String toString() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
