package dev.machinery.controller.leaderelection;

/**
 * What a {@link LeaderElector} tells its owner ({@code leaderelection.LeaderCallbacks}).
 *
 * <p>Implementations must be thread-safe: {@link #onStartedLeading()} runs on a thread of its own,
 * the others on the elector's thread.
 */
public interface LeaderCallbacks {
  /**
   * This replica became the leader; runs on a new thread, and may block while leading. Leadership
   * ends with {@link #onStoppedLeading()}.
   */
  void onStartedLeading();

  /** This replica stopped leading, or the elector ended without ever leading. */
  void onStoppedLeading();

  /**
   * The leader changed, as observed in the lock.
   *
   * @param identity the new leader's identity
   */
  default void onNewLeader(String identity) {}
}
