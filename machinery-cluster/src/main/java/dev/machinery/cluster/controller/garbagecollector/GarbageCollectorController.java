package dev.machinery.cluster.controller.garbagecollector;

import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.ResourceEventHandler;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sets up kube-controller-manager's {@code garbage-collector-controller} (alias {@code
 * garbagecollector}) in a {@link ControllerContext}.
 *
 * <p>Monitors: an {@link Unstructured} informer of every resource discovery lists at its preferred
 * version with the verbs {@code delete}, {@code list} and {@code watch} (Events left out, as kube's
 * default ignored resources), read when the controller is set up and again every 30 seconds and
 * whenever a CustomResourceDefinition changes, so kinds added later are collected too. Their
 * notifications build the uid graph ({@link GraphBuilder}) at once, leader or not; the workers that
 * act on it ({@link GarbageCollector}, 20 as kube's {@code --concurrent-gc-syncs}) run only while
 * the manager runs its controllers. They share one queue: a request's namespace names the work
 * ({@value #ATTEMPT_TO_DELETE}, {@value #ATTEMPT_TO_ORPHAN} or {@value #RESYNC}), its name the
 * node's uid.
 *
 * <p>Thread-safe: informers, workers and the resync run on their own threads.
 */
public final class GarbageCollectorController {
  /** kube-controller-manager's name of the controller. */
  public static final String NAME = "garbage-collector-controller";

  /** The older name {@code --controllers} also accepts. */
  public static final String ALIAS = "garbagecollector";

  /** The service account the collector's requests are made as. */
  public static final String SERVICE_ACCOUNT = "generic-garbage-collector";

  /** The queue of objects that may be garbage. */
  static final String ATTEMPT_TO_DELETE = "attempt-to-delete";

  /** The queue of owners whose dependents are to be orphaned. */
  static final String ATTEMPT_TO_ORPHAN = "attempt-to-orphan";

  /** The request that reads discovery again and adjusts the monitors. */
  static final String RESYNC = "resync";

  /** How often discovery is read again (kube-controller-manager's garbage collector sync). */
  static final Duration RESYNC_PERIOD = Duration.ofSeconds(30);

  /**
   * How soon discovery is read again while a listed resource cannot be mapped yet by the shared
   * informers' client (its REST mapper is rebuilt at most every 10 seconds).
   */
  static final Duration RESYNC_RETRY = Duration.ofSeconds(2);

  /** Resources the collector does not monitor, as kube's {@code DefaultIgnoredResources}. */
  static final Set<GroupResource> IGNORED =
      Set.of(GroupResource.of("", "events"), GroupResource.of("events.k8s.io", "events"));

  private static final System.Logger LOG =
      System.getLogger(GarbageCollectorController.class.getName());
  private static final GroupVersionResource CRDS =
      GroupVersionResource.of("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  private static final Request RESYNC_REQUEST = new Request(RESYNC, "resources");

  private final ControllerContext context;
  private final Client client;
  private final EventRecorder recorder;
  private final GraphBuilder graph;
  private final GarbageCollector collector;
  private final Map<GroupVersionResource, Monitor> monitors = new LinkedHashMap<>();
  private volatile RateLimitingQueue<Request> queue;

  private record Monitor(
      SharedIndexInformer<Unstructured> informer, SharedIndexInformer.Registration registration) {}

  private GarbageCollectorController(ControllerContext context) {
    this.context = context;
    this.client = context.client(SERVICE_ACCOUNT);
    this.recorder = context.eventRecorder(NAME);
    this.graph = new GraphBuilder(new QueueSink());
    this.collector = new GarbageCollector(client, graph, this::enqueueDelete);
  }

  /**
   * Sets the garbage collector up: its monitors of the resources discovery lists now, and its
   * controller.
   *
   * @param context the controller's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    GarbageCollectorController gc = new GarbageCollectorController(context);
    Controller controller =
        Controller.builder(NAME, gc.new Dispatch())
            .watches(context.informer(CRDS), new ResyncOnChange())
            .workers(20)
            .build();
    gc.queue = controller.queue();
    try {
      gc.resyncMonitors();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "garbage collector: discovery failed; will retry", e);
    }
    controller.queue().add(RESYNC_REQUEST);
    context.add(controller);
  }

  private void enqueueDelete(Node node) {
    RateLimitingQueue<Request> q = queue;
    if (q != null) {
      q.add(new Request(ATTEMPT_TO_DELETE, node.identity().uid()));
    }
  }

  private final class QueueSink implements GraphBuilder.Sink {
    @Override
    public void attemptToDelete(Node node) {
      enqueueDelete(node);
    }

    @Override
    public void attemptToDeleteRateLimited(Node node) {
      RateLimitingQueue<Request> q = queue;
      if (q != null) {
        q.addRateLimited(new Request(ATTEMPT_TO_DELETE, node.identity().uid()));
      }
    }

    @Override
    public void attemptToOrphan(Node node) {
      RateLimitingQueue<Request> q = queue;
      if (q != null) {
        q.add(new Request(ATTEMPT_TO_ORPHAN, node.identity().uid()));
      }
    }

    @Override
    public void invalidNamespaceOwnerRef(Identity dependent, Identity invalidOwner) {
      Unstructured regarding = new Unstructured();
      regarding.setApiVersion(dependent.apiVersion());
      regarding.setKind(dependent.kind());
      regarding.setName(dependent.name());
      if (!dependent.namespace().isEmpty()) {
        regarding.setNamespace(dependent.namespace());
      }
      regarding.setUid(dependent.uid());
      try {
        recorder.eventf(
            regarding,
            null,
            Event.TYPE_WARNING,
            "OwnerRefInvalidNamespace",
            "ValidateOwnerReference",
            "ownerRef %s does not exist in namespace \"%s\"",
            invalidOwner,
            dependent.namespace());
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "garbage collector: event not recorded", e);
      }
    }
  }

  /** Any change of a CustomResourceDefinition: read discovery again. */
  private static final class ResyncOnChange implements EventHandler<Unstructured> {
    @Override
    public void create(Unstructured object, RateLimitingQueue<Request> queue) {
      queue.add(RESYNC_REQUEST);
    }

    @Override
    public void update(
        Unstructured oldObject, Unstructured newObject, RateLimitingQueue<Request> queue) {
      queue.add(RESYNC_REQUEST);
    }

    @Override
    public void delete(
        Unstructured object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
      queue.add(RESYNC_REQUEST);
    }
  }

  private final class Dispatch implements Reconciler {
    @Override
    public Result reconcile(Request request) throws Exception {
      switch (request.namespace()) {
        case RESYNC -> {
          // As kube's periodic sync: a failure is tried again after a fixed pause, not through
          // the growing back-off of the queue's rate limiter; sooner while a resource discovery
          // lists cannot be watched yet.
          try {
            return Result.requeueAfter(resyncMonitors() ? RESYNC_PERIOD : RESYNC_RETRY);
          } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "garbage collector: resync failed; retrying", e);
            return Result.requeueAfter(RESYNC_RETRY);
          }
        }
        case ATTEMPT_TO_DELETE -> {
          return result(collector.attemptToDelete(request.name()));
        }
        case ATTEMPT_TO_ORPHAN -> {
          return result(collector.attemptToOrphan(request.name()));
        }
        default -> {
          return Result.done();
        }
      }
    }

    private Result result(GarbageCollector.Action action) {
      return action == GarbageCollector.Action.REQUEUE
          ? Result.requeueRateLimited()
          : Result.done();
    }
  }

  /**
   * Reads discovery and makes the monitors match it: a monitor for each deletable resource not
   * monitored yet, and none for resources no longer served. A resource the shared informers' client
   * cannot map yet (defined moments ago) is left for the next, sooner, resync rather than handed to
   * an informer that would back off.
   *
   * @return true when every deletable resource is monitored
   */
  private boolean resyncMonitors() {
    List<ServerResources.Resource> resources = ServerResources.preferred(client.discovery());
    collector.discovered(resources);
    Map<GroupVersionResource, GroupVersionKind> deletable = new HashMap<>();
    for (ServerResources.Resource resource : resources) {
      if (resource.supports("delete", "list", "watch")
          && !IGNORED.contains(resource.resource().groupResource())) {
        deletable.put(resource.resource(), resource.kind());
      }
    }
    boolean complete = true;
    synchronized (monitors) {
      monitors
          .entrySet()
          .removeIf(
              entry -> {
                if (deletable.containsKey(entry.getKey())) {
                  return false;
                }
                entry.getValue().informer().removeEventHandler(entry.getValue().registration());
                return true;
              });
      for (Map.Entry<GroupVersionResource, GroupVersionKind> entry : deletable.entrySet()) {
        if (monitors.containsKey(entry.getKey())) {
          continue;
        }
        try {
          context.sharedClient().resources(entry.getKey()).mapping();
        } catch (RuntimeException notYet) {
          complete = false;
          continue;
        }
        SharedIndexInformer<Unstructured> informer = context.informer(entry.getKey());
        SharedIndexInformer.Registration registration =
            informer.addEventHandler(new MonitorHandler(entry.getValue()));
        monitors.put(entry.getKey(), new Monitor(informer, registration));
      }
    }
    return complete;
  }

  /** Turns a monitor's notifications into graph changes. */
  private final class MonitorHandler implements ResourceEventHandler<Unstructured> {
    private final String apiVersion;
    private final String kind;

    MonitorHandler(GroupVersionKind gvk) {
      this.apiVersion = gvk.group().isEmpty() ? gvk.version() : gvk.group() + "/" + gvk.version();
      this.kind = gvk.kind();
    }

    @Override
    public void onAdd(Unstructured object, boolean isInInitialList) {
      graph.process(
          new GraphBuilder.Event(
              GraphBuilder.EventType.ADD, false, object, null, apiVersion, kind));
    }

    @Override
    public void onUpdate(Unstructured oldObject, Unstructured newObject) {
      graph.process(
          new GraphBuilder.Event(
              GraphBuilder.EventType.UPDATE, false, newObject, oldObject, apiVersion, kind));
    }

    @Override
    public void onDelete(Unstructured object, boolean finalStateUnknown) {
      graph.process(
          new GraphBuilder.Event(
              GraphBuilder.EventType.DELETE, false, object, null, apiVersion, kind));
    }
  }

  /**
   * Returns the resources monitored, for tests.
   *
   * @return a snapshot
   */
  List<GroupVersionResource> monitored() {
    synchronized (monitors) {
      return List.copyOf(monitors.keySet());
    }
  }
}
