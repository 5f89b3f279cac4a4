package dev.machinery.unversioned.meta.v1;

import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The controller reference of an object, as Kubernetes' helpers read and make it ({@code
 * metav1.GetControllerOf}, {@code IsControlledBy}, {@code NewControllerRef}): the one owner
 * reference with {@code controller: true}.
 *
 * <p>Stateless and safe to use from any thread; the objects are as thread-safe as they are.
 */
public final class OwnerReferences {
  private OwnerReferences() {}

  /**
   * Returns a copy of the controller reference of an object.
   *
   * @param object the object's metadata (see {@link Accessor#of})
   * @return the reference, or empty when no owner is the controller
   */
  public static Optional<OwnerReference> controllerOf(MetaObject object) {
    List<OwnerReference> references = object.getOwnerReferences();
    if (references == null) {
      return Optional.empty();
    }
    for (OwnerReference reference : references) {
      if (Boolean.TRUE.equals(reference.getController())) {
        return Optional.of(GeneratedDeepCopy.deepCopy(reference));
      }
    }
    return Optional.empty();
  }

  /**
   * Whether an object's controller is the given owner (by uid).
   *
   * @param object the object's metadata
   * @param owner the owner's metadata
   * @return true when the owner controls the object
   */
  public static boolean isControlledBy(MetaObject object, MetaObject owner) {
    return controllerOf(object)
        .map(reference -> Objects.equals(reference.getUid(), owner.getUid()))
        .orElse(false);
  }

  /**
   * Makes the controller reference to an owner: its group version, kind, name and uid, with {@code
   * controller} and {@code blockOwnerDeletion} true.
   *
   * @param owner the owner's metadata
   * @param kind the owner's kind and version
   * @return the reference
   */
  public static OwnerReference newControllerRef(MetaObject owner, GroupVersionKind kind) {
    OwnerReference reference = new OwnerReference();
    reference.setApiVersion(kind.groupVersion().toString());
    reference.setKind(kind.kind());
    reference.setName(owner.getName());
    reference.setUid(owner.getUid());
    reference.setBlockOwnerDeletion(true);
    reference.setController(true);
    return reference;
  }
}
