package dev.machinery.cluster.scheduler;

import dev.machinery.api.core.v1.Binding;
import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.ObjectReference;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.api.core.v1.Toleration;
import dev.machinery.client.Client;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.ResourceEventHandler;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.CreateOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A scheduler for the simulated nodes, as kube-scheduler's default profile decides: it binds each
 * pending pod of {@code schedulerName: default-scheduler} (and without {@code nodeName}) to a node
 * that passes the filters {@code NodeUnschedulable} ({@code spec.unschedulable}, unless the pod
 * tolerates {@code node.kubernetes.io/unschedulable:NoSchedule}), {@code TaintToleration} ({@code
 * NoSchedule} and {@code NoExecute} taints, including the {@code not-ready} and {@code unreachable}
 * taints of nodes that are not ready), {@code NodeAffinity} ({@code nodeSelector} and required node
 * affinity) and {@code NodeResourcesFit} (requests against allocatable less what the node's pods
 * request, and the pod count), scoring the survivors by least allocated cpu and memory and by
 * untolerated {@code PreferNoSchedule} taints (weight 3), ties broken at random.
 *
 * <p>Node usage is kept from the pod informer's events and the pods this scheduler assumed, so one
 * pod's scheduling costs one pass over the nodes. A pod no node fits gets {@code
 * PodScheduled=False} with reason {@code Unschedulable} and kube's message, and a {@code
 * FailedScheduling} warning event; it is tried again when a node or a pod changes (and every five
 * minutes, as kube's unschedulable queue flushes). Binding writes {@code spec.nodeName} as a JSON
 * merge patch carrying the resource version read (a pod changed meanwhile is a conflict and is
 * retried) and then the {@code PodScheduled=True} condition through {@code pods/status}.
 *
 * <p>Thread-safe: the workers share the usage under one lock.
 */
public final class KubeScheduler implements Reconciler {
  /** The scheduler's name in {@code --controllers}. */
  public static final String NAME = "kube-scheduler";

  /** The user the scheduler acts as. */
  public static final String USER = "system:kube-scheduler";

  /** The {@code schedulerName} this scheduler serves. */
  public static final String DEFAULT_SCHEDULER = "default-scheduler";

  /** The taint {@code kubectl cordon}'s {@code spec.unschedulable} stands for. */
  public static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

  private static final Duration UNSCHEDULABLE_FLUSH = Duration.ofMinutes(5);

  private final Lister<Pod> pods;
  private final Lister<Node> nodes;
  private final ResourceClient<Pod> podClient;
  private final EventRecorder events;
  private final Clock clock;
  private final Map<String, Placed> placed = new HashMap<>();
  private final Map<String, Usage> usage = new HashMap<>();
  private final Set<String> unschedulable = new HashSet<>();
  private volatile RateLimitingQueue<Request> queue;

  private record Placed(String node, Map<String, Long> requests, long[] nonZero) {}

  private static final class Usage {
    final Map<String, Long> used = new HashMap<>();
    final long[] nonZero = new long[2];

    void add(Placed pod, int sign) {
      pod.requests.forEach((name, amount) -> used.merge(name, sign * amount, Long::sum));
      used.merge(NodeFit.PODS, (long) sign, Long::sum);
      nonZero[0] += sign * pod.nonZero[0];
      nonZero[1] += sign * pod.nonZero[1];
    }
  }

  KubeScheduler(
      Lister<Pod> pods,
      Lister<Node> nodes,
      ResourceClient<Pod> podClient,
      EventRecorder events,
      Clock clock) {
    this.pods = pods;
    this.nodes = nodes;
    this.podClient = podClient;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Sets the scheduler up in a controller manager: its informers of pods and nodes, its client as
   * {@code system:kube-scheduler}, and a controller of four workers.
   *
   * @param context the context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    SharedIndexInformer<Node> nodeInformer = context.informer(Node.class);
    Client client = context.clientAs(USER, List.of());
    KubeScheduler scheduler =
        new KubeScheduler(
            podInformer.lister(),
            nodeInformer.lister(),
            client.resources(Pod.class),
            context.eventRecorder(DEFAULT_SCHEDULER),
            context.clock());
    podInformer.addEventHandler(scheduler.podAccounting());
    Controller controller =
        Controller.builder(NAME, scheduler)
            .watches(podInformer, scheduler.pendingPods())
            .watches(nodeInformer, scheduler.nodeChanges())
            .workers(4)
            .build();
    scheduler.queue = controller.queue();
    context.add(controller);
  }

  static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  static boolean terminal(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  static boolean ours(Pod pod) {
    String name = pod.getSpec() == null ? null : pod.getSpec().getSchedulerName();
    return name == null || name.isEmpty() || DEFAULT_SCHEDULER.equals(name);
  }

  static boolean pending(Pod pod) {
    return pod.getSpec() != null
        && (pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty())
        && pod.getMetadata().getDeletionTimestamp() == null
        && !terminal(pod)
        && ours(pod)
        && (pod.getSpec().getSchedulingGates() == null
            || pod.getSpec().getSchedulingGates().isEmpty());
  }

  private ResourceEventHandler<Pod> podAccounting() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod, boolean isInInitialList) {
        account(pod);
      }

      @Override
      public void onUpdate(Pod oldPod, Pod newPod) {
        account(newPod);
      }

      @Override
      public void onDelete(Pod pod, boolean finalStateUnknown) {
        forget(key(pod));
        retryUnschedulable();
      }
    };
  }

  private void account(Pod pod) {
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (node == null || node.isEmpty()) {
      return;
    }
    if (terminal(pod)) {
      if (forget(key(pod))) {
        retryUnschedulable();
      }
      return;
    }
    synchronized (this) {
      Placed now = new Placed(node, NodeFit.requests(pod), NodeFit.nonZeroRequests(pod));
      Placed before = placed.put(key(pod), now);
      if (before != null) {
        usage.computeIfAbsent(before.node, n -> new Usage()).add(before, -1);
      }
      usage.computeIfAbsent(node, n -> new Usage()).add(now, 1);
    }
  }

  private synchronized boolean forget(String key) {
    Placed before = placed.remove(key);
    if (before == null) {
      return false;
    }
    usage.computeIfAbsent(before.node, n -> new Usage()).add(before, -1);
    return true;
  }

  private void retryUnschedulable() {
    RateLimitingQueue<Request> q = queue;
    List<String> keys;
    synchronized (this) {
      if (unschedulable.isEmpty() || q == null) {
        return;
      }
      keys = new ArrayList<>(unschedulable);
    }
    for (String key : keys) {
      int slash = key.indexOf('/');
      q.add(new Request(key.substring(0, slash), key.substring(slash + 1)));
    }
  }

  private EventHandler<Pod> pendingPods() {
    return new EventHandler<>() {
      @Override
      public void create(Pod pod, RateLimitingQueue<Request> queue) {
        if (pending(pod)) {
          queue.add(Request.of(pod));
        }
      }

      @Override
      public void update(Pod oldPod, Pod newPod, RateLimitingQueue<Request> queue) {
        if (pending(newPod)) {
          queue.add(Request.of(newPod));
        }
      }

      @Override
      public void delete(Pod pod, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        synchronized (KubeScheduler.this) {
          unschedulable.remove(key(pod));
        }
      }
    };
  }

  private EventHandler<Node> nodeChanges() {
    return new EventHandler<>() {
      @Override
      public void create(Node node, RateLimitingQueue<Request> queue) {
        retryUnschedulable();
      }

      @Override
      public void update(Node oldNode, Node newNode, RateLimitingQueue<Request> queue) {
        if (!java.util.Objects.equals(oldNode.getSpec(), newNode.getSpec())
            || !java.util.Objects.equals(
                oldNode.getMetadata().getLabels(), newNode.getMetadata().getLabels())
            || !java.util.Objects.equals(
                NodeFit.allocatable(oldNode), NodeFit.allocatable(newNode))) {
          retryUnschedulable();
        }
      }

      @Override
      public void delete(Node node, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        retryUnschedulable();
      }
    };
  }

  /** What filtering found for one pod: the chosen node, or each node's reasons. */
  record Decision(String node, List<List<String>> reasons, List<Boolean> unresolvable) {}

  /**
   * Filters and scores the nodes for a pod and, when one fits, assumes the pod on it (its requests
   * counted there until the binding fails or the pod's own update arrives).
   */
  synchronized Decision decide(Pod pod, List<Node> candidates) {
    Map<String, Long> requests = NodeFit.requests(pod);
    long[] nonZero = NodeFit.nonZeroRequests(pod);
    List<List<String>> reasons = new ArrayList<>();
    List<Boolean> unresolvable = new ArrayList<>();
    List<Node> feasible = new ArrayList<>();
    List<Long> resourceScores = new ArrayList<>();
    List<Integer> preferNoSchedule = new ArrayList<>();
    for (Node node : candidates) {
      Optional<String> hard = hardFailure(pod, node);
      if (hard.isPresent()) {
        reasons.add(List.of(hard.get()));
        unresolvable.add(true);
        continue;
      }
      Map<String, Long> allocatable = NodeFit.allocatable(node);
      Usage used = usage.get(node.getMetadata().getName());
      Map<String, Long> usedAmounts = used == null ? Map.of() : used.used;
      List<String> short_ = NodeFit.insufficient(requests, allocatable, usedAmounts);
      if (!short_.isEmpty()) {
        reasons.add(short_);
        unresolvable.add(false);
        continue;
      }
      feasible.add(node);
      resourceScores.add(
          NodeFit.leastAllocatedScore(
              allocatable, used == null ? new long[2] : used.nonZero, nonZero));
      preferNoSchedule.add(NodeFit.intolerablePreferNoSchedule(node, pod));
    }
    if (feasible.isEmpty()) {
      return new Decision(null, reasons, unresolvable);
    }
    int maxIntolerable = preferNoSchedule.stream().mapToInt(Integer::intValue).max().orElse(0);
    long best = Long.MIN_VALUE;
    String chosen = null;
    int ties = 0;
    for (int i = 0; i < feasible.size(); i++) {
      long taintScore =
          maxIntolerable == 0 ? 100 : 100 - (100L * preferNoSchedule.get(i) / maxIntolerable);
      long score = resourceScores.get(i) + 3 * taintScore;
      if (score > best) {
        best = score;
        chosen = feasible.get(i).getMetadata().getName();
        ties = 1;
      } else if (score == best) {
        ties++;
        if (ThreadLocalRandom.current().nextInt(ties) == 0) {
          chosen = feasible.get(i).getMetadata().getName();
        }
      }
    }
    Placed assumed = new Placed(chosen, requests, nonZero);
    Placed before = placed.put(key(pod), assumed);
    if (before != null) {
      usage.computeIfAbsent(before.node, n -> new Usage()).add(before, -1);
    }
    usage.computeIfAbsent(chosen, n -> new Usage()).add(assumed, 1);
    unschedulable.remove(key(pod));
    return new Decision(chosen, reasons, unresolvable);
  }

  /** The filters whose failure no preemption cures, in kube's default order. */
  static Optional<String> hardFailure(Pod pod, Node node) {
    List<Toleration> tolerations = pod.getSpec().getTolerations();
    if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
      Taint cordon = new Taint();
      cordon.setKey(UNSCHEDULABLE_TAINT);
      cordon.setEffect("NoSchedule");
      if (!NodeFit.tolerated(tolerations, cordon)) {
        return Optional.of("node(s) were unschedulable");
      }
    }
    Optional<Taint> taint = NodeFit.untoleratedTaint(node, pod);
    if (taint.isPresent()) {
      return Optional.of(NodeFit.untoleratedTaintReason(taint.get()));
    }
    if (!NodeFit.matchesNodeSelectorAndAffinity(pod, node)) {
      return Optional.of("node(s) didn't match Pod's node affinity/selector");
    }
    return Optional.empty();
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<Pod> found = pods.namespace(request.namespace()).get(request.name());
    String key = request.namespace() + "/" + request.name();
    if (found.isEmpty() || !pending(found.get())) {
      synchronized (this) {
        unschedulable.remove(key);
      }
      return Result.done();
    }
    Pod pod = found.get();
    synchronized (this) {
      if (placed.containsKey(key)) {
        return Result.done(); // assumed: bound, its update not seen yet
      }
    }
    Decision decision =
        decide(pod, nodes.list(dev.machinery.unversioned.labels.Selector.everything()));
    if (decision.node() == null) {
      return unschedulable(pod, key, decision);
    }
    try {
      bind(pod, decision.node());
    } catch (Exception e) {
      forget(key);
      if (ApiErrors.isNotFound(e)) {
        return Result.done();
      }
      throw e;
    }
    events.eventf(
        pod,
        null,
        Event.TYPE_NORMAL,
        "Scheduled",
        "Binding",
        "Successfully assigned %s to %s",
        key,
        decision.node());
    return Result.done();
  }

  private void bind(Pod pod, String node) {
    Binding binding = new Binding();
    binding.setApiVersion("v1");
    binding.setKind("Binding");
    ObjectMeta meta = new ObjectMeta();
    meta.setName(pod.getMetadata().getName());
    meta.setNamespace(pod.getMetadata().getNamespace());
    meta.setUid(pod.getMetadata().getUid());
    binding.setMetadata(meta);
    ObjectReference target = new ObjectReference();
    target.setKind("Node");
    target.setName(node);
    binding.setTarget(target);
    podClient
        .inNamespace(pod.getMetadata().getNamespace())
        .createSubresource(
            pod.getMetadata().getName(), "binding", binding, Status.class, new CreateOptions());
  }

  private Result unschedulable(Pod pod, String key, Decision decision) {
    String message =
        NodeFit.fitErrorMessage(
            decision.reasons().size(), decision.reasons(), decision.unresolvable());
    synchronized (this) {
      unschedulable.add(key);
    }
    PodCondition current = condition(pod, "PodScheduled");
    if (current == null
        || !"False".equals(current.getStatus())
        || !"Unschedulable".equals(current.getReason())
        || !message.equals(current.getMessage())) {
      String transition =
          current != null
                  && "False".equals(current.getStatus())
                  && current.getLastTransitionTime() != null
              ? current.getLastTransitionTime().toString()
              : new Time(clock.now()).toString();
      podClient
          .inNamespace(pod.getMetadata().getNamespace())
          .patch(
              pod.getMetadata().getName(),
              PatchType.STRATEGIC_MERGE,
              "{\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"False\","
                  + "\"lastProbeTime\":null,\"lastTransitionTime\":\""
                  + transition
                  + "\",\"reason\":\"Unschedulable\",\"message\":"
                  + quote(message)
                  + "}]}}",
              new PatchOptions(),
              "status");
      events.eventf(pod, null, Event.TYPE_WARNING, "FailedScheduling", "Scheduling", "%s", message);
    }
    return Result.requeueAfter(UNSCHEDULABLE_FLUSH);
  }

  static PodCondition condition(Pod pod, String type) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    for (PodCondition condition : pod.getStatus().getConditions()) {
      if (type.equals(condition.getType())) {
        return condition;
      }
    }
    return null;
  }

  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
