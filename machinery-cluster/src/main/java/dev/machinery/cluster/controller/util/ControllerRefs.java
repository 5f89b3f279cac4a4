package dev.machinery.cluster.controller.util;

import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.util.List;
import java.util.Optional;

/**
 * Controller references: the owner reference marked {@code controller: true}, as Kubernetes' {@code
 * metav1.GetControllerOf} and {@code metav1.NewControllerRef}.
 *
 * <p>Stateless, thread-safe.
 */
public final class ControllerRefs {
  private ControllerRefs() {}

  /**
   * Returns an object's controller reference.
   *
   * @param meta the object's metadata
   * @return the reference marked {@code controller: true}, if any
   */
  public static Optional<OwnerReference> controllerOf(MetaObject meta) {
    List<OwnerReference> references = meta.getOwnerReferences();
    if (references == null) {
      return Optional.empty();
    }
    for (OwnerReference reference : references) {
      if (Boolean.TRUE.equals(reference.getController())) {
        return Optional.of(reference);
      }
    }
    return Optional.empty();
  }

  /**
   * Returns a controller reference to an owner: {@code controller: true}, {@code
   * blockOwnerDeletion: true}.
   *
   * @param apiVersion the owner's API version, such as {@code apps/v1}
   * @param kind the owner's kind
   * @param owner the owner's metadata (name and UID)
   * @return the reference
   */
  public static OwnerReference newControllerRef(String apiVersion, String kind, MetaObject owner) {
    OwnerReference reference = new OwnerReference();
    reference.setApiVersion(apiVersion);
    reference.setKind(kind);
    reference.setName(owner.getName());
    reference.setUid(owner.getUid());
    reference.setController(true);
    reference.setBlockOwnerDeletion(true);
    return reference;
  }
}
