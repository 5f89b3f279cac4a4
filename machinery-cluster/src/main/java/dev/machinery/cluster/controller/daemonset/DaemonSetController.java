package dev.machinery.cluster.controller.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.api.apps.v1.ControllerRevision;
import dev.machinery.api.apps.v1.DaemonSet;
import dev.machinery.api.apps.v1.DaemonSetSpec;
import dev.machinery.api.apps.v1.DaemonSetStatus;
import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.history.ControllerHistory;
import dev.machinery.cluster.controller.util.ControllerRefs;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Kubernetes' DaemonSet controller ({@code daemonset-controller}, Go's {@code
 * pkg/controller/daemon}).
 *
 * <ul>
 *   <li>One pod on every node the pod may run on: its node selector and required node affinity
 *       match the node, and it tolerates the node's {@code NoSchedule} and {@code NoExecute}
 *       taints, with the tolerations kube adds to every daemon pod ({@code not-ready}, {@code
 *       unreachable}, the pressures, {@code unschedulable}, and {@code network-unavailable} on the
 *       host network). A pod is bound to its node by a required node affinity {@code metadata.name
 *       In [node]} (the scheduler places it); pods on nodes where they may no longer run, failed
 *       pods and extra pods are deleted.
 *   <li>ControllerRevisions {@code <set>-<hash>}; pods labelled {@code controller-revision-hash}
 *       and {@code pod-template-generation}. {@code RollingUpdate} deletes old pods up to {@code
 *       maxUnavailable} at a time, or with {@code maxSurge} starts the new pod beside the old one
 *       and deletes the old once the new is available; {@code OnDelete} replaces pods only when
 *       someone deletes them.
 *   <li>Status: {@code desiredNumberScheduled}, {@code currentNumberScheduled}, {@code
 *       numberMisscheduled}, {@code numberReady}, {@code numberAvailable}, {@code
 *       numberUnavailable}, {@code updatedNumberScheduled}, {@code observedGeneration}.
 * </ul>
 *
 * <p>Thread-safe: the controller's workers reconcile different sets at once.
 */
public final class DaemonSetController implements Reconciler {
  /** The controller's name and service account. */
  public static final String NAME = "daemon-set-controller";

  static final String REVISION_LABEL = ControllerHistory.REVISION_LABEL;
  static final String TEMPLATE_GENERATION_LABEL = "pod-template-generation";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Lister<DaemonSet> sets;
  private final Lister<Pod> pods;
  private final Lister<Node> nodes;
  private final Lister<ControllerRevision> revisions;
  private final Client client;
  private final ControllerHistory controllerHistory;
  private final EventRecorder events;
  private final Clock clock;
  private volatile Consumer<Request> wake = request -> {};

  private DaemonSetController(
      Lister<DaemonSet> sets,
      Lister<Pod> pods,
      Lister<Node> nodes,
      Lister<ControllerRevision> revisions,
      Client client,
      EventRecorder events,
      Clock clock) {
    this.sets = sets;
    this.pods = pods;
    this.nodes = nodes;
    this.revisions = revisions;
    this.client = client;
    this.controllerHistory = new ControllerHistory(client);
    this.events = events;
    this.clock = clock;
  }

  /**
   * Sets the controller up on the shared DaemonSet, Pod, Node and ControllerRevision informers,
   * with the {@code daemon-set-controller} client and recorder (kube's service account name).
   *
   * @param context the controller manager's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<DaemonSet> setInformer = context.informer(DaemonSet.class);
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    SharedIndexInformer<Node> nodeInformer = context.informer(Node.class);
    SharedIndexInformer<ControllerRevision> revisionInformer =
        context.informer(ControllerRevision.class);
    DaemonSetController reconciler =
        new DaemonSetController(
            setInformer.lister(),
            podInformer.lister(),
            nodeInformer.lister(),
            revisionInformer.lister(),
            context.client(NAME),
            context.eventRecorder(NAME),
            context.clock());
    Controller controller =
        Controller.builder("daemonset-controller", reconciler)
            .watches(setInformer, EventHandlers.enqueueRequestForObject())
            .watches(
                podInformer, EventHandlers.enqueueRequestForOwner("apps", "DaemonSet", true, true))
            .watches(nodeInformer, reconciler.new NodeHandler())
            .workers(2)
            .build();
    reconciler.wake = controller.queue()::add;
    context.add(controller);
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<DaemonSet> cached = sets.namespace(request.namespace()).get(request.name());
    if (cached.isEmpty() || cached.get().getMetadata().getDeletionTimestamp() != null) {
      return Result.done();
    }
    DaemonSet set = Copies.of(cached.get());
    String namespace = request.namespace();
    String uid = set.getMetadata().getUid();
    DaemonSetStatus before = Copies.of(cached.get()).getStatus();
    List<ControllerRevision> history = new ArrayList<>();
    for (ControllerRevision revision : revisions.namespace(namespace).list(Selector.everything())) {
      if (controlledBy(revision.getMetadata(), uid)) {
        history.add(revision);
      }
    }
    history.sort(Comparator.comparing(r -> r.getRevision() == null ? 0L : r.getRevision()));
    ControllerRevision current = currentRevision(set, history);
    String hash = labels(current.getMetadata()).get(REVISION_LABEL);

    // Pods by the node they are meant for.
    Map<String, List<Pod>> byNode = new TreeMap<>();
    for (Pod pod : pods.namespace(namespace).list(Selector.everything())) {
      if (!controlledBy(pod.getMetadata(), uid)
          || pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      NodePlacement.targetNode(pod)
          .ifPresent(node -> byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(pod));
    }
    for (List<Pod> list : byNode.values()) {
      list.sort(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp()));
    }
    Map<String, Node> allNodes = new TreeMap<>();
    for (Node node : nodes.list(Selector.everything())) {
      allNodes.put(node.getMetadata().getName(), node);
    }
    PodSpec withTolerations = Copies.of(set).getSpec().getTemplate().getSpec();
    NodePlacement.addDaemonTolerations(withTolerations);
    int maxSurge = maxSurge(set.getSpec(), allNodes.size());

    // Go's manage: create where missing, delete where not wanted.
    List<String> createOn = new ArrayList<>();
    List<Pod> delete = new ArrayList<>();
    Map<String, NodePlacement.Decision> decisions = new LinkedHashMap<>();
    for (Node node : allNodes.values()) {
      String name = node.getMetadata().getName();
      NodePlacement.Decision decision = NodePlacement.decide(node, withTolerations);
      decisions.put(name, decision);
      List<Pod> here = byNode.getOrDefault(name, List.of());
      if (decision.shouldRun() && here.isEmpty()) {
        createOn.add(name);
      } else if (decision.shouldContinueRunning()) {
        List<Pod> running = new ArrayList<>();
        for (Pod pod : here) {
          if ("Failed".equals(phase(pod))) {
            delete.add(pod);
            events.eventf(
                set,
                pod,
                Event.TYPE_WARNING,
                "FailedDaemonPod",
                "Sync",
                "Found failed daemon pod %s/%s on node %s, will try to kill it",
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                name);
          } else {
            running.add(pod);
          }
        }
        if (running.isEmpty() && decision.shouldRun() && !here.isEmpty()) {
          createOn.add(name);
        }
        // One pod a node: the oldest stays (with a surge, an old and a new one may share it).
        if (running.size() > 1) {
          boolean surged =
              maxSurge > 0
                  && running.size() == 2
                  && running.stream().filter(p -> hash.equals(podHash(p))).count() == 1;
          if (!surged) {
            delete.addAll(running.subList(1, running.size()));
          }
        }
      } else {
        delete.addAll(here);
      }
    }
    // Pods meant for nodes that do not exist go too.
    for (Map.Entry<String, List<Pod>> entry : byNode.entrySet()) {
      if (!allNodes.containsKey(entry.getKey())) {
        delete.addAll(entry.getValue());
      }
    }
    syncNodes(set, delete, createOn, current);

    // One reading of the clock for the pass: a wake-up is due when what was measured against it
    // becomes true, however long the pass took.
    Instant now = clock.now();
    Duration wakeIn = null;
    if (isRollingUpdate(set.getSpec()) && delete.isEmpty() && createOn.isEmpty()) {
      wakeIn = rollingUpdate(set, byNode, decisions, hash, current, now);
    }
    wakeIn = min(wakeIn, updateStatus(set, byNode, decisions, hash, now));
    if (!Objects.equals(before, set.getStatus())) {
      client
          .resources(DaemonSet.class)
          .inNamespace(namespace)
          .updateStatus(set, new UpdateOptions());
    }
    truncateHistory(set, history, byNode, current);
    if (wakeIn != null) {
      clock.scheduleAt(now.plus(wakeIn), () -> wake.accept(request));
    }
    return Result.done();
  }

  /** Go's {@code rollingUpdate}: deletes old pods, or surges new ones beside them. */
  private Duration rollingUpdate(
      DaemonSet set,
      Map<String, List<Pod>> byNode,
      Map<String, NodePlacement.Decision> decisions,
      String hash,
      ControllerRevision current,
      Instant now)
      throws Exception {
    int desired =
        (int) decisions.values().stream().filter(NodePlacement.Decision::shouldRun).count();
    int maxSurge = maxSurge(set.getSpec(), desired);
    int maxUnavailable = maxUnavailable(set.getSpec(), desired);
    int minReady =
        set.getSpec().getMinReadySeconds() == null ? 0 : set.getSpec().getMinReadySeconds();
    List<Pod> toDelete = new ArrayList<>();
    List<String> toSurge = new ArrayList<>();
    if (maxSurge == 0) {
      int unavailable = 0;
      List<Pod> replace = new ArrayList<>();
      List<Pod> candidates = new ArrayList<>();
      for (Map.Entry<String, NodePlacement.Decision> entry : decisions.entrySet()) {
        if (!entry.getValue().shouldRun()) {
          continue;
        }
        Pod newPod = null;
        Pod oldPod = null;
        for (Pod pod : byNode.getOrDefault(entry.getKey(), List.of())) {
          if (hash.equals(podHash(pod))) {
            newPod = pod;
          } else {
            oldPod = pod;
          }
        }
        if ((oldPod == null) == (newPod == null)) {
          unavailable++;
        } else if (newPod != null) {
          if (!available(newPod, minReady, now)) {
            unavailable++;
          }
        } else if (!available(oldPod, minReady, now)) {
          replace.add(oldPod);
        } else if (unavailable < maxUnavailable) {
          candidates.add(oldPod);
        }
      }
      int remaining = Math.max(0, Math.min(maxUnavailable - unavailable, candidates.size()));
      toDelete.addAll(replace);
      toDelete.addAll(candidates.subList(0, remaining));
    } else {
      int surging = 0;
      for (Map.Entry<String, NodePlacement.Decision> entry : decisions.entrySet()) {
        if (!entry.getValue().shouldRun()) {
          continue;
        }
        Pod newPod = null;
        Pod oldPod = null;
        for (Pod pod : byNode.getOrDefault(entry.getKey(), List.of())) {
          if (hash.equals(podHash(pod))) {
            newPod = pod;
          } else {
            oldPod = pod;
          }
        }
        if (oldPod == null) {
          continue;
        }
        if (newPod == null) {
          if (!available(oldPod, minReady, now)) {
            toSurge.add(entry.getKey());
          } else if (surging < maxSurge) {
            surging++;
            toSurge.add(entry.getKey());
          }
        } else if (!available(newPod, minReady, now)) {
          surging++;
        } else {
          toDelete.add(oldPod);
        }
      }
    }
    syncNodes(set, toDelete, toSurge, current);
    return null;
  }

  private void syncNodes(
      DaemonSet set, List<Pod> delete, List<String> createOn, ControllerRevision current)
      throws Exception {
    String namespace = set.getMetadata().getNamespace();
    for (String node : createOn) {
      Pod pod = podFor(set, node, current);
      try {
        Pod made = client.resources(Pod.class).inNamespace(namespace).create(pod);
        events.eventf(
            set,
            made,
            Event.TYPE_NORMAL,
            "SuccessfulCreate",
            "Create",
            "Created pod: %s",
            made.getMetadata().getName());
      } catch (Exception e) {
        events.eventf(
            set,
            null,
            Event.TYPE_WARNING,
            "FailedCreate",
            "Create",
            "Error creating: %s",
            e.getMessage());
        throw e;
      }
    }
    for (Pod pod : delete) {
      try {
        client
            .resources(Pod.class)
            .inNamespace(namespace)
            .delete(pod.getMetadata().getName(), new DeleteOptions());
        events.eventf(
            set,
            pod,
            Event.TYPE_NORMAL,
            "SuccessfulDelete",
            "Delete",
            "Deleted pod: %s",
            pod.getMetadata().getName());
      } catch (Exception e) {
        if (!ApiErrors.isNotFound(e)) {
          events.eventf(
              set,
              pod,
              Event.TYPE_WARNING,
              "FailedDelete",
              "Delete",
              "Error deleting: %s",
              e.getMessage());
          throw e;
        }
      }
    }
  }

  private Pod podFor(DaemonSet set, String node, ControllerRevision current) {
    DaemonSet source = Copies.of(set);
    ObjectMeta templateMeta =
        source.getSpec().getTemplate().getMetadata() == null
            ? new ObjectMeta()
            : source.getSpec().getTemplate().getMetadata();
    Map<String, String> labels = new LinkedHashMap<>(labels(templateMeta));
    labels.put(REVISION_LABEL, labels(current.getMetadata()).get(REVISION_LABEL));
    labels.put(TEMPLATE_GENERATION_LABEL, Long.toString(set.getMetadata().getGeneration()));
    ObjectMeta meta = new ObjectMeta();
    meta.setGenerateName(set.getMetadata().getName() + "-");
    meta.setNamespace(set.getMetadata().getNamespace());
    meta.setLabels(labels);
    meta.setAnnotations(templateMeta.getAnnotations());
    meta.setOwnerReferences(List.of(ownerReference(set)));
    PodSpec spec = source.getSpec().getTemplate().getSpec();
    NodePlacement.addDaemonTolerations(spec);
    spec.setAffinity(NodePlacement.bindToNode(spec.getAffinity(), node));
    Pod pod = new Pod();
    pod.setApiVersion("v1");
    pod.setKind("Pod");
    pod.setMetadata(meta);
    pod.setSpec(spec);
    return pod;
  }

  /** Go's {@code updateDaemonSetStatus}; returns when an availability will change, or null. */
  private Duration updateStatus(
      DaemonSet set,
      Map<String, List<Pod>> byNode,
      Map<String, NodePlacement.Decision> decisions,
      String hash,
      Instant now) {
    int desired = 0;
    int scheduled = 0;
    int misscheduled = 0;
    int ready = 0;
    int available = 0;
    int updated = 0;
    int minReady =
        set.getSpec().getMinReadySeconds() == null ? 0 : set.getSpec().getMinReadySeconds();
    Duration wake = null;
    for (Map.Entry<String, NodePlacement.Decision> entry : decisions.entrySet()) {
      List<Pod> here = byNode.getOrDefault(entry.getKey(), List.of());
      if (entry.getValue().shouldRun()) {
        desired++;
        if (!here.isEmpty()) {
          scheduled++;
          Pod pod = here.get(0);
          for (Pod candidate : here) {
            if (hash.equals(podHash(candidate))) {
              pod = candidate;
            }
          }
          if (isReady(pod)) {
            ready++;
            if (available(pod, minReady, now)) {
              available++;
            } else {
              Instant since = readySince(pod);
              if (since != null) {
                wake = min(wake, Duration.between(now, since.plusSeconds(minReady)));
              }
            }
          }
          if (hash.equals(podHash(pod))) {
            updated++;
          }
        }
      } else if (!here.isEmpty()) {
        misscheduled++;
      }
    }
    DaemonSetStatus status = set.getStatus() == null ? new DaemonSetStatus() : set.getStatus();
    status.setObservedGeneration(set.getMetadata().getGeneration());
    status.setDesiredNumberScheduled(desired);
    status.setCurrentNumberScheduled(scheduled);
    status.setNumberMisscheduled(misscheduled);
    status.setNumberReady(ready);
    status.setNumberAvailable(available);
    status.setNumberUnavailable(desired - available);
    status.setUpdatedNumberScheduled(updated);
    set.setStatus(status);
    return wake;
  }

  /** The revision of the set's template: an equal one of the history, else a new one. */
  private ControllerRevision currentRevision(DaemonSet set, List<ControllerRevision> history)
      throws Exception {
    JsonNode data = ControllerHistory.templatePatch(JSON.readTree(Copies.json(set)));
    ControllerHistory.Owner owner =
        new ControllerHistory.Owner(
            set.getMetadata(),
            ownerReference(set),
            labels(set.getSpec().getTemplate().getMetadata()),
            set.getStatus() == null ? null : set.getStatus().getCollisionCount());
    return controllerHistory.currentRevision(
        owner,
        data,
        history,
        count -> {
          DaemonSetStatus status =
              set.getStatus() == null ? new DaemonSetStatus() : set.getStatus();
          status.setCollisionCount(count);
          set.setStatus(status);
          client
              .resources(DaemonSet.class)
              .inNamespace(set.getMetadata().getNamespace())
              .updateStatus(set, new UpdateOptions());
        });
  }

  private void truncateHistory(
      DaemonSet set,
      List<ControllerRevision> history,
      Map<String, List<Pod>> byNode,
      ControllerRevision current)
      throws Exception {
    int limit =
        set.getSpec().getRevisionHistoryLimit() == null
            ? 10
            : set.getSpec().getRevisionHistoryLimit();
    List<ControllerRevision> unused = new ArrayList<>();
    for (ControllerRevision revision : history) {
      String hash = labels(revision.getMetadata()).get(REVISION_LABEL);
      boolean live =
          revision.getMetadata().getName().equals(current.getMetadata().getName())
              || byNode.values().stream()
                  .flatMap(List::stream)
                  .anyMatch(p -> Objects.equals(hash, podHash(p)));
      if (!live) {
        unused.add(revision);
      }
    }
    controllerHistory.truncate(set.getMetadata().getNamespace(), unused, limit);
  }

  /** Enqueues every DaemonSet when a node comes, goes or changes. */
  private final class NodeHandler implements EventHandler<Node> {
    @Override
    public void create(Node node, RateLimitingQueue<Request> queue) {
      all(queue);
    }

    @Override
    public void update(Node oldNode, Node newNode, RateLimitingQueue<Request> queue) {
      if (!Objects.equals(oldNode.getMetadata().getLabels(), newNode.getMetadata().getLabels())
          || !Objects.equals(oldNode.getSpec(), newNode.getSpec())) {
        all(queue);
      }
    }

    @Override
    public void delete(Node node, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
      all(queue);
    }

    private void all(RateLimitingQueue<Request> queue) {
      for (DaemonSet set : sets.list(Selector.everything())) {
        queue.add(Request.of(set));
      }
    }
  }

  static int maxSurge(DaemonSetSpec spec, int desired) {
    if (!isRollingUpdate(spec)
        || spec.getUpdateStrategy() == null
        || spec.getUpdateStrategy().getRollingUpdate() == null
        || spec.getUpdateStrategy().getRollingUpdate().getMaxSurge() == null) {
      return 0;
    }
    return spec.getUpdateStrategy().getRollingUpdate().getMaxSurge().scaledValue(desired, true);
  }

  /** Go's {@code updatedDesiredNodeCounts}: both zero means one unavailable at a time. */
  static int maxUnavailable(DaemonSetSpec spec, int desired) {
    IntOrString value =
        spec.getUpdateStrategy() == null || spec.getUpdateStrategy().getRollingUpdate() == null
            ? null
            : spec.getUpdateStrategy().getRollingUpdate().getMaxUnavailable();
    int unavailable = value == null ? 1 : value.scaledValue(desired, true);
    if (unavailable == 0 && maxSurge(spec, desired) == 0) {
      return 1;
    }
    return unavailable;
  }

  private static boolean isRollingUpdate(DaemonSetSpec spec) {
    return spec.getUpdateStrategy() == null
        || spec.getUpdateStrategy().getType() == null
        || "RollingUpdate".equals(spec.getUpdateStrategy().getType());
  }

  private static boolean available(Pod pod, int minReadySeconds, Instant now) {
    if (!isReady(pod)) {
      return false;
    }
    if (minReadySeconds == 0) {
      return true;
    }
    Instant since = readySince(pod);
    return since != null && !since.plusSeconds(minReadySeconds).isAfter(now);
  }

  private static boolean isReady(Pod pod) {
    return readyCondition(pod).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  private static Instant readySince(Pod pod) {
    return readyCondition(pod)
        .map(c -> c.getLastTransitionTime() == null ? null : c.getLastTransitionTime().instant())
        .orElse(null);
  }

  private static Optional<PodCondition> readyCondition(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "Ready".equals(c.getType()))
        .findFirst();
  }

  private static String phase(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static String podHash(Pod pod) {
    return labels(pod.getMetadata()).get(REVISION_LABEL);
  }

  private static Duration min(Duration a, Duration b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static boolean controlledBy(ObjectMeta meta, String uid) {
    return ControllerRefs.controllerOf(meta).map(ref -> uid.equals(ref.getUid())).orElse(false);
  }

  private static OwnerReference ownerReference(DaemonSet set) {
    return ControllerRefs.newControllerRef("apps/v1", "DaemonSet", set.getMetadata());
  }

  private static Map<String, String> labels(ObjectMeta meta) {
    return meta == null || meta.getLabels() == null ? Map.of() : meta.getLabels();
  }
}
