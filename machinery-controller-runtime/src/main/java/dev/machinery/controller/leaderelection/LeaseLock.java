package dev.machinery.controller.leaderelection;

import java.util.Optional;

/**
 * The lock a {@link LeaderElector} competes for ({@code resourcelock.Interface}): usually a {@code
 * coordination.k8s.io/v1} Lease read and written through a client. Failures (a conflict when
 * another replica wrote first, a server error) are thrown as runtime exceptions, typically {@link
 * dev.machinery.unversioned.errors.StatusException}.
 *
 * <p>Implementations must be thread-safe.
 */
public interface LeaseLock {
  /**
   * Reads the record.
   *
   * @return the record, or empty when the lock object does not exist
   */
  Optional<LeaderElectionRecord> get();

  /**
   * Creates the lock object with a record.
   *
   * @param record the record
   */
  void create(LeaderElectionRecord record);

  /**
   * Writes the record over the version last read or created; fails with a conflict when someone
   * else wrote in between, and fails when the lock was neither read nor created before.
   *
   * @param record the record
   */
  void update(LeaderElectionRecord record);

  /**
   * Returns this replica's identity.
   *
   * @return the identity
   */
  String identity();

  /**
   * Describes the lock for logs, such as {@code namespace/name}.
   *
   * @return the description
   */
  String describe();
}
