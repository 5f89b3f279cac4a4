package dev.machinery.controller.leaderelection;

import dev.machinery.controller.clock.Clock;
import dev.machinery.unversioned.errors.ApiErrors;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * client-go's {@code leaderelection.LeaderElector}.
 *
 * <p>{@link #run()} tries to take the lease every {@code retryPeriod} (jittered by up to 1.2 times
 * the period). A lease held by someone else is left alone until {@code leaseDuration} has passed on
 * this replica's clock since the record last changed as this replica observed it (clocks of
 * different replicas are never compared). Once leading, it renews every {@code retryPeriod}; when
 * renewing keeps failing for {@code renewDeadline}, leadership ends. With {@code releaseOnCancel},
 * ending writes a record without holder and with a one-second lease so another replica takes over
 * at once.
 *
 * <p>Thread-safe. {@link #run()} blocks its caller; {@link #cancel()} may be called from any
 * thread. {@code onNewLeader} and {@code onStoppedLeading} run on the thread of {@link #run()}.
 */
public final class LeaderElector {
  private static final System.Logger LOG = System.getLogger(LeaderElector.class.getName());

  private final LeaderElectionConfig config;
  private final Clock clock;
  private final Object lock = new Object();
  private LeaderElectionRecord observedRecord = LeaderElectionRecord.empty();
  private Instant observedTime;
  private String reportedLeader = "";
  private boolean cancelled;
  private Thread runner;

  /**
   * Creates an elector.
   *
   * @param config the settings
   * @param clock the clock leases are timed on
   */
  public LeaderElector(LeaderElectionConfig config, Clock clock) {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.observedTime = Instant.EPOCH;
  }

  /**
   * Creates an elector that starts from an observed record, as a replica that already read the
   * lock.
   *
   * @param config the settings
   * @param clock the clock
   * @param observedRecord the record observed
   * @param observedTime when it was observed, on {@code clock}
   */
  LeaderElector(
      LeaderElectionConfig config,
      Clock clock,
      LeaderElectionRecord observedRecord,
      Instant observedTime) {
    this(config, clock);
    this.observedRecord = observedRecord;
    this.observedTime = observedTime;
  }

  /**
   * Tells whether this replica holds the lease, as last observed.
   *
   * @return true when leading
   */
  public boolean isLeader() {
    synchronized (lock) {
      return observedRecord.holderIdentity().equals(config.lock().identity());
    }
  }

  /**
   * Returns the leader last observed.
   *
   * @return its identity, empty when none
   */
  public String leader() {
    synchronized (lock) {
      return observedRecord.holderIdentity();
    }
  }

  /**
   * Returns the record last observed or written.
   *
   * @return the record
   */
  public LeaderElectionRecord observedRecord() {
    synchronized (lock) {
      return observedRecord;
    }
  }

  /**
   * Competes for the lease, leads while it can renew, and returns when leadership ends or {@link
   * #cancel()} is called; {@code onStoppedLeading} is called last in any case.
   *
   * @throws IllegalStateException when already running
   */
  public void run() {
    synchronized (lock) {
      if (runner != null) {
        throw new IllegalStateException("leader elector " + config.name() + " is running");
      }
      runner = Thread.currentThread();
    }
    try {
      if (!acquire()) {
        return;
      }
      Thread leading = new Thread(config.callbacks()::onStartedLeading, config.name() + "-leading");
      leading.setDaemon(true);
      leading.start();
      renew();
      release();
    } finally {
      synchronized (lock) {
        runner = null;
      }
      Thread.interrupted();
      config.callbacks().onStoppedLeading();
    }
  }

  /** Ends {@link #run()}: stops competing, or stops leading (releasing the lease if configured). */
  public void cancel() {
    Thread thread;
    synchronized (lock) {
      cancelled = true;
      thread = runner;
    }
    if (thread != null && thread != Thread.currentThread()) {
      thread.interrupt();
    }
  }

  private boolean isCancelled() {
    synchronized (lock) {
      return cancelled;
    }
  }

  private boolean acquire() {
    while (!isCancelled()) {
      boolean succeeded = tryAcquireOrRenew();
      maybeReportTransition();
      if (succeeded) {
        LOG.log(
            System.Logger.Level.INFO, "successfully acquired lease " + config.lock().describe());
        return true;
      }
      double jitter =
          1 + ThreadLocalRandom.current().nextDouble() * LeaderElectionConfig.JITTER_FACTOR;
      if (!sleep(Duration.ofNanos((long) (config.retryPeriod().toNanos() * jitter)))) {
        return false;
      }
    }
    return false;
  }

  private void renew() {
    while (!isCancelled()) {
      Instant deadline = clock.now().plus(config.renewDeadline());
      boolean renewed = false;
      while (!isCancelled() && clock.now().isBefore(deadline)) {
        if (tryAcquireOrRenew()) {
          renewed = true;
          break;
        }
        if (!sleep(config.retryPeriod())) {
          break;
        }
      }
      maybeReportTransition();
      if (!renewed) {
        LOG.log(System.Logger.Level.INFO, "failed to renew lease " + config.lock().describe());
        return;
      }
      if (!sleep(config.retryPeriod())) {
        return;
      }
    }
  }

  private void release() {
    if (!config.releaseOnCancel()) {
      return;
    }
    tryRelease();
  }

  /** Writes an empty holder when leading ({@code tryRelease}). */
  boolean tryRelease() {
    Optional<LeaderElectionRecord> old;
    try {
      old = config.lock().get();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "error retrieving lease " + config.lock().describe(), e);
      return false;
    }
    if (old.isEmpty()) {
      return false;
    }
    if (!isLeader()) {
      return true;
    }
    Instant now = clock.now();
    LeaderElectionRecord released =
        new LeaderElectionRecord("", 1, now, now, old.get().leaderTransitions());
    try {
      config.lock().update(released);
    } catch (RuntimeException e) {
      if (ApiErrors.isConflict(e)) {
        return tryRelease();
      }
      LOG.log(System.Logger.Level.ERROR, "failed to release lease " + config.lock().describe(), e);
      return false;
    }
    setObservedRecord(released);
    return true;
  }

  private boolean sleep(Duration duration) {
    try {
      clock.sleep(duration);
      return !isCancelled();
    } catch (InterruptedException e) {
      return false;
    }
  }

  private boolean isLeaseValid(Instant now) {
    synchronized (lock) {
      return observedTime.plusSeconds(observedRecord.leaseDurationSeconds()).isAfter(now);
    }
  }

  private void setObservedRecord(LeaderElectionRecord record) {
    synchronized (lock) {
      observedRecord = record;
      observedTime = clock.now();
    }
  }

  /**
   * One attempt to take or renew the lease ({@code tryAcquireOrRenew}).
   *
   * @return true when this replica holds the lease afterwards
   */
  boolean tryAcquireOrRenew() {
    Instant now = clock.now();
    LeaseLock leaseLock = config.lock();
    int leaseSeconds = (int) config.leaseDuration().toSeconds();
    LeaderElectionRecord desired =
        new LeaderElectionRecord(leaseLock.identity(), leaseSeconds, now, now, 0);

    // fast path: a leader with a valid lease renews without reading first
    if (isLeader() && isLeaseValid(now)) {
      LeaderElectionRecord observed = observedRecord();
      LeaderElectionRecord renewal =
          new LeaderElectionRecord(
              desired.holderIdentity(),
              leaseSeconds,
              observed.acquireTime(),
              now,
              observed.leaderTransitions());
      try {
        leaseLock.update(renewal);
        setObservedRecord(renewal);
        return true;
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.DEBUG,
            "failed to update lease "
                + leaseLock.describe()
                + " optimistically: "
                + e.getMessage());
      }
    }

    Optional<LeaderElectionRecord> current;
    try {
      current = leaseLock.get();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "error retrieving lease " + leaseLock.describe(), e);
      return false;
    }
    if (current.isEmpty()) {
      try {
        leaseLock.create(desired);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "error creating lease " + leaseLock.describe(), e);
        return false;
      }
      setObservedRecord(desired);
      return true;
    }

    LeaderElectionRecord old = current.get();
    synchronized (lock) {
      if (!old.equals(observedRecord)) {
        observedRecord = old;
        observedTime = clock.now();
      }
    }
    if (!old.holderIdentity().isEmpty() && isLeaseValid(now) && !isLeader()) {
      return false;
    }

    LeaderElectionRecord next;
    if (isLeader()) {
      next =
          new LeaderElectionRecord(
              desired.holderIdentity(),
              leaseSeconds,
              old.acquireTime(),
              now,
              old.leaderTransitions());
    } else {
      next =
          new LeaderElectionRecord(
              desired.holderIdentity(), leaseSeconds, now, now, old.leaderTransitions() + 1);
    }
    try {
      leaseLock.update(next);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "failed to update lease " + leaseLock.describe(), e);
      return false;
    }
    setObservedRecord(next);
    return true;
  }

  private void maybeReportTransition() {
    String leader;
    synchronized (lock) {
      leader = observedRecord.holderIdentity();
      if (leader.equals(reportedLeader)) {
        return;
      }
      reportedLeader = leader;
    }
    try {
      config.callbacks().onNewLeader(leader);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "onNewLeader failed", e);
    }
  }

  /** Reports the observed leader to {@code onNewLeader} if it changed; for tests. */
  void reportTransition() {
    maybeReportTransition();
  }
}
