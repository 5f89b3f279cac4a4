package dev.machinery.controller.leaderelection;

import java.time.Instant;

/**
 * What a lease lock holds ({@code resourcelock.LeaderElectionRecord}): who holds the lease, for how
 * long, since when, and how often it changed hands. On a {@code coordination.k8s.io/v1} Lease these
 * are {@code spec.holderIdentity}, {@code leaseDurationSeconds}, {@code acquireTime}, {@code
 * renewTime} and {@code leaseTransitions}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param holderIdentity the holder, empty when nobody holds it
 * @param leaseDurationSeconds how long the lease lasts after its last renewal
 * @param acquireTime when the holder acquired it, or null
 * @param renewTime when the holder last renewed it, or null
 * @param leaderTransitions how many times it changed hands
 */
public record LeaderElectionRecord(
    String holderIdentity,
    int leaseDurationSeconds,
    Instant acquireTime,
    Instant renewTime,
    int leaderTransitions) {
  /**
   * Normalises a missing holder to empty.
   *
   * @param holderIdentity the holder
   * @param leaseDurationSeconds the duration
   * @param acquireTime the acquire time
   * @param renewTime the renew time
   * @param leaderTransitions the transitions
   */
  public LeaderElectionRecord {
    holderIdentity = holderIdentity == null ? "" : holderIdentity;
  }

  /**
   * Returns an empty record: no holder.
   *
   * @return the record
   */
  public static LeaderElectionRecord empty() {
    return new LeaderElectionRecord("", 0, null, null, 0);
  }
}
