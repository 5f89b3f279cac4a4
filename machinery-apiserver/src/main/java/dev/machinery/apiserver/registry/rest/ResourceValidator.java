package dev.machinery.apiserver.registry.rest;

import dev.machinery.unversioned.validation.FieldError;
import java.util.List;

/**
 * A resource's own validation, run after the server's checks of the metadata on every create and
 * update ({@code ValidateCreate}/{@code ValidateUpdate} of a registry strategy). It sees the object
 * in the resource's storage version; any error refuses the request with {@code 422 Invalid}, the
 * errors listed as the Status' causes.
 *
 * <p>Implementations must be stateless or thread-safe: requests validate concurrently.
 */
@FunctionalInterface
public interface ResourceValidator {
  /**
   * Validates an object being created or updated.
   *
   * @param object the object, in the storage version
   * @param old the stored object on update, {@code null} on create
   * @return the errors, with their field paths; empty when valid
   */
  List<FieldError> validate(Object object, Object old);

  /**
   * Validates an object being created or updated by a requester, for a validation that depends on
   * who asks (such as RBAC's escalation prevention). By default it is {@link #validate(Object,
   * Object)}.
   *
   * @param requester who asks, as the request's authorization attributes
   * @param object the object, in the storage version
   * @param old the stored object on update, {@code null} on create
   * @return the errors, with their field paths; empty when valid
   */
  default List<FieldError> validate(
      dev.machinery.apiserver.authorization.Attributes requester, Object object, Object old) {
    return validate(object, old);
  }
}
