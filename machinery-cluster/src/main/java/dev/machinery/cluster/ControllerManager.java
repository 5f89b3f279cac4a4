package dev.machinery.cluster;

import dev.machinery.controller.Manager;
import dev.machinery.controller.cache.SharedInformerFactory;
import dev.machinery.controller.client.ClientLeaseLock;
import dev.machinery.controller.clock.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Runs Kubernetes' controllers (and the simulated nodes' scheduler and kubelets) against an API
 * server, as kube-controller-manager does: each chosen controller is set up in a shared {@link
 * ControllerContext}, the shared informers start and fill their caches, then the controllers run —
 * at once, or, with leader election, only while this replica holds the {@code
 * kube-system/kube-controller-manager} Lease, so that of several replicas on one storage exactly
 * one acts.
 *
 * <p>{@link Builder#controllers(List)} reads kube-controller-manager's {@code --controllers} list:
 * {@code *} for every controller on by default, a name to add one, {@code -name} to leave one out;
 * a name it does not know is refused with the known ones listed.
 *
 * <p>Thread-safe: {@link #start()} and {@link #close()} may be called from any thread, once each.
 */
public final class ControllerManager implements AutoCloseable {
  /** The Lease (in {@code kube-system}) replicas elect a leader with, as kube's. */
  public static final String LEASE_NAME = "kube-controller-manager";

  private final Manager manager;
  private final SharedInformerFactory dynamic;
  private final ControllerContext context;
  private final List<ControllerDescriptor> enabled;
  private boolean started;
  private boolean closed;

  private ControllerManager(Builder builder) {
    this.enabled = choose(builder.known(), builder.controllers);
    this.dynamic = new SharedInformerFactory(Duration.ZERO, Clock.system());
    Manager.Builder managerBuilder = Manager.builder(LEASE_NAME);
    ClientFactory clients = builder.clients;
    if (builder.leaderElection) {
      ClientLeaseLock lock =
          new ClientLeaseLock(
              clients.client("system:kube-controller-manager", List.of()),
              ControllerContext.KUBE_SYSTEM,
              LEASE_NAME,
              builder.identity);
      managerBuilder.leaderElection(
          lock, builder.leaseDuration, builder.renewDeadline, builder.retryPeriod);
    }
    this.manager = managerBuilder.build();
    this.context =
        new ControllerContext(
            clients,
            manager,
            dynamic,
            builder.clock,
            builder.nodes,
            builder.identity,
            builder.rootCaCertificate);
  }

  /**
   * Starts building a manager whose clients the factory makes.
   *
   * @param clients makes a client per identity
   * @return the builder
   */
  public static Builder builder(ClientFactory clients) {
    return new Builder(clients);
  }

  /**
   * Returns the controllers this module carries, in the order they are set up.
   *
   * @return the descriptors
   */
  public static List<ControllerDescriptor> knownControllers() {
    return KnownControllers.all();
  }

  /**
   * Returns the names of the controllers a {@code --controllers} list chooses among the known ones,
   * for a server whose settings depend on what runs (kube-apiserver's {@code ServiceAccount}
   * admission with the service account controller, say).
   *
   * @param names names, {@code -name}s and {@code *}
   * @return the chosen names, in set-up order
   * @throws IllegalArgumentException when a name is unknown
   */
  public static List<String> chosenControllers(List<String> names) {
    return choose(KnownControllers.all(), names).stream()
        .map(ControllerDescriptor::name)
        .collect(Collectors.toList());
  }

  /**
   * Returns the names of the controllers this manager runs.
   *
   * @return the names, in set-up order
   */
  public List<String> enabledControllers() {
    return enabled.stream().map(ControllerDescriptor::name).collect(Collectors.toList());
  }

  /**
   * Sets every chosen controller up, starts the informers and waits for their caches, then runs the
   * controllers (at once, or once leading). Returns without waiting for leadership.
   *
   * @throws InterruptedException when interrupted while waiting for the caches
   * @throws IllegalStateException when started twice or after close
   */
  public void start() throws InterruptedException {
    synchronized (this) {
      if (started || closed) {
        throw new IllegalStateException("a controller manager starts once");
      }
      started = true;
    }
    for (ControllerDescriptor descriptor : enabled) {
      descriptor.initializer().initialize(context);
    }
    context.startDynamicInformers();
    manager.start();
  }

  /**
   * Tells whether this replica runs the controllers now (started without leader election, or
   * leading).
   *
   * @return true when they run
   */
  public boolean isLeading() {
    return manager.isRunningControllers();
  }

  /**
   * Tells whether this replica lost the Lease after holding it; its controllers stopped, and it
   * does not run them again (kube-controller-manager exits then; a library leaves it to its
   * caller).
   *
   * @return true after leadership was lost
   */
  public boolean lostLeadership() {
    return manager.lostLeadership();
  }

  /**
   * Stops the controllers (releasing the Lease when held), the informers and the clients. Calling
   * it again does nothing.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      manager.close();
    } finally {
      try {
        dynamic.shutdown();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        context.close();
      }
    }
  }

  private static List<ControllerDescriptor> choose(
      List<ControllerDescriptor> known, List<String> names) {
    Set<String> add = new LinkedHashSet<>();
    Set<String> remove = new LinkedHashSet<>();
    boolean star = false;
    for (String raw : names) {
      String name = raw.trim();
      if (name.equals("*")) {
        star = true;
        continue;
      }
      boolean minus = name.startsWith("-");
      String bare = minus ? name.substring(1) : name;
      ControllerDescriptor found =
          known.stream()
              .filter(d -> d.answersTo(bare))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "\""
                              + bare
                              + "\" is not in the list of known controllers: "
                              + known.stream()
                                  .map(ControllerDescriptor::name)
                                  .collect(Collectors.joining(", "))));
      (minus ? remove : add).add(found.name());
    }
    List<ControllerDescriptor> chosen = new ArrayList<>();
    for (ControllerDescriptor descriptor : known) {
      boolean on =
          !remove.contains(descriptor.name())
              && (add.contains(descriptor.name()) || (star && descriptor.enabledByDefault()));
      if (on) {
        chosen.add(descriptor);
      }
    }
    return List.copyOf(chosen);
  }

  /** Builds a {@link ControllerManager}. Not thread-safe. */
  public static final class Builder {
    private final ClientFactory clients;
    private final List<ControllerDescriptor> extra = new ArrayList<>();
    private List<String> controllers = List.of("*");
    private Clock clock = Clock.system();
    private List<SimulatedNode> nodes = List.of();
    private boolean leaderElection;
    private String identity = "machinery-" + UUID.randomUUID();
    private Duration leaseDuration = Duration.ofSeconds(15);
    private Duration renewDeadline = Duration.ofSeconds(10);
    private Duration retryPeriod = Duration.ofSeconds(2);
    private String rootCaCertificate = "";

    private Builder(ClientFactory clients) {
      this.clients = Objects.requireNonNull(clients, "clients");
    }

    /**
     * Chooses the controllers as kube-controller-manager's {@code --controllers} does; the default
     * is {@code *}.
     *
     * @param names names, {@code -name}s and {@code *}
     * @return this builder
     */
    public Builder controllers(List<String> names) {
      this.controllers = List.copyOf(names);
      return this;
    }

    /**
     * Adds a controller of the caller's own to the known ones.
     *
     * @param descriptor the controller
     * @return this builder
     */
    public Builder add(ControllerDescriptor descriptor) {
      extra.add(Objects.requireNonNull(descriptor, "descriptor"));
      return this;
    }

    /**
     * Sets the cluster's clock ({@link ControllerContext#clock()}); the system clock by default.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Sets the nodes to simulate; none by default.
     *
     * @param nodes the nodes
     * @return this builder
     */
    public Builder nodes(List<SimulatedNode> nodes) {
      this.nodes = List.copyOf(nodes);
      return this;
    }

    /**
     * Runs the controllers only while holding the {@code kube-system/kube-controller-manager}
     * Lease, with kube-controller-manager's timings (lease 15s, renew deadline 10s, retry 2s).
     *
     * @param identity this replica's identity in the Lease
     * @return this builder
     */
    public Builder leaderElection(String identity) {
      this.leaderElection = true;
      this.identity = Objects.requireNonNull(identity, "identity");
      return this;
    }

    /**
     * Runs the controllers only while holding the Lease, with other timings.
     *
     * @param identity this replica's identity in the Lease
     * @param leaseDuration how long a lease not renewed holds
     * @param renewDeadline how long the leader retries renewing before it stops leading
     * @param retryPeriod the time between tries
     * @return this builder
     */
    public Builder leaderElection(
        String identity, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
      leaderElection(identity);
      this.leaseDuration = leaseDuration;
      this.renewDeadline = renewDeadline;
      this.retryPeriod = retryPeriod;
      return this;
    }

    /**
     * Sets the CA bundle the root CA publisher writes into every namespace's {@code
     * kube-root-ca.crt} ConfigMap, as kube-controller-manager's {@code --root-ca-file}: the
     * certificates that verify the API server. None (the empty string) by default.
     *
     * @param pem PEM {@code CERTIFICATE} blocks
     * @return this builder
     */
    public Builder rootCaCertificate(String pem) {
      this.rootCaCertificate = Objects.requireNonNull(pem, "pem");
      return this;
    }

    /**
     * Builds the manager.
     *
     * @return the manager, not started
     * @throws IllegalArgumentException when {@code --controllers} names an unknown controller, or
     *     the leader election timings are out of range
     */
    public ControllerManager build() {
      return new ControllerManager(this);
    }

    private List<ControllerDescriptor> known() {
      List<ControllerDescriptor> all = new ArrayList<>(KnownControllers.all());
      all.addAll(extra);
      return all;
    }
  }
}
