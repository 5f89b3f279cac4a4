package dev.machinery.apiserver.registry;

import dev.machinery.apiserver.admission.Operation;

/**
 * Where a {@link ResourceStore} hands its writes to admission: {@link #mutate} before the
 * server-managed metadata, defaults and validation, {@link #validate} after them, as Go's registry
 * calls its admission functions. The server implements it over its {@link
 * dev.machinery.apiserver.admission.AdmissionChain}, with the request's user.
 *
 * <p>Implementations are thread-safe.
 */
public interface AdmissionHook {
  /** No admission. */
  AdmissionHook NONE =
      new AdmissionHook() {
        @Override
        public Object mutate(
            ResourceStore store, Operation operation, Object object, Object old, boolean dryRun) {
          return object;
        }

        @Override
        public void validate(
            ResourceStore store, Operation operation, Object object, Object old, boolean dryRun) {}
      };

  /**
   * Runs the mutating plugins.
   *
   * @param store the store written
   * @param operation the operation
   * @param object the new object, {@code null} on delete
   * @param old the stored object, {@code null} on create
   * @param dryRun whether the write stops before storing
   * @return the object to store
   */
  Object mutate(
      ResourceStore store, Operation operation, Object object, Object old, boolean dryRun);

  /**
   * Runs the validating plugins.
   *
   * @param store the store written
   * @param operation the operation
   * @param object the object to store, {@code null} on delete
   * @param old the stored object, {@code null} on create
   * @param dryRun whether the write stops before storing
   */
  void validate(
      ResourceStore store, Operation operation, Object object, Object old, boolean dryRun);
}
