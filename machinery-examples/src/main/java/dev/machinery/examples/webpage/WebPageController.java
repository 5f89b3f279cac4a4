package dev.machinery.examples.webpage;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.client.Client;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Manager;
import dev.machinery.controller.Predicates;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.client.ClientEventSink;
import dev.machinery.controller.client.ClientLeaseLock;
import dev.machinery.controller.client.ClientListerWatcher;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.EventBroadcaster;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionResource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The WebPage controller, run by a {@link Manager}: an informer of the namespace's WebPages and one
 * of its ConfigMaps, a {@link WebPageReconciler} with two workers, reconciles triggered by a page's
 * creation and spec changes ({@code generationChanged}) and by any change to a ConfigMap a page
 * controls ({@code enqueueRequestForOwner}), and events written as {@code events.k8s.io/v1} Events
 * by the reporting controller {@value #REPORTING_CONTROLLER}. With leader election the controller
 * runs only while this replica holds the Lease {@value #LEASE_NAME} of the namespace.
 *
 * <p>Thread-safe: {@link #close()} may be called from any thread, once or more.
 */
public final class WebPageController implements AutoCloseable {
  /** The reporting controller of the events. */
  public static final String REPORTING_CONTROLLER = "web.example.dev/webpage-controller";

  /** The name of the Lease that elects the leader. */
  public static final String LEASE_NAME = "webpage-controller";

  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");

  private final Manager manager;
  private final EventBroadcaster broadcaster;

  private WebPageController(Manager manager, EventBroadcaster broadcaster) {
    this.manager = manager;
    this.broadcaster = broadcaster;
  }

  /**
   * A Scheme of Kubernetes' built-in kinds (machinery-api's typed models) and the WebPage.
   *
   * @return the Scheme a client of the controller is built with
   */
  public static Scheme scheme() {
    return KubernetesApi.addToScheme(Scheme.builder())
        .addKnownTypes(WebPage.V1, WebPage.class)
        .build();
  }

  /**
   * The WebPage CustomResourceDefinition, as YAML.
   *
   * @return the manifest
   * @throws UncheckedIOException if the resource cannot be read
   */
  public static String customResourceDefinition() {
    try (InputStream in = WebPage.class.getResourceAsStream(WebPage.CRD_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + WebPage.CRD_RESOURCE + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts the controller without leader election: informers, cache sync, then the workers.
   *
   * @param client a client whose Scheme holds the WebPage and ConfigMap ({@link #scheme()})
   * @param namespace the namespace whose pages it serves
   * @param identity this replica's name, the events' reporting instance
   * @return the running controller
   * @throws InterruptedException if interrupted while the caches sync
   */
  public static WebPageController start(Client client, String namespace, String identity)
      throws InterruptedException {
    return start(client, namespace, identity, null);
  }

  /**
   * Starts the controller; with a lease duration, only while this replica leads (renew deadline two
   * thirds, retry period two fifteenths of it: kube-controller-manager's 15s, 10s and 2s scaled).
   *
   * @param client a client whose Scheme holds the WebPage and ConfigMap ({@link #scheme()})
   * @param namespace the namespace whose pages it serves and whose Lease elects the leader
   * @param identity this replica's name: the events' reporting instance and the Lease holder
   * @param leaseDuration the Lease's duration, or {@code null} for no leader election
   * @return the running controller
   * @throws InterruptedException if interrupted while the caches sync
   * @throws IllegalArgumentException if the namespace or identity is empty
   */
  public static WebPageController start(
      Client client, String namespace, String identity, Duration leaseDuration)
      throws InterruptedException {
    Objects.requireNonNull(client, "client");
    if (namespace == null || namespace.isEmpty()) {
      throw new IllegalArgumentException("namespace: must not be empty");
    }
    if (identity == null || identity.isEmpty()) {
      throw new IllegalArgumentException("identity: must not be empty");
    }
    Manager.Builder builder = Manager.builder("webpage-manager");
    if (leaseDuration != null) {
      builder.leaderElection(
          new ClientLeaseLock(client, namespace, LEASE_NAME, identity),
          leaseDuration,
          leaseDuration.multipliedBy(2).dividedBy(3),
          leaseDuration.multipliedBy(2).dividedBy(15));
    }
    Manager manager = builder.build();
    EventBroadcaster broadcaster =
        new EventBroadcaster(new ClientEventSink(client), Clock.system());
    try {
      SharedIndexInformer<WebPage> pages =
          manager
              .informers()
              .informerFor(
                  WebPage.RESOURCE,
                  WebPage.class,
                  () ->
                      new ClientListerWatcher<>(
                          client.resources(WebPage.class).inNamespace(namespace)));
      SharedIndexInformer<ConfigMap> configMaps =
          manager
              .informers()
              .informerFor(
                  CONFIGMAPS,
                  ConfigMap.class,
                  () ->
                      new ClientListerWatcher<>(
                          client.resources(ConfigMap.class).inNamespace(namespace)));
      EventRecorder recorder = broadcaster.newRecorder(REPORTING_CONTROLLER, identity);
      manager.add(
          Controller.builder(
                  "webpages",
                  new WebPageReconciler(client, pages.lister(), configMaps.lister(), recorder))
              .watches(
                  pages,
                  EventHandlers.enqueueRequestForObject(),
                  List.of(Predicates.generationChanged()))
              .watches(
                  configMaps,
                  EventHandlers.enqueueRequestForOwner(WebPage.GROUP, WebPage.KIND, true, true))
              .workers(2)
              .build());
      manager.start();
    } catch (InterruptedException | RuntimeException e) {
      manager.close();
      broadcaster.close();
      throw e;
    }
    return new WebPageController(manager, broadcaster);
  }

  /**
   * Whether this replica runs the reconciler now (always, without leader election).
   *
   * @return whether the controller runs
   */
  public boolean isRunning() {
    return manager.isRunningControllers();
  }

  /**
   * Whether this replica led and lost the Lease; a process should then exit, as
   * controller-runtime's does.
   *
   * @return whether leadership was lost
   */
  public boolean lostLeadership() {
    return manager.lostLeadership();
  }

  /** Stops the controller, the election (releasing a held Lease) and the informers. */
  @Override
  public void close() {
    manager.close();
    broadcaster.close();
  }
}
