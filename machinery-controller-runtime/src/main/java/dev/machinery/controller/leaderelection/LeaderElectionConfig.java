package dev.machinery.controller.leaderelection;

import java.time.Duration;
import java.util.Objects;

/**
 * A leader elector's settings ({@code leaderelection.LeaderElectionConfig}).
 *
 * <p>Immutable; thread-safe (the lock and callbacks must be too).
 *
 * @param lock the lock
 * @param leaseDuration how long non-leaders wait after the last observed renewal before taking over
 * @param renewDeadline how long the leader retries renewing before giving up leadership
 * @param retryPeriod how long to wait between attempts
 * @param callbacks the callbacks
 * @param releaseOnCancel whether cancelling the elector while leading writes an empty holder so
 *     another replica takes over at once
 * @param name a name for logs and threads
 */
public record LeaderElectionConfig(
    LeaseLock lock,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod,
    LeaderCallbacks callbacks,
    boolean releaseOnCancel,
    String name) {
  /** client-go's jitter factor on the retry period while acquiring. */
  public static final double JITTER_FACTOR = 1.2;

  /**
   * Checks the settings as {@code NewLeaderElector} does.
   *
   * @param lock the lock
   * @param leaseDuration the lease duration
   * @param renewDeadline the renew deadline
   * @param retryPeriod the retry period
   * @param callbacks the callbacks
   * @param releaseOnCancel whether to release on cancel
   * @param name the name
   * @throws IllegalArgumentException naming the setting that is out of range
   */
  public LeaderElectionConfig {
    Objects.requireNonNull(lock, "lock");
    Objects.requireNonNull(callbacks, "callbacks");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(leaseDuration, "leaseDuration");
    Objects.requireNonNull(renewDeadline, "renewDeadline");
    Objects.requireNonNull(retryPeriod, "retryPeriod");
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException(
          "leaseDuration must be greater than renewDeadline: "
              + leaseDuration
              + " <= "
              + renewDeadline);
    }
    if (renewDeadline.toNanos() <= (long) (JITTER_FACTOR * retryPeriod.toNanos())) {
      throw new IllegalArgumentException(
          "renewDeadline must be greater than retryPeriod*JitterFactor: "
              + renewDeadline
              + " <= "
              + retryPeriod
              + "*"
              + JITTER_FACTOR);
    }
    if (leaseDuration.isNegative() || leaseDuration.isZero()) {
      throw new IllegalArgumentException("leaseDuration must be greater than zero");
    }
    if (renewDeadline.isNegative() || renewDeadline.isZero()) {
      throw new IllegalArgumentException("renewDeadline must be greater than zero");
    }
    if (retryPeriod.isNegative() || retryPeriod.isZero()) {
      throw new IllegalArgumentException("retryPeriod must be greater than zero");
    }
    if (lock.identity() == null || lock.identity().isEmpty()) {
      throw new IllegalArgumentException("Lock identity is empty");
    }
  }

  /**
   * Returns the settings of kube-controller-manager: lease 15s, renew deadline 10s, retry 2s,
   * releasing on cancel.
   *
   * @param name a name
   * @param lock the lock
   * @param callbacks the callbacks
   * @return the settings
   */
  public static LeaderElectionConfig defaults(
      String name, LeaseLock lock, LeaderCallbacks callbacks) {
    return new LeaderElectionConfig(
        lock,
        Duration.ofSeconds(15),
        Duration.ofSeconds(10),
        Duration.ofSeconds(2),
        callbacks,
        true,
        name);
  }
}
