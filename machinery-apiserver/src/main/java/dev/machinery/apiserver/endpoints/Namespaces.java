package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.admission.NamespaceLifecycle;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.util.Collection;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Namespace lifecycle on the request path: an object is created only in a namespace that exists;
 * and, when the server cleans up namespaces itself (no namespace controller runs), deleting a
 * namespace deletes what is in it and then finalizes it, as kube's namespace controller would. A
 * server that serves no Namespaces skips both. Immutable; thread-safe.
 */
final class Namespaces {
  /** The finalizer kube's namespace controller removes when the content is gone. */
  static final String KUBERNETES_FINALIZER = "kubernetes";

  private final ResourceStore namespaces;
  private final Function<String, NamespaceLifecycle.State> state;
  private final Supplier<Collection<ResourceStore>> namespaced;
  private final boolean cleanup;

  /**
   * @param namespaces the store of namespaces, or {@code null} when the server serves none
   * @param state tells the state of a namespace
   * @param namespaced the stores of the namespaced resources served at the moment it is called
   *     (custom resources come and go)
   * @param cleanup whether deleting a namespace deletes its content and finalizes it
   */
  Namespaces(
      ResourceStore namespaces,
      Function<String, NamespaceLifecycle.State> state,
      Supplier<Collection<ResourceStore>> namespaced,
      boolean cleanup) {
    this.namespaces = namespaces;
    this.state = state;
    this.namespaced = namespaced;
    this.cleanup = cleanup;
  }

  /** Fails with a 404 naming the namespace when it does not exist. */
  void require(String namespace) {
    if (namespaces != null && state.apply(namespace) == NamespaceLifecycle.State.ABSENT) {
      throw ApiErrors.newNotFound(GroupResource.of("", "namespaces"), namespace);
    }
  }

  /**
   * After a delete from {@code store}: when it deleted (or marked deleted) a namespace and the
   * server cleans up, deletes what is in it (at once: grace period 0, dependents in the background)
   * and, when nothing is left, removes the {@value #KUBERNETES_FINALIZER} finalizer from its {@code
   * spec.finalizers} through {@code finalize}, which removes the namespace when no finalizer is
   * left. Content that finalizers hold keeps the namespace {@code Terminating}; a later delete of
   * the namespace tries again.
   *
   * @return the deletion as it stands after the cleanup
   */
  ResourceStore.Deletion deleted(
      ResourceStore store, String name, ResourceStore.Deletion deletion) {
    if (store != namespaces || !cleanup) {
      return deletion;
    }
    DeleteOptions options = new DeleteOptions();
    options.setGracePeriodSeconds(0L);
    options.setPropagationPolicy("Background");
    boolean remaining = false;
    for (ResourceStore inner : namespaced.get()) {
      for (Object object : inner.list(name, o -> true, 0, null, null).items()) {
        MetaObject meta = Accessor.of(object);
        try {
          remaining |=
              !inner
                  .delete(
                      ResourceStore.LOOPBACK,
                      new AdmissionNotes(),
                      meta.getNamespace(),
                      meta.getName(),
                      options,
                      false)
                  .gone();
        } catch (RuntimeException e) {
          if (!ApiErrors.isNotFound(e)) {
            throw e;
          }
        }
      }
    }
    if (deletion.gone() || remaining) {
      return deletion;
    }
    try {
      return namespaces.finalizeNamespace(ResourceStore.LOOPBACK, name, KUBERNETES_FINALIZER);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return new ResourceStore.Deletion(deletion.object(), true);
      }
      throw e;
    }
  }
}
