package dev.machinery.controller;

import dev.machinery.controller.cache.SharedInformerFactory;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.leaderelection.LeaderCallbacks;
import dev.machinery.controller.leaderelection.LeaderElectionConfig;
import dev.machinery.controller.leaderelection.LeaderElector;
import dev.machinery.controller.leaderelection.LeaseLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * controller-runtime's manager ({@code manager.Manager}): owns a {@link SharedInformerFactory} and
 * a set of {@link Controller}s.
 *
 * <p>{@link #start()} starts the informers and waits for their caches; then, without leader
 * election, it starts the controllers; with it, it runs a {@link LeaderElector} and starts the
 * controllers only once this replica leads. When leadership is lost the controllers stop and the
 * manager counts as failed ({@link #lostLeadership()}; controller-runtime exits the process, a
 * library leaves that to its caller). {@link #close()} stops the controllers in reverse order, then
 * leader election (releasing the lease), then the informers.
 *
 * <p>Thread-safe.
 */
public final class Manager implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Manager.class.getName());

  private final SharedInformerFactory informers;
  private final Clock clock;
  private final LeaderElectionConfig leaderElection;
  private final List<Controller> controllers = new ArrayList<>();
  private final List<Controller> running = new ArrayList<>();
  private LeaderElector elector;
  private Thread electorThread;
  private boolean started;
  private boolean closed;
  private boolean lostLeadership;

  private Manager(Builder builder) {
    this.clock = builder.clock;
    this.informers = new SharedInformerFactory(builder.resync, clock);
    if (builder.lock == null) {
      this.leaderElection = null;
    } else {
      this.leaderElection =
          new LeaderElectionConfig(
              builder.lock,
              builder.leaseDuration,
              builder.renewDeadline,
              builder.retryPeriod,
              new Callbacks(),
              true,
              builder.name);
    }
  }

  /**
   * Starts building a manager.
   *
   * @param name the manager's name, for logs and threads
   * @return the builder
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Returns the informer factory controllers take their informers from.
   *
   * @return the factory
   */
  public SharedInformerFactory informers() {
    return informers;
  }

  /**
   * Adds a controller; it starts with the manager, or at once when the manager already runs its
   * controllers.
   *
   * @param controller the controller
   * @throws InterruptedException when interrupted while a late controller waits for its caches
   */
  public void add(Controller controller) throws InterruptedException {
    Objects.requireNonNull(controller, "controller");
    boolean startNow;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the manager is closed");
      }
      controllers.add(controller);
      startNow = started && (leaderElection == null || (elector != null && elector.isLeader()));
    }
    if (startNow) {
      informers.start();
      startController(controller);
    }
  }

  /**
   * Starts the informers, waits for their caches, and starts the controllers (at once, or once
   * leading). Returns without waiting for leadership.
   *
   * @throws InterruptedException when interrupted while waiting for the caches
   * @throws IllegalStateException when started twice or closed
   */
  public void start() throws InterruptedException {
    synchronized (this) {
      if (started || closed) {
        throw new IllegalStateException("a manager starts once");
      }
      started = true;
    }
    informers.start();
    informers.waitForCacheSync();
    if (leaderElection == null) {
      startControllers();
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      elector = new LeaderElector(leaderElection, clock);
      electorThread = new Thread(elector::run, "manager-" + leaderElection.name() + "-election");
      electorThread.setDaemon(true);
      electorThread.start();
    }
  }

  /**
   * Tells whether this manager runs its controllers: started without leader election, or leading.
   *
   * @return true when the controllers run
   */
  public synchronized boolean isRunningControllers() {
    return !running.isEmpty();
  }

  /**
   * Tells whether leadership was lost after it was held; the controllers are stopped then.
   *
   * @return true after a loss
   */
  public synchronized boolean lostLeadership() {
    return lostLeadership;
  }

  private void startControllers() throws InterruptedException {
    List<Controller> toStart;
    synchronized (this) {
      toStart = new ArrayList<>(controllers);
    }
    for (Controller controller : toStart) {
      startController(controller);
    }
  }

  private void startController(Controller controller) throws InterruptedException {
    synchronized (this) {
      if (closed || running.contains(controller)) {
        return;
      }
      running.add(controller);
    }
    controller.start();
  }

  private void stopControllers() throws InterruptedException {
    List<Controller> toStop;
    synchronized (this) {
      toStop = new ArrayList<>(running);
      running.clear();
    }
    for (int i = toStop.size() - 1; i >= 0; i--) {
      toStop.get(i).stop();
    }
  }

  private final class Callbacks implements LeaderCallbacks {
    private volatile boolean led;

    @Override
    public void onStartedLeading() {
      led = true;
      try {
        startControllers();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "starting controllers failed", e);
      }
    }

    @Override
    public void onStoppedLeading() {
      boolean wasClosing;
      synchronized (Manager.this) {
        wasClosing = closed;
        if (led && !closed) {
          lostLeadership = true;
        }
      }
      if (!wasClosing) {
        LOG.log(System.Logger.Level.WARNING, "leader election lost; stopping controllers");
      }
      try {
        stopControllers();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Stops the controllers in reverse order of addition, then leader election (releasing the lease),
   * then the informers; waits for their threads. An interrupt while waiting ends the wait and is
   * kept on the thread.
   */
  @Override
  public void close() {
    LeaderElector toCancel;
    Thread toJoin;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toCancel = elector;
      toJoin = electorThread;
    }
    try {
      stopControllers();
      if (toCancel != null) {
        toCancel.cancel();
        toJoin.join();
      }
      informers.shutdown();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Builds a {@link Manager}.
   *
   * <p>Not thread-safe; confine a builder to one thread.
   */
  public static final class Builder {
    private final String name;
    private Clock clock = Clock.system();
    private Duration resync = Duration.ZERO;
    private LeaseLock lock;
    private Duration leaseDuration = Duration.ofSeconds(15);
    private Duration renewDeadline = Duration.ofSeconds(10);
    private Duration retryPeriod = Duration.ofSeconds(2);

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * Sets the clock of informers, queues and leader election.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Sets the informers' default resync period ({@code SyncPeriod}); zero, the default, for none.
     *
     * @param period the period
     * @return this builder
     */
    public Builder resync(Duration period) {
      this.resync = Objects.requireNonNull(period, "period");
      return this;
    }

    /**
     * Runs the controllers only while this replica holds the lease, with kube-controller-manager's
     * timings (lease 15s, renew deadline 10s, retry 2s).
     *
     * @param lock the lease lock
     * @return this builder
     */
    public Builder leaderElection(LeaseLock lock) {
      this.lock = Objects.requireNonNull(lock, "lock");
      return this;
    }

    /**
     * Runs the controllers only while this replica holds the lease, with other timings.
     *
     * @param lock the lease lock
     * @param leaseDuration the lease duration
     * @param renewDeadline the renew deadline
     * @param retryPeriod the retry period
     * @return this builder
     */
    public Builder leaderElection(
        LeaseLock lock, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
      this.lock = Objects.requireNonNull(lock, "lock");
      this.leaseDuration = leaseDuration;
      this.renewDeadline = renewDeadline;
      this.retryPeriod = retryPeriod;
      return this;
    }

    /**
     * Builds the manager.
     *
     * @return the manager, not started
     * @throws IllegalArgumentException when the leader election timings are out of range
     */
    public Manager build() {
      return new Manager(this);
    }
  }
}
