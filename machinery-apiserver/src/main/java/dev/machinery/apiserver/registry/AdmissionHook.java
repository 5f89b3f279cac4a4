package dev.machinery.apiserver.registry;

import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.authorization.Attributes;

/**
 * Where a {@link ResourceStore} hands its writes to admission: {@link #mutate} before the
 * server-managed metadata, defaults and validation, {@link #validate} after them, as Go's registry
 * calls its admission functions. The server implements it over its {@link
 * dev.machinery.apiserver.admission.AdmissionChain}, with the requester the store is handed.
 *
 * <p>Implementations are thread-safe.
 */
public interface AdmissionHook {
  /** No admission. */
  AdmissionHook NONE =
      new AdmissionHook() {
        @Override
        public Object mutate(
            Attributes requester,
            ResourceStore store,
            Operation operation,
            Object object,
            Object old,
            boolean dryRun,
            AdmissionNotes notes) {
          return object;
        }

        @Override
        public void validate(
            Attributes requester,
            ResourceStore store,
            Operation operation,
            Object object,
            Object old,
            boolean dryRun,
            AdmissionNotes notes) {}
      };

  /**
   * Runs the mutating plugins.
   *
   * @param requester who asks, and what (the request's subresource)
   * @param store the store written
   * @param operation the operation
   * @param object the new object, {@code null} on delete
   * @param old the stored object, {@code null} on create
   * @param dryRun whether the write stops before storing
   * @param notes takes the warnings and audit annotations of the write
   * @return the object to store
   */
  Object mutate(
      Attributes requester,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun,
      AdmissionNotes notes);

  /**
   * Runs the validating plugins.
   *
   * @param requester who asks, and what (the request's subresource)
   * @param store the store written
   * @param operation the operation
   * @param object the object to store, {@code null} on delete
   * @param old the stored object, {@code null} on create
   * @param dryRun whether the write stops before storing
   * @param notes takes the warnings and audit annotations of the write
   */
  void validate(
      Attributes requester,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun,
      AdmissionNotes notes);
}
