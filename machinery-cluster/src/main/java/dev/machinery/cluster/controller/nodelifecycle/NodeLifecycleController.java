package dev.machinery.cluster.controller.nodelifecycle;

import dev.machinery.api.coordination.v1.Lease;
import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.NodeCondition;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Cancellable;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's {@code node-lifecycle-controller}: it watches the nodes' heartbeats
 * (their {@code kube-node-lease} Lease's renew time and their {@code Ready} condition's heartbeat)
 * and, when neither moved within the grace period ({@link #GRACE_PERIOD}, on the cluster's clock),
 * sets every kubelet-owned condition to {@code Unknown} (reason {@code NodeStatusUnknown}, message
 * {@code Kubelet stopped posting node status.}) and the pods on the node {@code Ready=False}. It
 * keeps each node's taints in step with its conditions: {@code node.kubernetes.io/not-ready} for
 * {@code Ready=False}, {@code node.kubernetes.io/unreachable} for {@code Ready=Unknown} (both as
 * {@code NoSchedule} and, with the time added, {@code NoExecute}), the pressure conditions' {@code
 * NoSchedule} taints, and {@code node.kubernetes.io/unschedulable:NoSchedule} for {@code
 * spec.unschedulable}; a ready node loses them (among them the {@code not-ready:NoSchedule} taint
 * the {@code TaintNodesByCondition} admission plugin gives every new node).
 *
 * <p>Thread-safe: a controller's workers reconcile one node at a time each.
 */
public final class NodeLifecycleController implements Reconciler {
  /** The name in {@code --controllers}. */
  public static final String NAME = "node-lifecycle-controller";

  /** How long a node may go without a heartbeat: 40s. */
  public static final Duration GRACE_PERIOD = Duration.ofSeconds(40);

  /** The taint of a node whose {@code Ready} condition is {@code False}. */
  public static final String NOT_READY = "node.kubernetes.io/not-ready";

  /** The taint of a node whose {@code Ready} condition is {@code Unknown}. */
  public static final String UNREACHABLE = "node.kubernetes.io/unreachable";

  /** The taint of a node with {@code spec.unschedulable}. */
  public static final String UNSCHEDULABLE = "node.kubernetes.io/unschedulable";

  private static final String NODE_LEASE_NAMESPACE = "kube-node-lease";
  private static final Map<String, String> PRESSURE_TAINTS =
      Map.of(
          "MemoryPressure", "node.kubernetes.io/memory-pressure",
          "DiskPressure", "node.kubernetes.io/disk-pressure",
          "PIDPressure", "node.kubernetes.io/pid-pressure",
          "NetworkUnavailable", "node.kubernetes.io/network-unavailable");

  private final Lister<Node> nodes;
  private final Lister<Lease> leases;
  private final Lister<Pod> pods;
  private final Client client;
  private final EventRecorder events;
  private final Clock clock;
  private final Map<String, Cancellable> wakes = new ConcurrentHashMap<>();
  private volatile RateLimitingQueue<Request> queue;

  private NodeLifecycleController(
      Lister<Node> nodes,
      Lister<Lease> leases,
      Lister<Pod> pods,
      Client client,
      EventRecorder events,
      Clock clock) {
    this.nodes = nodes;
    this.leases = leases;
    this.pods = pods;
    this.client = client;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Sets the controller up: informers of nodes, Leases and pods, the client of the {@code
   * node-controller} service account.
   *
   * @param context the context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<Node> nodeInformer = context.informer(Node.class);
    SharedIndexInformer<Lease> leaseInformer = context.informer(Lease.class);
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    NodeLifecycleController reconciler =
        new NodeLifecycleController(
            nodeInformer.lister(),
            leaseInformer.lister(),
            podInformer.lister(),
            context.client("node-controller"),
            context.eventRecorder("node-controller"),
            context.clock());
    Controller controller =
        Controller.builder(NAME, reconciler)
            .watches(nodeInformer, EventHandlers.enqueueRequestForObject())
            .watches(leaseInformer, reconciler.nodeLeases())
            .workers(2)
            .build();
    reconciler.queue = controller.queue();
    context.add(controller);
  }

  private EventHandler<Lease> nodeLeases() {
    return new EventHandler<>() {
      @Override
      public void create(Lease lease, RateLimitingQueue<Request> queue) {
        enqueue(lease, queue);
      }

      @Override
      public void update(Lease oldLease, Lease newLease, RateLimitingQueue<Request> queue) {
        enqueue(newLease, queue);
      }

      @Override
      public void delete(Lease lease, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        enqueue(lease, queue);
      }

      private void enqueue(Lease lease, RateLimitingQueue<Request> queue) {
        if (NODE_LEASE_NAMESPACE.equals(lease.getMetadata().getNamespace())) {
          queue.add(new Request("", lease.getMetadata().getName()));
        }
      }
    };
  }

  @Override
  public Result reconcile(Request request) {
    try {
      return reconcileNode(request);
    } catch (RuntimeException e) {
      if (ApiErrors.isConflict(e)) {
        // The kubelet wrote the node meanwhile: look again once the cache has it.
        return Result.requeueRateLimited();
      }
      throw e;
    }
  }

  private Result reconcileNode(Request request) {
    Optional<Node> found = nodes.get(request.name());
    if (found.isEmpty()) {
      Cancellable wake = wakes.remove(request.name());
      if (wake != null) {
        wake.cancel();
      }
      return Result.done();
    }
    Node node = Copies.of(found.get());
    Instant now = clock.now();
    Instant probe = lastHeartbeat(node);
    boolean statusChanged = false;
    if (probe != null && now.isAfter(probe.plus(GRACE_PERIOD))) {
      statusChanged = markUnknown(node, now);
    } else if (probe != null) {
      schedule(request, probe.plus(GRACE_PERIOD).plusMillis(1));
    }
    if (statusChanged) {
      node = client.resources(Node.class).updateStatus(node, new UpdateOptions());
      events.eventf(
          node,
          null,
          Event.TYPE_NORMAL,
          "NodeNotReady",
          "NodeNotReady",
          "Node %s status is now: NodeNotReady",
          node.getMetadata().getName());
      markPodsNotReady(node.getMetadata().getName());
    }
    List<Taint> wanted = taints(node, now);
    if (!sameTaints(node.getSpec().getTaints(), wanted)) {
      Node copy = Copies.of(node);
      copy.getSpec().setTaints(wanted.isEmpty() ? null : wanted);
      try {
        client.resources(Node.class).update(copy);
      } catch (RuntimeException e) {
        if (ApiErrors.isConflict(e)) {
          return Result.requeueRateLimited();
        }
        throw e;
      }
    }
    return Result.done();
  }

  private void schedule(Request request, Instant when) {
    Cancellable previous =
        wakes.put(
            request.name(),
            clock.scheduleAt(
                when,
                () -> {
                  RateLimitingQueue<Request> q = queue;
                  if (q != null) {
                    q.add(request);
                  }
                }));
    if (previous != null) {
      previous.cancel();
    }
  }

  /** The later of the Lease's renew time and the Ready condition's heartbeat. */
  private Instant lastHeartbeat(Node node) {
    Instant latest = null;
    Optional<Lease> lease =
        leases.namespace(NODE_LEASE_NAMESPACE).get(node.getMetadata().getName());
    if (lease.isPresent()
        && lease.get().getSpec() != null
        && lease.get().getSpec().getRenewTime() != null) {
      latest = lease.get().getSpec().getRenewTime().instant();
    }
    NodeCondition ready = condition(node, "Ready");
    if (ready != null && ready.getLastHeartbeatTime() != null) {
      Instant heartbeat = ready.getLastHeartbeatTime().instant();
      latest = latest == null || heartbeat.isAfter(latest) ? heartbeat : latest;
    }
    if (latest == null && node.getMetadata().getCreationTimestamp() != null) {
      latest = node.getMetadata().getCreationTimestamp();
    }
    return latest;
  }

  private static boolean markUnknown(Node node, Instant now) {
    if (node.getStatus() == null) {
      node.setStatus(new dev.machinery.api.core.v1.NodeStatus());
    }
    List<NodeCondition> conditions =
        node.getStatus().getConditions() == null
            ? new ArrayList<>()
            : new ArrayList<>(node.getStatus().getConditions());
    boolean changed = false;
    Time time = new Time(now.truncatedTo(ChronoUnit.SECONDS));
    for (String type : List.of("Ready", "MemoryPressure", "DiskPressure", "PIDPressure")) {
      NodeCondition existing = null;
      for (NodeCondition c : conditions) {
        if (type.equals(c.getType())) {
          existing = c;
        }
      }
      if (existing != null && "Unknown".equals(existing.getStatus())) {
        continue;
      }
      NodeCondition unknown = new NodeCondition();
      unknown.setType(type);
      unknown.setStatus("Unknown");
      unknown.setReason("NodeStatusUnknown");
      unknown.setMessage("Kubelet stopped posting node status.");
      unknown.setLastHeartbeatTime(existing == null ? null : existing.getLastHeartbeatTime());
      unknown.setLastTransitionTime(time);
      if (existing == null) {
        unknown.setReason("NodeStatusNeverUpdated");
        unknown.setMessage("Kubelet never posted node status.");
        conditions.add(unknown);
      } else {
        conditions.set(conditions.indexOf(existing), unknown);
      }
      changed = true;
    }
    node.getStatus().setConditions(conditions);
    return changed;
  }

  private void markPodsNotReady(String nodeName) {
    for (Pod pod : pods.list(dev.machinery.unversioned.labels.Selector.everything())) {
      if (pod.getSpec() == null || !nodeName.equals(pod.getSpec().getNodeName())) {
        continue;
      }
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
        continue;
      }
      Pod copy = Copies.of(pod);
      if (copy.getStatus() == null || copy.getStatus().getConditions() == null) {
        continue;
      }
      boolean changed = false;
      for (PodCondition condition : copy.getStatus().getConditions()) {
        if ("Ready".equals(condition.getType()) && !"False".equals(condition.getStatus())) {
          condition.setStatus("False");
          condition.setLastTransitionTime(new Time(clock.now().truncatedTo(ChronoUnit.SECONDS)));
          changed = true;
        }
      }
      if (!changed) {
        continue;
      }
      try {
        client
            .resources(Pod.class)
            .inNamespace(pod.getMetadata().getNamespace())
            .updateStatus(copy, new UpdateOptions());
      } catch (RuntimeException e) {
        if (!ApiErrors.isNotFound(e) && !ApiErrors.isConflict(e)) {
          throw e;
        }
      }
    }
  }

  /**
   * Returns the taints a node should carry: its own taints other than the ones this controller
   * manages, then those its conditions and {@code spec.unschedulable} call for (a {@code NoExecute}
   * taint kept with its time added when already present).
   *
   * @param node the node
   * @param now the time for new {@code NoExecute} taints
   * @return the taints
   */
  static List<Taint> taints(Node node, Instant now) {
    List<Taint> current =
        node.getSpec() == null || node.getSpec().getTaints() == null
            ? List.of()
            : node.getSpec().getTaints();
    List<Taint> out = new ArrayList<>();
    for (Taint taint : current) {
      if (!managed(taint)) {
        out.add(taint);
      }
    }
    NodeCondition ready = condition(node, "Ready");
    String readyStatus = ready == null ? null : ready.getStatus();
    if (readyStatus == null) {
      // No status posted yet: the taints admission gave the node stay until it is.
      for (Taint taint : current) {
        if (NOT_READY.equals(taint.getKey()) || UNREACHABLE.equals(taint.getKey())) {
          out.add(taint);
        }
      }
    } else if ("False".equals(readyStatus)) {
      out.add(taint(NOT_READY, "NoSchedule", null));
      out.add(keep(current, NOT_READY, "NoExecute", now));
    } else if (!"True".equals(readyStatus)) {
      out.add(taint(UNREACHABLE, "NoSchedule", null));
      out.add(keep(current, UNREACHABLE, "NoExecute", now));
    }
    for (Map.Entry<String, String> entry : new java.util.TreeMap<>(PRESSURE_TAINTS).entrySet()) {
      NodeCondition c = condition(node, entry.getKey());
      if (c != null && "True".equals(c.getStatus())) {
        out.add(taint(entry.getValue(), "NoSchedule", null));
      }
    }
    if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
      out.add(taint(UNSCHEDULABLE, "NoSchedule", null));
    }
    return out;
  }

  private static boolean managed(Taint taint) {
    String key = taint.getKey();
    if (NOT_READY.equals(key) || UNREACHABLE.equals(key)) {
      return "NoSchedule".equals(taint.getEffect()) || "NoExecute".equals(taint.getEffect());
    }
    return (PRESSURE_TAINTS.containsValue(key) || UNSCHEDULABLE.equals(key))
        && "NoSchedule".equals(taint.getEffect());
  }

  private static Taint keep(List<Taint> current, String key, String effect, Instant now) {
    for (Taint taint : current) {
      if (key.equals(taint.getKey()) && effect.equals(taint.getEffect())) {
        return taint;
      }
    }
    return taint(key, effect, new Time(now.truncatedTo(ChronoUnit.SECONDS)));
  }

  private static Taint taint(String key, String effect, Time added) {
    Taint taint = new Taint();
    taint.setKey(key);
    taint.setEffect(effect);
    taint.setTimeAdded(added);
    return taint;
  }

  private static boolean sameTaints(List<Taint> a, List<Taint> b) {
    List<Taint> left = a == null ? List.of() : a;
    return left.size() == b.size()
        && new java.util.HashSet<>(left).equals(new java.util.HashSet<>(b));
  }

  private static NodeCondition condition(Node node, String type) {
    if (node.getStatus() == null || node.getStatus().getConditions() == null) {
      return null;
    }
    for (NodeCondition c : node.getStatus().getConditions()) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  static boolean equal(Object a, Object b) {
    return Objects.equals(a, b);
  }
}
