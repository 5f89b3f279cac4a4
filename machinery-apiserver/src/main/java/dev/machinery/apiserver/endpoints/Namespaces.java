package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * Namespace lifecycle on the request path: an object is created only in a namespace that exists,
 * and deleting a namespace deletes what is in it. A server that serves no Namespaces skips both.
 * Immutable; thread-safe.
 */
final class Namespaces {
  private final ResourceStore namespaces;
  private final Supplier<Collection<ResourceStore>> namespaced;

  /**
   * @param namespaces the store of namespaces, or {@code null} when the server serves none
   * @param namespaced the stores of the namespaced resources served at the moment it is called
   *     (custom resources come and go)
   */
  Namespaces(ResourceStore namespaces, Supplier<Collection<ResourceStore>> namespaced) {
    this.namespaces = namespaces;
    this.namespaced = namespaced;
  }

  /** Fails with a 404 naming the namespace when it does not exist. */
  void require(String namespace) {
    if (namespaces == null) {
      return;
    }
    try {
      namespaces.get(null, namespace);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        throw ApiErrors.newNotFound(GroupResource.of("", "namespaces"), namespace);
      }
      throw e;
    }
  }

  /** After a delete from {@code store}: when it deleted a namespace, deletes what was in it. */
  void deleted(ResourceStore store, String name) {
    if (store != namespaces) {
      return;
    }
    for (ResourceStore inner : namespaced.get()) {
      for (Object object : inner.list(name, o -> true, 0, null, null).items()) {
        MetaObject meta = Accessor.of(object);
        try {
          inner.delete(ResourceStore.LOOPBACK, meta.getNamespace(), meta.getName(), null, false);
        } catch (RuntimeException e) {
          if (!ApiErrors.isNotFound(e)) {
            throw e;
          }
        }
      }
    }
  }
}
