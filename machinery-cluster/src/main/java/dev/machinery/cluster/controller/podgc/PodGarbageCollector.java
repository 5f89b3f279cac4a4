package dev.machinery.cluster.controller.podgc;

import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.client.Client;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-controller-manager's {@code pod-garbage-collector-controller}: every 20 seconds of the
 * cluster's clock it deletes (1) the oldest terminated pods ({@code Succeeded} or {@code Failed})
 * beyond the threshold ({@link #DEFAULT_TERMINATED_POD_THRESHOLD}), (2) pods bound to a node that
 * no longer exists (confirmed by a read of the node), after setting {@code DisruptionTarget=True}
 * with reason {@code DeletionByPodGC} and, when not yet terminal, phase {@code Failed}, and (3)
 * pods being deleted that were never scheduled; (2) and (3) with grace period 0.
 *
 * <p>Thread-safe: one worker runs the passes.
 */
public final class PodGarbageCollector implements Reconciler {
  /** The name in {@code --controllers}. */
  public static final String NAME = "pod-garbage-collector-controller";

  /** kube-controller-manager's {@code --terminated-pod-gc-threshold} default. */
  public static final int DEFAULT_TERMINATED_POD_THRESHOLD = 12_500;

  /** How often the passes run. */
  public static final Duration GC_CHECK_PERIOD = Duration.ofSeconds(20);

  private static final Request PASS = new Request("", "gc");

  private final Lister<Pod> pods;
  private final Lister<Node> nodes;
  private final Client client;
  private final Clock clock;
  private final int threshold;
  private volatile Controller controller;
  private final java.util.concurrent.atomic.AtomicReference<
          dev.machinery.controller.clock.Cancellable>
      nextPass = new java.util.concurrent.atomic.AtomicReference<>();

  PodGarbageCollector(
      Lister<Pod> pods, Lister<Node> nodes, Client client, Clock clock, int threshold) {
    this.pods = pods;
    this.nodes = nodes;
    this.client = client;
    this.clock = clock;
    this.threshold = threshold;
  }

  /**
   * Sets the collector up with the {@code pod-garbage-collector} service account's client and the
   * default threshold.
   *
   * @param context the context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    SharedIndexInformer<Node> nodeInformer = context.informer(Node.class);
    PodGarbageCollector gc =
        new PodGarbageCollector(
            podInformer.lister(),
            nodeInformer.lister(),
            context.client("pod-garbage-collector"),
            context.clock(),
            DEFAULT_TERMINATED_POD_THRESHOLD);
    Controller controller =
        Controller.builder(NAME, gc)
            .watches(
                nodeInformer,
                new dev.machinery.controller.EventHandler<Node>() {
                  @Override
                  public void create(
                      Node node,
                      dev.machinery.controller.workqueue.RateLimitingQueue<Request> queue) {}

                  @Override
                  public void update(
                      Node oldNode,
                      Node newNode,
                      dev.machinery.controller.workqueue.RateLimitingQueue<Request> queue) {}

                  @Override
                  public void delete(
                      Node node,
                      boolean finalStateUnknown,
                      dev.machinery.controller.workqueue.RateLimitingQueue<Request> queue) {
                    // A node gone: look for its pods without waiting for the next period.
                    queue.add(PASS);
                  }
                })
            .workers(1)
            .build();
    gc.controller = controller;
    controller.queue().add(PASS);
    context.add(controller);
  }

  @Override
  public Result reconcile(Request request) {
    try {
      collect();
    } finally {
      Controller c = controller;
      if (c != null) {
        dev.machinery.controller.clock.Cancellable previous =
            nextPass.getAndSet(clock.schedule(GC_CHECK_PERIOD, () -> c.queue().add(PASS)));
        if (previous != null) {
          previous.cancel();
        }
      }
    }
    return Result.done();
  }

  void collect() {
    List<Pod> all = pods.list(dev.machinery.unversioned.labels.Selector.everything());
    for (Pod pod : terminatedOverThreshold(all, threshold)) {
      delete(pod, null);
    }
    Set<String> known = new HashSet<>();
    for (Node node : nodes.list(dev.machinery.unversioned.labels.Selector.everything())) {
      known.add(node.getMetadata().getName());
    }
    for (Pod pod : all) {
      String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
      if (node == null || node.isEmpty()) {
        if (pod.getMetadata().getDeletionTimestamp() != null) {
          delete(pod, 0L);
        }
        continue;
      }
      if (!known.contains(node) && nodeGone(node)) {
        markAndDelete(pod);
      }
    }
  }

  /**
   * Returns the terminated pods to delete: with more than {@code threshold} of them, the oldest (by
   * creation time, then name) beyond it; none when the threshold is 0 or below.
   *
   * @param pods every pod
   * @param threshold how many terminated pods to keep
   * @return the pods to delete
   */
  static List<Pod> terminatedOverThreshold(List<Pod> pods, int threshold) {
    if (threshold <= 0) {
      return List.of();
    }
    List<Pod> terminated = new ArrayList<>();
    for (Pod pod : pods) {
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if (("Succeeded".equals(phase) || "Failed".equals(phase))
          && pod.getMetadata().getDeletionTimestamp() == null) {
        terminated.add(pod);
      }
    }
    int excess = terminated.size() - threshold;
    if (excess <= 0) {
      return List.of();
    }
    terminated.sort(
        Comparator.comparing(
                (Pod p) ->
                    p.getMetadata().getCreationTimestamp() == null
                        ? Instant.EPOCH
                        : p.getMetadata().getCreationTimestamp())
            .thenComparing(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()));
    return List.copyOf(terminated.subList(0, excess));
  }

  private boolean nodeGone(String node) {
    try {
      client.resources(Node.class).get(node);
      return false;
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return true;
      }
      throw e;
    }
  }

  private void markAndDelete(Pod pod) {
    ResourceClient<Pod> podClient =
        client.resources(Pod.class).inNamespace(pod.getMetadata().getNamespace());
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    boolean terminal = "Succeeded".equals(phase) || "Failed".equals(phase);
    try {
      podClient.patch(
          pod.getMetadata().getName(),
          PatchType.STRATEGIC_MERGE,
          "{\"status\":{"
              + (terminal ? "" : "\"phase\":\"Failed\",")
              + "\"conditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\","
              + "\"lastTransitionTime\":\""
              + new Time(clock.now().truncatedTo(ChronoUnit.SECONDS))
              + "\",\"reason\":\"DeletionByPodGC\","
              + "\"message\":\"PodGC: node no longer exists\"}]}}",
          new PatchOptions(),
          "status");
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return;
      }
      throw e;
    }
    delete(pod, 0L);
  }

  private void delete(Pod pod, Long grace) {
    DeleteOptions options = new DeleteOptions();
    options.setGracePeriodSeconds(grace);
    Preconditions preconditions = new Preconditions();
    preconditions.setUid(pod.getMetadata().getUid());
    options.setPreconditions(preconditions);
    try {
      client
          .resources(Pod.class)
          .inNamespace(pod.getMetadata().getNamespace())
          .delete(pod.getMetadata().getName(), options);
    } catch (RuntimeException e) {
      if (!ApiErrors.isNotFound(e) && !ApiErrors.isConflict(e)) {
        throw e;
      }
    }
  }
}
