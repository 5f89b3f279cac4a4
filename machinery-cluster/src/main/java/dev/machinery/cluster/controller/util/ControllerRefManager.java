package dev.machinery.cluster.controller.util;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Claims the objects a controller owns, as Kubernetes' {@code BaseControllerRefManager} and {@code
 * PodControllerRefManager}: an object it controls that its selector still matches is kept; one it
 * controls that no longer matches is released (its controller reference removed), unless the owner
 * is being deleted; an orphan that matches is adopted (a controller reference added), once the
 * owner was read again from the server and found neither replaced nor being deleted. Objects
 * controlled by another owner are left alone. Adoption and release are strategic merge patches that
 * carry the object's UID, so a recreated object of the same name is not touched.
 *
 * <p>One manager serves one sync of one owner; not thread-safe.
 *
 * @param <T> the owned objects' type
 */
public final class ControllerRefManager<T> {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Checks, once per sync, that the owner may adopt: throws when it may not. */
  @FunctionalInterface
  public interface AdoptionCheck {
    /**
     * Throws when the owner is gone, replaced or being deleted.
     *
     * @throws Exception naming why adoption is refused
     */
    void check() throws Exception;
  }

  private final MetaObject owner;
  private final OwnerReference controllerRef;
  private final Selector selector;
  private final Function<String, ResourceClient<T>> clients;
  private final AdoptionCheck adoptionCheck;
  private boolean adoptionChecked;
  private Exception adoptionRefused;

  /**
   * Creates a manager for one owner.
   *
   * @param owner the owner's metadata (as the cache held it)
   * @param apiVersion the owner's API version
   * @param kind the owner's kind
   * @param selector the owner's selector
   * @param clients the owned objects' client in a namespace
   * @param adoptionCheck reads the owner again before the first adoption
   */
  public ControllerRefManager(
      MetaObject owner,
      String apiVersion,
      String kind,
      Selector selector,
      Function<String, ResourceClient<T>> clients,
      AdoptionCheck adoptionCheck) {
    this.owner = Objects.requireNonNull(owner, "owner");
    this.controllerRef = ControllerRefs.newControllerRef(apiVersion, kind, owner);
    this.selector = Objects.requireNonNull(selector, "selector");
    this.clients = Objects.requireNonNull(clients, "clients");
    this.adoptionCheck = Objects.requireNonNull(adoptionCheck, "adoptionCheck");
  }

  /**
   * Returns the check kube's controllers use before adopting: the owner read again has the same UID
   * and no deletion timestamp.
   *
   * @param fresh reads the owner from the server
   * @param owner the owner as the cache held it
   * @return the check
   */
  public static AdoptionCheck recheckDeletionTimestamp(
      java.util.function.Supplier<MetaObject> fresh, MetaObject owner) {
    return () -> {
      MetaObject current = fresh.get();
      if (!Objects.equals(current.getUid(), owner.getUid())) {
        throw new IllegalStateException(
            "original "
                + owner.getNamespace()
                + "/"
                + owner.getName()
                + " is gone: got uid "
                + current.getUid()
                + ", wanted "
                + owner.getUid());
      }
      if (current.getDeletionTimestamp() != null) {
        throw new IllegalStateException(
            owner.getNamespace()
                + "/"
                + owner.getName()
                + " has just been deleted at "
                + current.getDeletionTimestamp());
      }
    };
  }

  /**
   * Claims objects: returns those the owner controls after adoption and release.
   *
   * @param objects candidates (the owner's namespace's objects)
   * @return the claimed objects (adopted ones as the server returned them)
   * @throws Exception the first failure to adopt or release (after trying every object)
   */
  public List<T> claim(List<T> objects) throws Exception {
    List<T> claimed = new ArrayList<>();
    Exception first = null;
    for (T object : objects) {
      try {
        claimOne(object).ifPresent(claimed::add);
      } catch (Exception e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return claimed;
  }

  private Optional<T> claimOne(T object) throws Exception {
    MetaObject meta = Accessor.of(object);
    Optional<OwnerReference> ref = ControllerRefs.controllerOf(meta);
    boolean matches =
        selector.matches(meta.getLabels() == null ? java.util.Map.of() : meta.getLabels());
    if (ref.isPresent()) {
      if (!Objects.equals(ref.get().getUid(), owner.getUid())) {
        return Optional.empty();
      }
      if (matches) {
        return Optional.of(object);
      }
      if (owner.getDeletionTimestamp() != null) {
        return Optional.empty();
      }
      try {
        release(meta);
      } catch (Exception e) {
        if (!ApiErrors.isNotFound(e) && !ApiErrors.isInvalid(e)) {
          throw e;
        }
      }
      return Optional.empty();
    }
    if (owner.getDeletionTimestamp() != null || !matches) {
      return Optional.empty();
    }
    if (meta.getDeletionTimestamp() != null) {
      return Optional.empty();
    }
    if (owner.getNamespace() != null
        && !owner.getNamespace().isEmpty()
        && !owner.getNamespace().equals(meta.getNamespace())) {
      return Optional.empty();
    }
    try {
      return Optional.of(adopt(meta));
    } catch (Exception e) {
      if (ApiErrors.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private T adopt(MetaObject meta) throws Exception {
    if (!adoptionChecked) {
      adoptionChecked = true;
      try {
        adoptionCheck.check();
      } catch (Exception e) {
        adoptionRefused = e;
      }
    }
    if (adoptionRefused != null) {
      throw new IllegalStateException(
          "can't adopt " + meta.getName() + ": " + adoptionRefused.getMessage(), adoptionRefused);
    }
    ObjectNode reference = MAPPER.createObjectNode();
    reference.put("apiVersion", controllerRef.getApiVersion());
    reference.put("kind", controllerRef.getKind());
    reference.put("name", controllerRef.getName());
    reference.put("uid", controllerRef.getUid());
    reference.put("controller", true);
    reference.put("blockOwnerDeletion", true);
    return patch(meta, reference);
  }

  private void release(MetaObject meta) throws Exception {
    ObjectNode reference = MAPPER.createObjectNode();
    reference.put("$patch", "delete");
    reference.put("uid", owner.getUid());
    patch(meta, reference);
  }

  private T patch(MetaObject meta, ObjectNode reference) throws Exception {
    ObjectNode body = MAPPER.createObjectNode();
    ObjectNode metadata = body.putObject("metadata");
    ArrayNode references = metadata.putArray("ownerReferences");
    references.add(reference);
    metadata.put("uid", meta.getUid());
    return clients
        .apply(meta.getNamespace())
        .patch(
            meta.getName(),
            PatchType.STRATEGIC_MERGE,
            MAPPER.writeValueAsString(body),
            new PatchOptions());
  }
}
