package dev.machinery.apiserver;

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
}
