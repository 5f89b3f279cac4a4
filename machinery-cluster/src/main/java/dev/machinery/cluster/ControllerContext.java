package dev.machinery.cluster;

import dev.machinery.client.Client;
import dev.machinery.controller.Controller;
import dev.machinery.controller.Manager;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.cache.SharedInformerFactory;
import dev.machinery.controller.client.ClientListerWatcher;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.EventBroadcaster;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a controller is given when it is set up ({@link ControllerInitializer}): clients under its
 * own identity, the informers it shares with the other controllers, event recorders, the cluster's
 * clock and the simulated nodes.
 *
 * <p>Informers of typed classes ({@link #informer(Class)}) come from the manager's factory, which
 * starts them and waits for their caches before any controller runs; informers of {@link
 * Unstructured} objects by resource ({@link #informer(GroupVersionResource)}) come from a second
 * factory, so that one resource can be watched both ways; the manager starts it too, and an
 * informer asked for after the start is started at once (its user waits for its cache).
 *
 * <p>Thread-safe: controllers may ask for clients, informers and recorders from any thread.
 */
public final class ControllerContext {
  /** The namespace of the controllers' service accounts and of their Lease. */
  public static final String KUBE_SYSTEM = "kube-system";

  private final ClientFactory clients;
  private final Manager manager;
  private final SharedInformerFactory dynamic;
  private final StoppingClock clock;
  private final List<SimulatedNode> nodes;
  private final String instance;
  private final String rootCaCertificate;
  private final Map<String, Client> made = new LinkedHashMap<>();
  private final Map<String, EventBroadcaster> broadcasters = new LinkedHashMap<>();
  private boolean dynamicStarted;

  ControllerContext(
      ClientFactory clients,
      Manager manager,
      SharedInformerFactory dynamic,
      Clock clock,
      List<SimulatedNode> nodes,
      String instance,
      String rootCaCertificate) {
    this.clients = clients;
    this.manager = manager;
    this.dynamic = dynamic;
    this.clock = new StoppingClock(clock);
    this.nodes = List.copyOf(nodes);
    this.instance = instance;
    this.rootCaCertificate = rootCaCertificate;
  }

  /**
   * Returns the client of a controller's service account {@code kube-system/<serviceAccount>} (user
   * {@code system:serviceaccount:kube-system:<serviceAccount>}, in the groups {@code
   * system:serviceaccounts} and {@code system:serviceaccounts:kube-system}), which kube's bootstrap
   * roles {@code system:controller:<serviceAccount>} authorize.
   *
   * @param serviceAccount the service account's name, such as {@code deployment-controller}
   * @return the client, made once
   */
  public Client client(String serviceAccount) {
    Objects.requireNonNull(serviceAccount, "serviceAccount");
    return clientAs(
        "system:serviceaccount:" + KUBE_SYSTEM + ":" + serviceAccount,
        List.of("system:serviceaccounts", "system:serviceaccounts:" + KUBE_SYSTEM));
  }

  /**
   * Returns a client authenticated as any user, for components that are not controllers of
   * kube-controller-manager: the scheduler ({@code system:kube-scheduler}) and the simulated
   * kubelets ({@code system:node:<name>} in {@code system:nodes}).
   *
   * @param user the user name
   * @param groups the groups
   * @return the client, made once per user
   */
  public synchronized Client clientAs(String user, List<String> groups) {
    Objects.requireNonNull(user, "user");
    Client client = made.get(user);
    if (client == null) {
      client = Objects.requireNonNull(clients.client(user, List.copyOf(groups)), "client");
      made.put(user, client);
    }
    return client;
  }

  /**
   * Returns the client the shared informers list and watch through: kube-controller-manager's own
   * identity, {@code system:kube-controller-manager}.
   *
   * @return the client
   */
  public Client sharedClient() {
    return clientAs("system:kube-controller-manager", List.of());
  }

  /**
   * Returns the shared informer of a built-in kind's typed class (of {@code machinery-api}), over
   * all namespaces, created the first time.
   *
   * @param type the typed class, such as {@code dev.machinery.api.core.v1.Pod}
   * @param <T> the type
   * @return the informer
   */
  public <T> SharedIndexInformer<T> informer(Class<T> type) {
    Client client = sharedClient();
    GroupVersionResource resource = client.resources(type).mapping().resource();
    return manager
        .informers()
        .informerFor(resource, type, () -> new ClientListerWatcher<>(client.resources(type)));
  }

  /**
   * Returns the shared informer of a resource's objects as {@link Unstructured}, over all
   * namespaces, created the first time (and started at once when the manager already started).
   *
   * @param resource the resource
   * @return the informer
   */
  public SharedIndexInformer<Unstructured> informer(GroupVersionResource resource) {
    Client client = sharedClient();
    SharedIndexInformer<Unstructured> informer =
        dynamic.informerFor(
            resource,
            Unstructured.class,
            () -> new ClientListerWatcher<>(client.resources(resource)));
    synchronized (this) {
      if (dynamicStarted) {
        dynamic.start();
      }
    }
    return informer;
  }

  /**
   * Returns an event recorder reporting as the given controller: core {@code v1} Events (what
   * {@code kubectl get events} and {@code kubectl describe} show, as kube's controllers write them
   * through {@code tools/record}), written by that controller's service account client.
   *
   * @param reportingController the reporting controller, such as {@code deployment-controller}
   * @return the recorder
   */
  public synchronized EventRecorder eventRecorder(String reportingController) {
    EventBroadcaster broadcaster =
        broadcasters.computeIfAbsent(
            reportingController,
            name -> new EventBroadcaster(new CoreEventSink(client(name)), Clock.system()));
    return broadcaster.newRecorder(reportingController, instance);
  }

  /**
   * Returns the cluster's clock: what controllers read for the time of day as objects see it
   * (CronJob schedules, Job deadlines and TTLs, progress deadlines, the simulated kubelets'
   * durations) and schedule those wake-ups on. A test may pass a {@code FakeClock} and move it;
   * informers, queues and leader election keep the system clock.
   *
   * @return the clock
   */
  public Clock clock() {
    return clock;
  }

  /**
   * Returns the nodes to simulate.
   *
   * @return the nodes, possibly none
   */
  public List<SimulatedNode> nodes() {
    return nodes;
  }

  /**
   * Returns the CA bundle pods are given to verify the API server with (kube-controller-manager's
   * {@code --root-ca-file}): what the root CA publisher writes into every namespace's {@code
   * kube-root-ca.crt}.
   *
   * @return PEM {@code CERTIFICATE} blocks, or the empty string when none was given (kube then
   *     publishes its client configuration's CA data, empty over plain HTTP)
   */
  public String rootCaCertificate() {
    return rootCaCertificate;
  }

  /**
   * Returns this replica's identity, for a recorder's instance and leader election.
   *
   * @return the identity
   */
  public String instance() {
    return instance;
  }

  /**
   * Adds a controller, run by the manager (at once, or while leading).
   *
   * @param controller the controller
   * @throws InterruptedException when interrupted while a late controller waits for its caches
   */
  public void add(Controller controller) throws InterruptedException {
    manager.add(controller);
  }

  /** Starts the unstructured informers asked for so far, and later ones as they are asked for. */
  void startDynamicInformers() throws InterruptedException {
    synchronized (this) {
      dynamicStarted = true;
      dynamic.start();
    }
    dynamic.waitForCacheSync();
  }

  /**
   * Cancels the wake-ups still waiting on the cluster's clock, and closes the recorders and clients
   * (after the manager stopped).
   */
  void close() {
    clock.stop();
    List<AutoCloseable> toClose = new ArrayList<>();
    synchronized (this) {
      toClose.addAll(broadcasters.values());
      toClose.addAll(made.values());
      broadcasters.clear();
      made.clear();
    }
    for (AutoCloseable closeable : toClose) {
      try {
        closeable.close();
      } catch (Exception e) {
        // Closing is best effort: each is closed whatever the others did.
      }
    }
  }
}
