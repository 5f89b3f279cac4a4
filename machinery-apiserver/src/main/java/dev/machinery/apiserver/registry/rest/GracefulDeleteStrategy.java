package dev.machinery.apiserver.registry.rest;

import java.util.OptionalLong;

/**
 * How a resource's objects are deleted gracefully, as Go's {@code
 * rest.RESTGracefulDeleteStrategy.CheckGracefulDelete}: asked when an object not yet being deleted
 * is deleted, it says with which grace period. The store then sets {@code
 * metadata.deletionTimestamp} to now plus the period and {@code
 * metadata.deletionGracePeriodSeconds} to the period, and keeps the object until a delete with
 * period 0 (a period of 0 removes it at once, unless finalizers hold it).
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface GracefulDeleteStrategy {
  /**
   * Chooses the grace period of a delete.
   *
   * @param object the stored object, in the storage version (not to be changed)
   * @param requested the {@code gracePeriodSeconds} of the delete's options, or {@code null} when
   *     they name none (a negative one has been made 1 already)
   * @return the grace period in seconds (0 or more), or empty when the object is not deleted
   *     gracefully
   */
  OptionalLong gracePeriod(Object object, Long requested);
}
