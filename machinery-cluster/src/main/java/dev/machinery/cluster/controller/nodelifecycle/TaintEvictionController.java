package dev.machinery.cluster.controller.nodelifecycle;

import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.api.core.v1.Toleration;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.scheduler.NodeFit;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
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
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's {@code taint-eviction-controller}: a pod bound to a node with a {@code
 * NoExecute} taint it does not tolerate is deleted at once; one that tolerates every such taint,
 * some only for {@code tolerationSeconds}, is deleted when the shortest of those runs out (counted
 * from the taint's {@code timeAdded}, on the cluster's clock); one that tolerates them without a
 * limit stays. Before deleting, the pod gets the condition {@code DisruptionTarget=True} (reason
 * {@code DeletionByTaintManager}) and a {@code TaintManagerEviction} event. The 300s tolerations of
 * {@code not-ready} and {@code unreachable} that most pods carry come from the {@code
 * DefaultTolerationSeconds} admission plugin.
 *
 * <p>Thread-safe.
 */
public final class TaintEvictionController implements Reconciler {
  /** The name in {@code --controllers}. */
  public static final String NAME = "taint-eviction-controller";

  private final Lister<Pod> pods;
  private final Lister<Node> nodes;
  private final ResourceClient<Pod> client;
  private final EventRecorder events;
  private final Clock clock;
  private final Map<String, Cancellable> wakes = new ConcurrentHashMap<>();
  private volatile RateLimitingQueue<Request> queue;

  private TaintEvictionController(
      Lister<Pod> pods,
      Lister<Node> nodes,
      ResourceClient<Pod> client,
      EventRecorder events,
      Clock clock) {
    this.pods = pods;
    this.nodes = nodes;
    this.client = client;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Sets the controller up, with the {@code taint-eviction-controller} service account's client.
   *
   * @param context the context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    SharedIndexInformer<Node> nodeInformer = context.informer(Node.class);
    TaintEvictionController reconciler =
        new TaintEvictionController(
            podInformer.lister(),
            nodeInformer.lister(),
            context.client(NAME).resources(Pod.class),
            context.eventRecorder(NAME),
            context.clock());
    Controller controller =
        Controller.builder(NAME, reconciler)
            .watches(podInformer, reconciler.boundPods())
            .watches(nodeInformer, reconciler.taintedNodes())
            .workers(2)
            .build();
    reconciler.queue = controller.queue();
    context.add(controller);
  }

  private EventHandler<Pod> boundPods() {
    return new EventHandler<>() {
      @Override
      public void create(Pod pod, RateLimitingQueue<Request> queue) {
        if (bound(pod)) {
          queue.add(Request.of(pod));
        }
      }

      @Override
      public void update(Pod oldPod, Pod newPod, RateLimitingQueue<Request> queue) {
        if (bound(newPod)
            && (!bound(oldPod)
                || !java.util.Objects.equals(
                    oldPod.getSpec().getTolerations(), newPod.getSpec().getTolerations()))) {
          queue.add(Request.of(newPod));
        }
      }

      @Override
      public void delete(Pod pod, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {}
    };
  }

  private EventHandler<Node> taintedNodes() {
    return new EventHandler<>() {
      @Override
      public void create(Node node, RateLimitingQueue<Request> queue) {
        if (!noExecute(node).isEmpty()) {
          enqueuePods(node, queue);
        }
      }

      @Override
      public void update(Node oldNode, Node newNode, RateLimitingQueue<Request> queue) {
        if (!noExecute(oldNode).equals(noExecute(newNode))) {
          enqueuePods(newNode, queue);
        }
      }

      @Override
      public void delete(Node node, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {}
    };
  }

  private void enqueuePods(Node node, RateLimitingQueue<Request> queue) {
    String name = node.getMetadata().getName();
    for (Pod pod : pods.list(dev.machinery.unversioned.labels.Selector.everything())) {
      if (name.equals(pod.getSpec().getNodeName())) {
        queue.add(Request.of(pod));
      }
    }
  }

  private static boolean bound(Pod pod) {
    return pod.getSpec() != null
        && pod.getSpec().getNodeName() != null
        && !pod.getSpec().getNodeName().isEmpty();
  }

  static List<Taint> noExecute(Node node) {
    List<Taint> out = new ArrayList<>();
    if (node.getSpec() != null && node.getSpec().getTaints() != null) {
      for (Taint taint : node.getSpec().getTaints()) {
        if ("NoExecute".equals(taint.getEffect())) {
          out.add(taint);
        }
      }
    }
    return out;
  }

  /**
   * Decides when a pod must go from a node with these {@code NoExecute} taints, as kube's taint
   * manager: an untolerated taint means now; else the shortest {@code tolerationSeconds} among the
   * tolerations used, counted from the taint's {@code timeAdded} (or {@code now} when unset); no
   * limit at all means never.
   *
   * @param taints the node's {@code NoExecute} taints
   * @param tolerations the pod's tolerations
   * @param now the time now
   * @return when to delete the pod, or empty for never
   */
  public static Optional<Instant> evictionTime(
      List<Taint> taints, List<Toleration> tolerations, Instant now) {
    Instant when = null;
    for (Taint taint : taints) {
      Long shortest = null;
      boolean tolerated = false;
      boolean forever = false;
      if (tolerations != null) {
        for (Toleration toleration : tolerations) {
          if (!NodeFit.tolerates(toleration, taint)) {
            continue;
          }
          tolerated = true;
          if (toleration.getTolerationSeconds() == null) {
            forever = true;
          } else {
            long seconds = Math.max(0, toleration.getTolerationSeconds());
            shortest = shortest == null ? seconds : Math.min(shortest, seconds);
          }
        }
      }
      if (!tolerated) {
        return Optional.of(now);
      }
      if (shortest == null && forever) {
        continue;
      }
      Instant added = taint.getTimeAdded() == null ? now : taint.getTimeAdded().instant();
      Instant due = added.plus(Duration.ofSeconds(shortest));
      when = when == null || due.isBefore(when) ? due : when;
    }
    return Optional.ofNullable(when);
  }

  @Override
  public Result reconcile(Request request) {
    Optional<Pod> found = pods.namespace(request.namespace()).get(request.name());
    if (found.isEmpty()
        || !bound(found.get())
        || found.get().getMetadata().getDeletionTimestamp() != null) {
      cancel(request);
      return Result.done();
    }
    Pod pod = found.get();
    Optional<Node> node = nodes.get(pod.getSpec().getNodeName());
    if (node.isEmpty()) {
      cancel(request);
      return Result.done();
    }
    List<Taint> taints = noExecute(node.get());
    Instant now = clock.now();
    Optional<Instant> when = evictionTime(taints, pod.getSpec().getTolerations(), now);
    if (when.isEmpty()) {
      cancel(request);
      return Result.done();
    }
    if (now.isBefore(when.get())) {
      Cancellable previous =
          wakes.put(
              request.toString(),
              clock.scheduleAt(
                  when.get(),
                  () -> {
                    RateLimitingQueue<Request> q = queue;
                    if (q != null) {
                      q.add(request);
                    }
                  }));
      if (previous != null) {
        previous.cancel();
      }
      return Result.done();
    }
    cancel(request);
    evict(pod, now);
    return Result.done();
  }

  private void cancel(Request request) {
    Cancellable previous = wakes.remove(request.toString());
    if (previous != null) {
      previous.cancel();
    }
  }

  private void evict(Pod pod, Instant now) {
    ResourceClient<Pod> pods = client.inNamespace(pod.getMetadata().getNamespace());
    String name = pod.getMetadata().getName();
    try {
      pods.patch(
          name,
          PatchType.STRATEGIC_MERGE,
          "{\"status\":{\"conditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\","
              + "\"lastTransitionTime\":\""
              + new Time(now.truncatedTo(ChronoUnit.SECONDS))
              + "\",\"reason\":\"DeletionByTaintManager\","
              + "\"message\":\"Taint manager: deleting due to NoExecute taint\"}]}}",
          new PatchOptions(),
          "status");
      events.eventf(
          pod,
          null,
          Event.TYPE_NORMAL,
          "TaintManagerEviction",
          "Delete",
          "Marking for deletion Pod %s/%s",
          pod.getMetadata().getNamespace(),
          name);
      DeleteOptions options = new DeleteOptions();
      Preconditions preconditions = new Preconditions();
      preconditions.setUid(pod.getMetadata().getUid());
      options.setPreconditions(preconditions);
      pods.delete(name, options);
    } catch (RuntimeException e) {
      if (!ApiErrors.isNotFound(e) && !ApiErrors.isConflict(e)) {
        throw e;
      }
    }
  }
}
