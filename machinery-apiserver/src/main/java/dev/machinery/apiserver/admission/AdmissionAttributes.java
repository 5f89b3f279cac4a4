package dev.machinery.apiserver.admission;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.Objects;

/**
 * One write as admission sees it, as Kubernetes' {@code admission.Attributes}. Objects are in the
 * resource's storage version; a plugin must not change {@code oldObject}. Immutable, apart from the
 * objects it refers to.
 *
 * @param operation what the write does
 * @param kind the kind of the object, in the storage version
 * @param resource the resource
 * @param subresource the subresource (such as {@code status} or {@code scale}), or {@code ""}
 * @param namespace the namespace, or {@code ""} for a cluster-scoped object
 * @param name the name, or {@code ""} when the object has none yet ({@code generateName})
 * @param object the object to store: the new object on create and update, {@code null} on delete
 * @param oldObject the stored object on update and delete, {@code null} on create
 * @param user who writes
 * @param dryRun whether the write stops before storing
 */
public record AdmissionAttributes(
    Operation operation,
    GroupVersionKind kind,
    GroupResource resource,
    String subresource,
    String namespace,
    String name,
    Object object,
    Object oldObject,
    UserInfo user,
    boolean dryRun) {
  /**
   * Checks the parts; absent strings become {@code ""}.
   *
   * @param operation see the record description
   * @param kind see the record description
   * @param resource see the record description
   * @param subresource see the record description
   * @param namespace see the record description
   * @param name see the record description
   * @param object see the record description
   * @param oldObject see the record description
   * @param user see the record description
   * @param dryRun see the record description
   */
  public AdmissionAttributes {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(user, "user");
    subresource = Objects.requireNonNullElse(subresource, "");
    namespace = Objects.requireNonNullElse(namespace, "");
    name = Objects.requireNonNullElse(name, "");
  }

  /**
   * Returns these attributes with another object, as a mutating plugin's change hands it on.
   *
   * @param other the object
   * @return the copy
   */
  public AdmissionAttributes withObject(Object other) {
    return new AdmissionAttributes(
        operation, kind, resource, subresource, namespace, name, other, oldObject, user, dryRun);
  }
}
