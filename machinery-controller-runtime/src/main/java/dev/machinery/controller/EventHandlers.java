package dev.machinery.controller;

import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * controller-runtime's stock event handlers ({@code handler} package).
 *
 * <p>Every handler built here is stateless and thread-safe. This class has no instances.
 */
public final class EventHandlers {
  private EventHandlers() {}

  /**
   * Enqueues the object's own namespace and name ({@code EnqueueRequestForObject}); on an update,
   * the new object's (and the old one's when it differs).
   *
   * @param <T> the object type
   * @return the handler
   */
  public static <T> EventHandler<T> enqueueRequestForObject() {
    return new EventHandler<>() {
      @Override
      public void create(T object, RateLimitingQueue<Request> queue) {
        queue.add(Request.of(object));
      }

      @Override
      public void update(T oldObject, T newObject, RateLimitingQueue<Request> queue) {
        Request after = Request.of(newObject);
        queue.add(after);
        Request before = Request.of(oldObject);
        if (!before.equals(after)) {
          queue.add(before);
        }
      }

      @Override
      public void delete(T object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        queue.add(Request.of(object));
      }
    };
  }

  /**
   * Enqueues the owners of the object ({@code EnqueueRequestForOwner}): the owner references whose
   * API group and kind match (the version is ignored), only the one marked {@code controller: true}
   * when {@code onlyController}. The request carries the owner's name and, for a namespaced owner,
   * the object's namespace (owners live in their dependents' namespace).
   *
   * @param ownerGroup the owner's API group, empty for the core group
   * @param ownerKind the owner's kind
   * @param onlyController whether only the controlling owner counts ({@code OnlyControllerOwner})
   * @param ownerNamespaced whether the owner kind is namespaced
   * @param <T> the object type
   * @return the handler
   */
  public static <T> EventHandler<T> enqueueRequestForOwner(
      String ownerGroup, String ownerKind, boolean onlyController, boolean ownerNamespaced) {
    Objects.requireNonNull(ownerGroup, "ownerGroup");
    Objects.requireNonNull(ownerKind, "ownerKind");
    return new EventHandler<>() {
      @Override
      public void create(T object, RateLimitingQueue<Request> queue) {
        owners(object).forEach(queue::add);
      }

      @Override
      public void update(T oldObject, T newObject, RateLimitingQueue<Request> queue) {
        Set<Request> requests = new LinkedHashSet<>(owners(oldObject));
        requests.addAll(owners(newObject));
        requests.forEach(queue::add);
      }

      @Override
      public void delete(T object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        owners(object).forEach(queue::add);
      }

      private Set<Request> owners(T object) {
        MetaObject meta = Accessor.of(object);
        List<OwnerReference> references = meta.getOwnerReferences();
        Set<Request> requests = new LinkedHashSet<>();
        if (references == null) {
          return requests;
        }
        for (OwnerReference reference : references) {
          if (onlyController && !Boolean.TRUE.equals(reference.getController())) {
            continue;
          }
          if (!ownerKind.equals(reference.getKind())
              || !ownerGroup.equals(groupOf(reference.getApiVersion()))) {
            continue;
          }
          requests.add(
              new Request(ownerNamespaced ? meta.getNamespace() : "", reference.getName()));
        }
        return requests;
      }
    };
  }

  static String groupOf(String apiVersion) {
    if (apiVersion == null) {
      return "";
    }
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }
}
