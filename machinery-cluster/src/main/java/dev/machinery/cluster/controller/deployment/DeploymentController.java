package dev.machinery.cluster.controller.deployment;

import static dev.machinery.cluster.controller.deployment.DeploymentUtil.replicas;

import dev.machinery.api.apps.v1.Deployment;
import dev.machinery.api.apps.v1.DeploymentCondition;
import dev.machinery.api.apps.v1.DeploymentStatus;
import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.api.apps.v1.ReplicaSetCondition;
import dev.machinery.api.apps.v1.ReplicaSetSpec;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.util.ControllerRefManager;
import dev.machinery.cluster.controller.util.ControllerRefs;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.cluster.controller.util.PodControl;
import dev.machinery.cluster.controller.util.Pods;
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
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The Deployment controller ({@code deployment-controller}), as Kubernetes' {@code
 * DeploymentController}: it claims the ReplicaSets a Deployment's selector matches, finds or
 * creates the new one ({@code <deployment>-<pod-template-hash>}, the hash label added to its
 * labels, selector and template), then rolls out by the strategy (RollingUpdate within {@code
 * maxSurge}/{@code maxUnavailable}, or Recreate: old pods gone before new ones are made), scales
 * proportionally when the replicas change mid-rollout, keeps revisions ({@code
 * deployment.kubernetes.io/revision}, a rolled-back ReplicaSet made new again with the next
 * revision), deletes old ReplicaSets beyond {@code revisionHistoryLimit}, honours {@code
 * spec.paused}, and reports the Progressing and Available conditions, with the progress deadline
 * judged by the cluster's clock.
 *
 * <p>Thread-safe: each sync works on its own copies; the deadline wake-ups are synchronized.
 */
public final class DeploymentController implements Reconciler {
  /** The controller's name and service account. */
  public static final String NAME = "deployment-controller";

  /** The event reason of every scaling of a ReplicaSet. */
  public static final String SCALING_REPLICA_SET = "ScalingReplicaSet";

  private static final String KIND = "Deployment";
  private static final String API_VERSION = "apps/v1";

  private final Client client;
  private final Lister<Deployment> deployments;
  private final Lister<ReplicaSet> replicaSets;
  private final Lister<Pod> pods;
  private final EventRecorder recorder;
  private final Clock clock;
  private final Map<Request, Cancellable> wakeUps = new HashMap<>();
  private volatile RateLimitingQueue<Request> queue;

  DeploymentController(
      Client client,
      Lister<Deployment> deployments,
      Lister<ReplicaSet> replicaSets,
      Lister<Pod> pods,
      EventRecorder recorder,
      Clock clock) {
    this.client = client;
    this.deployments = deployments;
    this.replicaSets = replicaSets;
    this.pods = pods;
    this.recorder = recorder;
    this.clock = clock;
  }

  /**
   * Sets the controller up in a context: informers of Deployments, ReplicaSets and Pods, five
   * workers.
   *
   * @param context the controller manager's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<Deployment> dInformer = context.informer(Deployment.class);
    SharedIndexInformer<ReplicaSet> rsInformer = context.informer(ReplicaSet.class);
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    DeploymentController reconciler =
        new DeploymentController(
            context.client(NAME),
            dInformer.lister(),
            rsInformer.lister(),
            podInformer.lister(),
            context.eventRecorder(NAME),
            context.clock());
    Controller controller =
        Controller.builder("deployment", reconciler)
            .watches(dInformer, dev.machinery.controller.EventHandlers.enqueueRequestForObject())
            .watches(rsInformer, reconciler.replicaSetHandler())
            .watches(podInformer, reconciler.podHandler())
            .workers(5)
            .build();
    reconciler.queue = controller.queue();
    context.add(controller);
  }

  // ---------------------------------------------------------------- event handlers

  private Optional<Deployment> resolve(String namespace, OwnerReference ref) {
    if (!KIND.equals(ref.getKind())
        || ref.getApiVersion() == null
        || !ref.getApiVersion().startsWith("apps/")) {
      return Optional.empty();
    }
    return deployments
        .namespace(namespace)
        .get(ref.getName())
        .filter(d -> Objects.equals(d.getMetadata().getUid(), ref.getUid()));
  }

  private List<Deployment> deploymentsFor(ReplicaSet rs) {
    Map<String, String> labels = labels(rs.getMetadata());
    List<Deployment> result = new ArrayList<>();
    if (labels.isEmpty()) {
      return result;
    }
    for (Deployment d :
        deployments.namespace(rs.getMetadata().getNamespace()).list(Selector.everything())) {
      try {
        Selector selector = LabelSelectors.toSelector(d.getSpec().getSelector());
        if (!selector.isEmpty() && selector.matches(labels)) {
          result.add(d);
        }
      } catch (RuntimeException e) {
        // An invalid selector matches nothing.
      }
    }
    return result;
  }

  private static Map<String, String> labels(ObjectMeta meta) {
    return meta.getLabels() == null ? Map.of() : meta.getLabels();
  }

  private EventHandler<ReplicaSet> replicaSetHandler() {
    return new EventHandler<>() {
      @Override
      public void create(ReplicaSet rs, RateLimitingQueue<Request> queue) {
        Optional<OwnerReference> ref = ControllerRefs.controllerOf(rs.getMetadata());
        if (ref.isPresent()) {
          resolve(rs.getMetadata().getNamespace(), ref.get())
              .ifPresent(d -> queue.add(Request.of(d)));
          return;
        }
        deploymentsFor(rs).forEach(d -> queue.add(Request.of(d)));
      }

      @Override
      public void update(ReplicaSet old, ReplicaSet cur, RateLimitingQueue<Request> queue) {
        if (Objects.equals(
            old.getMetadata().getResourceVersion(), cur.getMetadata().getResourceVersion())) {
          return;
        }
        Optional<OwnerReference> curRef = ControllerRefs.controllerOf(cur.getMetadata());
        Optional<OwnerReference> oldRef = ControllerRefs.controllerOf(old.getMetadata());
        boolean refChanged = !curRef.equals(oldRef);
        if (refChanged && oldRef.isPresent()) {
          resolve(old.getMetadata().getNamespace(), oldRef.get())
              .ifPresent(d -> queue.add(Request.of(d)));
        }
        if (curRef.isPresent()) {
          resolve(cur.getMetadata().getNamespace(), curRef.get())
              .ifPresent(d -> queue.add(Request.of(d)));
          return;
        }
        boolean labelChanged = !labels(old.getMetadata()).equals(labels(cur.getMetadata()));
        if (labelChanged || refChanged) {
          deploymentsFor(cur).forEach(d -> queue.add(Request.of(d)));
        }
      }

      @Override
      public void delete(ReplicaSet rs, boolean unknown, RateLimitingQueue<Request> queue) {
        ControllerRefs.controllerOf(rs.getMetadata())
            .flatMap(ref -> resolve(rs.getMetadata().getNamespace(), ref))
            .ifPresent(d -> queue.add(Request.of(d)));
      }
    };
  }

  /** A deleted pod wakes a Recreate Deployment, which waits for its old pods to be gone. */
  private EventHandler<Pod> podHandler() {
    return new EventHandler<>() {
      @Override
      public void create(Pod pod, RateLimitingQueue<Request> queue) {}

      @Override
      public void update(Pod old, Pod cur, RateLimitingQueue<Request> queue) {
        if (old.getMetadata().getDeletionTimestamp() == null
            && cur.getMetadata().getDeletionTimestamp() == null
            && Objects.equals(Pods.phase(old), Pods.phase(cur))) {
          return;
        }
        recreateOwner(cur).ifPresent(d -> queue.add(Request.of(d)));
      }

      @Override
      public void delete(Pod pod, boolean unknown, RateLimitingQueue<Request> queue) {
        recreateOwner(pod).ifPresent(d -> queue.add(Request.of(d)));
      }
    };
  }

  private Optional<Deployment> recreateOwner(Pod pod) {
    String namespace = pod.getMetadata().getNamespace();
    return ControllerRefs.controllerOf(pod.getMetadata())
        .filter(ref -> "ReplicaSet".equals(ref.getKind()))
        .flatMap(ref -> replicaSets.namespace(namespace).get(ref.getName()))
        .flatMap(rs -> ControllerRefs.controllerOf(rs.getMetadata()))
        .flatMap(ref -> resolve(namespace, ref))
        .filter(d -> !DeploymentUtil.isRollingUpdate(d));
  }

  // ---------------------------------------------------------------- sync

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<Deployment> cached = deployments.namespace(request.namespace()).get(request.name());
    if (cached.isEmpty()) {
      return Result.done();
    }
    Sync sync = new Sync(request, withKind(Copies.of(cached.get())));
    sync.run();
    return Result.done();
  }

  private static Deployment withKind(Deployment d) {
    d.setApiVersion(API_VERSION);
    d.setKind(KIND);
    return d;
  }

  private static ReplicaSet rsWithKind(ReplicaSet rs) {
    rs.setApiVersion(API_VERSION);
    rs.setKind("ReplicaSet");
    return rs;
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  /**
   * One sync of one Deployment: {@code d} is this sync's copy, replaced by what the server says.
   */
  private final class Sync {
    private final Request request;
    private final ResourceClient<Deployment> dClient;
    private final ResourceClient<ReplicaSet> rsClient;
    private Deployment d;

    Sync(Request request, Deployment d) {
      this.request = request;
      this.d = d;
      this.dClient = client.resources(Deployment.class).inNamespace(request.namespace());
      this.rsClient = client.resources(ReplicaSet.class).inNamespace(request.namespace());
    }

    void run() throws Exception {
      LabelSelector selector = d.getSpec().getSelector();
      if (selector == null
          || (isEmpty(selector.getMatchLabels()) && isEmpty(selector.getMatchExpressions()))) {
        recorder.eventf(
            d,
            null,
            Event.TYPE_WARNING,
            "SelectingAll",
            "Sync",
            "This deployment is selecting all pods. A non-empty selector is required.");
        DeploymentStatus status = status();
        if (status.getObservedGeneration() == null
            || status.getObservedGeneration() < d.getMetadata().getGeneration()) {
          status.setObservedGeneration(d.getMetadata().getGeneration());
          updateStatus();
        }
        return;
      }
      List<ReplicaSet> rsList = claimReplicaSets();
      Map<String, List<Pod>> podMap = podMap(rsList);
      if (d.getMetadata().getDeletionTimestamp() != null) {
        syncStatusOnly(rsList);
        return;
      }
      checkPausedConditions();
      if (Boolean.TRUE.equals(d.getSpec().getPaused())) {
        sync(rsList);
        return;
      }
      if (isScalingEvent(rsList)) {
        sync(rsList);
        return;
      }
      if (DeploymentUtil.isRollingUpdate(d)) {
        rolloutRolling(rsList);
      } else if ("Recreate".equals(d.getSpec().getStrategy().getType())) {
        rolloutRecreate(rsList, podMap);
      } else {
        throw new IllegalStateException(
            "unexpected deployment strategy type: " + d.getSpec().getStrategy().getType());
      }
    }

    private DeploymentStatus status() {
      if (d.getStatus() == null) {
        d.setStatus(new DeploymentStatus());
      }
      return d.getStatus();
    }

    private void updateStatus() throws Exception {
      d = withKind(dClient.updateStatus(d, new UpdateOptions()));
    }

    private List<ReplicaSet> claimReplicaSets() throws Exception {
      Selector selector = LabelSelectors.toSelector(d.getSpec().getSelector());
      ObjectMeta owner = d.getMetadata();
      ControllerRefManager<ReplicaSet> refs =
          new ControllerRefManager<>(
              owner,
              API_VERSION,
              KIND,
              selector,
              ns -> client.resources(ReplicaSet.class).inNamespace(ns),
              ControllerRefManager.recheckDeletionTimestamp(
                  () -> dClient.get(request.name()).getMetadata(), owner));
      List<ReplicaSet> copies = new ArrayList<>();
      for (ReplicaSet rs : replicaSets.namespace(request.namespace()).list(Selector.everything())) {
        copies.add(rs);
      }
      List<ReplicaSet> claimed = new ArrayList<>();
      for (ReplicaSet rs : refs.claim(copies)) {
        claimed.add(rsWithKind(Copies.of(rs)));
      }
      return claimed;
    }

    private Map<String, List<Pod>> podMap(List<ReplicaSet> rsList) {
      Selector selector = LabelSelectors.toSelector(d.getSpec().getSelector());
      Map<String, List<Pod>> map = new LinkedHashMap<>();
      for (ReplicaSet rs : rsList) {
        map.put(rs.getMetadata().getUid(), new ArrayList<>());
      }
      for (Pod pod : pods.namespace(request.namespace()).list(selector)) {
        Optional<OwnerReference> ref = ControllerRefs.controllerOf(pod.getMetadata());
        if (ref.isPresent() && map.containsKey(ref.get().getUid())) {
          map.get(ref.get().getUid()).add(pod);
        }
      }
      return map;
    }

    // ------------------------------------------------------------ revisions and the new RS

    /** {@code [newRS or null, oldRSs...]} as kube's getAllReplicaSetsAndSyncRevision. */
    private ReplicaSet[] allReplicaSetsAndSyncRevision(List<ReplicaSet> rsList, boolean create)
        throws Exception {
      ReplicaSet existing = DeploymentUtil.findNewReplicaSet(d, rsList);
      List<ReplicaSet> old = new ArrayList<>();
      for (ReplicaSet rs : rsList) {
        if (existing == null
            || !rs.getMetadata().getUid().equals(existing.getMetadata().getUid())) {
          old.add(rs);
        }
      }
      ReplicaSet newRs = newReplicaSet(existing, rsList, old, create);
      ReplicaSet[] result = new ReplicaSet[old.size() + 1];
      result[0] = newRs;
      for (int i = 0; i < old.size(); i++) {
        result[i + 1] = old.get(i);
      }
      return result;
    }

    private ReplicaSet newReplicaSet(
        ReplicaSet existing, List<ReplicaSet> rsList, List<ReplicaSet> oldRss, boolean create)
        throws Exception {
      String newRevision = Long.toString(DeploymentUtil.maxRevision(oldRss) + 1);
      if (existing != null) {
        ReplicaSet rsCopy = rsWithKind(Copies.of(existing));
        boolean annotationsUpdated =
            DeploymentUtil.setNewReplicaSetAnnotations(
                d, rsCopy, newRevision, true, DeploymentUtil.MAX_REVISION_HISTORY_CHARS);
        int minReady = orZero(d.getSpec().getMinReadySeconds());
        boolean minReadyNeedsUpdate = orZero(rsCopy.getSpec().getMinReadySeconds()) != minReady;
        if (annotationsUpdated || minReadyNeedsUpdate) {
          rsCopy.getSpec().setMinReadySeconds(minReady);
          return rsWithKind(rsClient.update(rsCopy));
        }
        String revision =
            DeploymentUtil.annotations(rsCopy.getMetadata()).get(DeploymentUtil.REVISION);
        setDeploymentRevision(revision);
        DeploymentCondition cond =
            DeploymentUtil.condition(d.getStatus(), DeploymentUtil.PROGRESSING);
        if (DeploymentUtil.hasProgressDeadline(d) && cond == null) {
          DeploymentUtil.setCondition(
              status(),
              DeploymentUtil.newCondition(
                  DeploymentUtil.PROGRESSING,
                  "True",
                  DeploymentUtil.FOUND_NEW_RS,
                  "Found new replica set \"" + rsCopy.getMetadata().getName() + "\"",
                  clock.now()));
          updateStatus();
        }
        return rsCopy;
      }
      if (!create) {
        return null;
      }
      Integer collisionCount = status().getCollisionCount();
      String hash = DeploymentUtil.computeHash(d.getSpec().getTemplate(), collisionCount);
      ReplicaSet newRs = new ReplicaSet();
      ObjectMeta meta = new ObjectMeta();
      meta.setName(d.getMetadata().getName() + "-" + hash);
      meta.setNamespace(d.getMetadata().getNamespace());
      meta.setOwnerReferences(
          List.of(ControllerRefs.newControllerRef(API_VERSION, KIND, d.getMetadata())));
      newRs.setMetadata(meta);
      ReplicaSetSpec spec = new ReplicaSetSpec();
      spec.setReplicas(0);
      spec.setMinReadySeconds(orZero(d.getSpec().getMinReadySeconds()));
      spec.setTemplate(d.getSpec().getTemplate());
      spec.setSelector(d.getSpec().getSelector());
      newRs.setSpec(spec);
      newRs = rsWithKind(Copies.of(rsWithKind(newRs)));
      Map<String, String> templateLabels =
          new LinkedHashMap<>(labels(newRs.getSpec().getTemplate().getMetadata()));
      templateLabels.put(DeploymentUtil.POD_TEMPLATE_HASH, hash);
      newRs.getSpec().getTemplate().getMetadata().setLabels(templateLabels);
      newRs.getMetadata().setLabels(new LinkedHashMap<>(templateLabels));
      LabelSelector selector = newRs.getSpec().getSelector();
      Map<String, String> matchLabels =
          selector.getMatchLabels() == null
              ? new LinkedHashMap<>()
              : new LinkedHashMap<>(selector.getMatchLabels());
      matchLabels.put(DeploymentUtil.POD_TEMPLATE_HASH, hash);
      selector.setMatchLabels(matchLabels);
      List<ReplicaSet> all = new ArrayList<>(oldRss);
      all.add(newRs);
      int newReplicas = DeploymentUtil.newRsNewReplicas(d, all, newRs);
      newRs.getSpec().setReplicas(newReplicas);
      DeploymentUtil.setNewReplicaSetAnnotations(
          d, newRs, newRevision, false, DeploymentUtil.MAX_REVISION_HISTORY_CHARS);
      boolean alreadyExists = false;
      ReplicaSet created;
      try {
        created = rsWithKind(rsClient.create(newRs));
      } catch (StatusException e) {
        if (ApiErrors.isAlreadyExists(e)) {
          alreadyExists = true;
          Optional<ReplicaSet> found =
              replicaSets.namespace(request.namespace()).get(newRs.getMetadata().getName());
          if (found.isEmpty()) {
            throw e;
          }
          ReplicaSet rs = found.get();
          Optional<OwnerReference> ref = ControllerRefs.controllerOf(rs.getMetadata());
          if (ref.isPresent()
              && Objects.equals(ref.get().getUid(), d.getMetadata().getUid())
              && DeploymentUtil.equalIgnoreHash(
                  d.getSpec().getTemplate(), rs.getSpec().getTemplate())) {
            created = rsWithKind(Copies.of(rs));
          } else {
            // A hash collision: count it, so the next sync hashes differently.
            status().setCollisionCount(collisionCount == null ? 1 : collisionCount + 1);
            try {
              updateStatus();
            } catch (Exception ignored) {
              // The original error is what is reported; the next sync tries again.
            }
            throw e;
          }
        } else if (PodControl.hasCause(e, PodControl.NAMESPACE_TERMINATING_CAUSE)) {
          throw e;
        } else {
          String msg =
              "Failed to create new replica set \""
                  + newRs.getMetadata().getName()
                  + "\": "
                  + e.getMessage();
          if (DeploymentUtil.hasProgressDeadline(d)) {
            DeploymentUtil.setCondition(
                status(),
                DeploymentUtil.newCondition(
                    DeploymentUtil.PROGRESSING,
                    "False",
                    DeploymentUtil.FAILED_RS_CREATE,
                    msg,
                    clock.now()));
            try {
              updateStatus();
            } catch (Exception ignored) {
              // The bigger issue is reported below.
            }
          }
          recorder.eventf(
              d, null, Event.TYPE_WARNING, DeploymentUtil.FAILED_RS_CREATE, "Create", "%s", msg);
          throw e;
        }
      }
      if (!alreadyExists && newReplicas > 0) {
        recorder.eventf(
            d,
            null,
            Event.TYPE_NORMAL,
            SCALING_REPLICA_SET,
            "Scale",
            "Scaled up replica set %s from 0 to %d",
            created.getMetadata().getName(),
            newReplicas);
      }
      setDeploymentRevision(newRevision);
      if (!alreadyExists && DeploymentUtil.hasProgressDeadline(d)) {
        DeploymentUtil.setCondition(
            status(),
            DeploymentUtil.newCondition(
                DeploymentUtil.PROGRESSING,
                "True",
                DeploymentUtil.NEW_REPLICA_SET,
                "Created new replica set \"" + created.getMetadata().getName() + "\"",
                clock.now()));
        updateStatus();
      }
      return created;
    }

    /**
     * Writes the Deployment's revision annotation through the main resource (this server keeps a
     * status update's metadata as stored, where kube-apiserver keeps its annotations), keeping the
     * status this sync computed so far.
     */
    private void setDeploymentRevision(String revision) throws Exception {
      if (revision == null) {
        return;
      }
      Deployment copy = withKind(Copies.of(d));
      if (DeploymentUtil.setDeploymentRevision(copy, revision)) {
        DeploymentStatus status = d.getStatus();
        d = withKind(dClient.update(copy));
        d.setStatus(status);
      }
    }

    // ------------------------------------------------------------ scaling

    private boolean isScalingEvent(List<ReplicaSet> rsList) throws Exception {
      ReplicaSet[] all = allReplicaSetsAndSyncRevision(rsList, false);
      for (ReplicaSet rs : active(all)) {
        int desired = DeploymentUtil.nonNegativeIntAnnotation(rs, DeploymentUtil.DESIRED_REPLICAS);
        if (desired < 0) {
          continue;
        }
        if (desired != replicas(d)) {
          return true;
        }
      }
      return false;
    }

    private List<ReplicaSet> active(ReplicaSet... rss) {
      List<ReplicaSet> result = new ArrayList<>();
      for (ReplicaSet rs : rss) {
        if (rs != null && replicas(rs) > 0) {
          result.add(rs);
        }
      }
      return result;
    }

    private List<ReplicaSet> olds(ReplicaSet[] all) {
      List<ReplicaSet> old = new ArrayList<>();
      for (int i = 1; i < all.length; i++) {
        old.add(all[i]);
      }
      return old;
    }

    private List<ReplicaSet> list(ReplicaSet[] all) {
      List<ReplicaSet> list = new ArrayList<>();
      for (ReplicaSet rs : all) {
        if (rs != null) {
          list.add(rs);
        }
      }
      return list;
    }

    private void sync(List<ReplicaSet> rsList) throws Exception {
      ReplicaSet[] all = allReplicaSetsAndSyncRevision(rsList, false);
      scale(all[0], olds(all));
      if (Boolean.TRUE.equals(d.getSpec().getPaused())) {
        cleanupDeployment(olds(all));
      }
      syncDeploymentStatus(list(all), all[0]);
    }

    private void syncStatusOnly(List<ReplicaSet> rsList) throws Exception {
      ReplicaSet[] all = allReplicaSetsAndSyncRevision(rsList, false);
      syncDeploymentStatus(list(all), all[0]);
    }

    private void scale(ReplicaSet newRs, List<ReplicaSet> oldRss) throws Exception {
      ReplicaSet activeOrLatest = findActiveOrLatest(newRs, oldRss);
      if (activeOrLatest != null) {
        if (replicas(activeOrLatest) == replicas(d)) {
          return;
        }
        scaleReplicaSetAndRecordEvent(activeOrLatest, replicas(d));
        return;
      }
      if (DeploymentUtil.isSaturated(d, newRs)) {
        for (ReplicaSet old : active(oldRss.toArray(new ReplicaSet[0]))) {
          scaleReplicaSetAndRecordEvent(old, 0);
        }
        return;
      }
      if (!DeploymentUtil.isRollingUpdate(d)) {
        return;
      }
      List<ReplicaSet> all = new ArrayList<>(oldRss);
      all.add(newRs);
      List<ReplicaSet> allRss = active(all.toArray(new ReplicaSet[0]));
      int allReplicas = DeploymentUtil.replicaCount(allRss);
      int allowedSize = replicas(d) > 0 ? replicas(d) + DeploymentUtil.maxSurge(d) : 0;
      int toAdd = allowedSize - allReplicas;
      String operation = "";
      if (toAdd > 0) {
        allRss.sort(DeploymentUtil.bySizeNewer());
        operation = "up";
      } else if (toAdd < 0) {
        allRss.sort(DeploymentUtil.bySizeOlder());
        operation = "down";
      }
      int added = 0;
      Map<String, Integer> sizes = new HashMap<>();
      for (ReplicaSet rs : allRss) {
        if (toAdd != 0) {
          int proportion = DeploymentUtil.proportion(rs, d, toAdd, added);
          sizes.put(rs.getMetadata().getName(), replicas(rs) + proportion);
          added += proportion;
        } else {
          sizes.put(rs.getMetadata().getName(), replicas(rs));
        }
      }
      for (int i = 0; i < allRss.size(); i++) {
        ReplicaSet rs = allRss.get(i);
        String name = rs.getMetadata().getName();
        if (i == 0 && toAdd != 0) {
          int leftover = toAdd - added;
          sizes.put(name, Math.max(0, sizes.get(name) + leftover));
        }
        scaleReplicaSet(rs, sizes.get(name), operation);
      }
    }

    private ReplicaSet findActiveOrLatest(ReplicaSet newRs, List<ReplicaSet> oldRss) {
      if (newRs == null && oldRss.isEmpty()) {
        return null;
      }
      List<ReplicaSet> sortedOld = new ArrayList<>(oldRss);
      sortedOld.sort(DeploymentUtil.byCreationTimestamp().reversed());
      List<ReplicaSet> all = new ArrayList<>(sortedOld);
      all.add(newRs);
      List<ReplicaSet> activeRss = active(all.toArray(new ReplicaSet[0]));
      switch (activeRss.size()) {
        case 0:
          return newRs != null ? newRs : sortedOld.get(0);
        case 1:
          return activeRss.get(0);
        default:
          return null;
      }
    }

    /**
     * Scales a ReplicaSet unless it has the size already; returns it as the server stored it
     * ({@link #lastScaled} tells whether its size changed).
     */
    private ReplicaSet scaleReplicaSetAndRecordEvent(ReplicaSet rs, int newScale) throws Exception {
      if (replicas(rs) == newScale) {
        return rs;
      }
      String operation = replicas(rs) < newScale ? "up" : "down";
      return scaleReplicaSet(rs, newScale, operation);
    }

    /** Whether the last {@link #scaleReplicaSet} changed a size (kube's {@code scaled}). */
    private boolean lastScaled;

    private ReplicaSet scaleReplicaSet(ReplicaSet rs, int newScale, String operation)
        throws Exception {
      lastScaled = false;
      boolean sizeNeedsUpdate = replicas(rs) != newScale;
      int desired = replicas(d);
      int max = desired + DeploymentUtil.maxSurge(d);
      boolean annotationsNeedUpdate =
          DeploymentUtil.replicasAnnotationsNeedUpdate(rs, desired, max);
      if (!sizeNeedsUpdate && !annotationsNeedUpdate) {
        return rs;
      }
      int oldScale = replicas(rs);
      ReplicaSet copy = rsWithKind(Copies.of(rs));
      copy.getSpec().setReplicas(newScale);
      DeploymentUtil.setReplicasAnnotations(copy, desired, max);
      ReplicaSet updated = rsWithKind(rsClient.update(copy));
      if (sizeNeedsUpdate) {
        lastScaled = true;
        recorder.eventf(
            d,
            null,
            Event.TYPE_NORMAL,
            SCALING_REPLICA_SET,
            "Scale",
            "Scaled %s replica set %s from %d to %d",
            operation,
            updated.getMetadata().getName(),
            oldScale,
            newScale);
      }
      return updated;
    }

    // ------------------------------------------------------------ rolling update

    private void rolloutRolling(List<ReplicaSet> rsList) throws Exception {
      ReplicaSet[] all = allReplicaSetsAndSyncRevision(rsList, true);
      ReplicaSet newRs = all[0];
      List<ReplicaSet> allRss = list(all);
      if (reconcileNewReplicaSet(allRss, newRs)) {
        syncRolloutStatus(list(all), newRs);
        return;
      }
      List<ReplicaSet> oldRss = olds(all);
      if (reconcileOldReplicaSets(allRss, active(oldRss.toArray(new ReplicaSet[0])), newRs)) {
        syncRolloutStatus(list(all), newRs);
        return;
      }
      if (DeploymentUtil.deploymentComplete(d, status())) {
        cleanupDeployment(oldRss);
      }
      syncRolloutStatus(list(all), newRs);
    }

    private boolean reconcileNewReplicaSet(List<ReplicaSet> allRss, ReplicaSet newRs)
        throws Exception {
      if (replicas(newRs) == replicas(d)) {
        return false;
      }
      int target =
          replicas(newRs) > replicas(d)
              ? replicas(d)
              : DeploymentUtil.newRsNewReplicas(d, allRss, newRs);
      ReplicaSet updated = scaleReplicaSetAndRecordEvent(newRs, target);
      boolean scaled = updated != newRs && replicas(updated) != replicas(newRs);
      replace(allRss, updated);
      return scaled;
    }

    private void replace(List<ReplicaSet> list, ReplicaSet updated) {
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i).getMetadata().getUid().equals(updated.getMetadata().getUid())) {
          list.set(i, updated);
        }
      }
    }

    private boolean reconcileOldReplicaSets(
        List<ReplicaSet> allRss, List<ReplicaSet> oldRss, ReplicaSet newRs) throws Exception {
      int oldPods = DeploymentUtil.replicaCount(oldRss);
      if (oldPods == 0) {
        return false;
      }
      int allPods = DeploymentUtil.replicaCount(allRss);
      int minAvailable = replicas(d) - DeploymentUtil.maxUnavailable(d);
      int newUnavailable =
          replicas(newRs)
              - (newRs.getStatus() == null ? 0 : orZero(newRs.getStatus().getAvailableReplicas()));
      int maxScaledDown = allPods - minAvailable - newUnavailable;
      if (maxScaledDown <= 0) {
        return false;
      }
      int[] cleaned = new int[1];
      List<ReplicaSet> cleanedOld = cleanupUnhealthyReplicas(oldRss, maxScaledDown, cleaned);
      List<ReplicaSet> all = new ArrayList<>(cleanedOld);
      all.add(newRs);
      int scaledDown = scaleDownOldReplicaSetsForRollingUpdate(all, cleanedOld);
      return cleaned[0] + scaledDown > 0;
    }

    private List<ReplicaSet> cleanupUnhealthyReplicas(
        List<ReplicaSet> oldRss, int maxCleanup, int[] total) throws Exception {
      List<ReplicaSet> sorted = new ArrayList<>(oldRss);
      sorted.sort(DeploymentUtil.byCreationTimestamp());
      int totalScaledDown = 0;
      for (int i = 0; i < sorted.size(); i++) {
        if (totalScaledDown >= maxCleanup) {
          break;
        }
        ReplicaSet target = sorted.get(i);
        int available =
            target.getStatus() == null ? 0 : orZero(target.getStatus().getAvailableReplicas());
        if (replicas(target) == 0 || replicas(target) == available) {
          continue;
        }
        int count = Math.min(maxCleanup - totalScaledDown, replicas(target) - available);
        int newCount = replicas(target) - count;
        if (newCount > replicas(target)) {
          throw new IllegalStateException(
              "when cleaning up unhealthy replicas, got invalid request to scale down "
                  + target.getMetadata().getNamespace()
                  + "/"
                  + target.getMetadata().getName()
                  + " "
                  + replicas(target)
                  + " -> "
                  + newCount);
        }
        ReplicaSet updated = scaleReplicaSetAndRecordEvent(target, newCount);
        totalScaledDown += count;
        sorted.set(i, updated);
      }
      total[0] = totalScaledDown;
      return sorted;
    }

    private int scaleDownOldReplicaSetsForRollingUpdate(
        List<ReplicaSet> allRss, List<ReplicaSet> oldRss) throws Exception {
      int minAvailable = replicas(d) - DeploymentUtil.maxUnavailable(d);
      int available = DeploymentUtil.availableReplicaCount(allRss);
      if (available <= minAvailable) {
        return 0;
      }
      List<ReplicaSet> sorted = new ArrayList<>(oldRss);
      sorted.sort(DeploymentUtil.byCreationTimestamp());
      int totalScaledDown = 0;
      int totalToScaleDown = available - minAvailable;
      for (ReplicaSet target : sorted) {
        if (totalScaledDown >= totalToScaleDown) {
          break;
        }
        if (replicas(target) == 0) {
          continue;
        }
        int count = Math.min(replicas(target), totalToScaleDown - totalScaledDown);
        scaleReplicaSetAndRecordEvent(target, replicas(target) - count);
        totalScaledDown += count;
      }
      return totalScaledDown;
    }

    // ------------------------------------------------------------ recreate

    private void rolloutRecreate(List<ReplicaSet> rsList, Map<String, List<Pod>> podMap)
        throws Exception {
      ReplicaSet[] all = allReplicaSetsAndSyncRevision(rsList, false);
      ReplicaSet newRs = all[0];
      List<ReplicaSet> oldRss = olds(all);
      boolean scaledDown = false;
      for (ReplicaSet rs : active(oldRss.toArray(new ReplicaSet[0]))) {
        ReplicaSet updated = scaleReplicaSetAndRecordEvent(rs, 0);
        if (lastScaled) {
          scaledDown = true;
          replace(oldRss, updated);
        }
      }
      if (scaledDown) {
        List<ReplicaSet> allRss = new ArrayList<>(oldRss);
        if (newRs != null) {
          allRss.add(newRs);
        }
        syncRolloutStatus(allRss, newRs);
        return;
      }
      if (oldPodsRunning(newRs, oldRss, podMap)) {
        syncRolloutStatus(list(all), newRs);
        return;
      }
      if (newRs == null) {
        all = allReplicaSetsAndSyncRevision(rsList, true);
        newRs = all[0];
        oldRss = olds(all);
      }
      ReplicaSet updated = scaleReplicaSetAndRecordEvent(newRs, replicas(d));
      List<ReplicaSet> allRss = new ArrayList<>(oldRss);
      allRss.add(updated);
      if (DeploymentUtil.deploymentComplete(d, status())) {
        cleanupDeployment(oldRss);
      }
      syncRolloutStatus(allRss, updated);
    }

    private boolean oldPodsRunning(
        ReplicaSet newRs, List<ReplicaSet> oldRss, Map<String, List<Pod>> podMap) {
      if (DeploymentUtil.actualReplicaCount(oldRss) > 0) {
        return true;
      }
      for (Map.Entry<String, List<Pod>> e : podMap.entrySet()) {
        if (newRs != null && newRs.getMetadata().getUid().equals(e.getKey())) {
          continue;
        }
        for (Pod pod : e.getValue()) {
          String phase = Pods.phase(pod);
          if (Pods.FAILED.equals(phase) || Pods.SUCCEEDED.equals(phase)) {
            continue;
          }
          return true;
        }
      }
      return false;
    }

    // ------------------------------------------------------------ history

    private void cleanupDeployment(List<ReplicaSet> oldRss) throws Exception {
      Integer limit = d.getSpec().getRevisionHistoryLimit();
      if (limit == null) {
        return;
      }
      List<ReplicaSet> cleanable = new ArrayList<>();
      for (ReplicaSet rs : oldRss) {
        if (rs != null && rs.getMetadata().getDeletionTimestamp() == null) {
          cleanable.add(rs);
        }
      }
      int diff = cleanable.size() - limit;
      if (diff <= 0) {
        return;
      }
      cleanable.sort(DeploymentUtil.byRevision());
      for (int i = 0; i < diff; i++) {
        ReplicaSet rs = cleanable.get(i);
        int statusReplicas = rs.getStatus() == null ? 0 : orZero(rs.getStatus().getReplicas());
        long observed =
            rs.getStatus() == null || rs.getStatus().getObservedGeneration() == null
                ? 0
                : rs.getStatus().getObservedGeneration();
        if (statusReplicas != 0
            || replicas(rs) != 0
            || rs.getMetadata().getGeneration() > observed
            || rs.getMetadata().getDeletionTimestamp() != null) {
          continue;
        }
        try {
          rsClient.delete(rs.getMetadata().getName());
        } catch (Exception e) {
          if (!ApiErrors.isNotFound(e)) {
            throw e;
          }
        }
      }
    }

    // ------------------------------------------------------------ status

    private void checkPausedConditions() throws Exception {
      if (!DeploymentUtil.hasProgressDeadline(d)) {
        return;
      }
      DeploymentCondition cond =
          DeploymentUtil.condition(d.getStatus(), DeploymentUtil.PROGRESSING);
      if (cond != null && DeploymentUtil.TIMED_OUT.equals(cond.getReason())) {
        return;
      }
      boolean pausedCondExists = cond != null && DeploymentUtil.PAUSED.equals(cond.getReason());
      boolean paused = Boolean.TRUE.equals(d.getSpec().getPaused());
      if (paused && !pausedCondExists) {
        DeploymentUtil.setCondition(
            status(),
            DeploymentUtil.newCondition(
                DeploymentUtil.PROGRESSING,
                "Unknown",
                DeploymentUtil.PAUSED,
                "Deployment is paused",
                clock.now()));
        updateStatus();
      } else if (!paused && pausedCondExists) {
        DeploymentUtil.setCondition(
            status(),
            DeploymentUtil.newCondition(
                DeploymentUtil.PROGRESSING,
                "Unknown",
                DeploymentUtil.RESUMED,
                "Deployment is resumed",
                clock.now()));
        updateStatus();
      }
    }

    private DeploymentStatus calculateStatus(List<ReplicaSet> allRss, ReplicaSet newRs) {
      int available = DeploymentUtil.availableReplicaCount(allRss);
      int total = DeploymentUtil.replicaCount(allRss);
      int unavailable = Math.max(0, total - available);
      DeploymentStatus status = new DeploymentStatus();
      status.setObservedGeneration(d.getMetadata().getGeneration());
      status.setReplicas(DeploymentUtil.actualReplicaCount(allRss));
      status.setUpdatedReplicas(
          newRs == null ? 0 : DeploymentUtil.actualReplicaCount(List.of(newRs)));
      status.setReadyReplicas(DeploymentUtil.readyReplicaCount(allRss));
      status.setAvailableReplicas(available);
      status.setUnavailableReplicas(unavailable);
      status.setCollisionCount(status().getCollisionCount());
      if (status().getConditions() != null) {
        List<DeploymentCondition> conditions = new ArrayList<>();
        // Copies, so that setting one here leaves the Deployment's as they were.
        Deployment holder = withKind(Copies.of(d));
        conditions.addAll(holder.getStatus().getConditions());
        status.setConditions(conditions);
      }
      if (available >= replicas(d) - DeploymentUtil.maxUnavailable(d)) {
        DeploymentUtil.setCondition(
            status,
            DeploymentUtil.newCondition(
                DeploymentUtil.AVAILABLE,
                "True",
                DeploymentUtil.MINIMUM_REPLICAS_AVAILABLE,
                "Deployment has minimum availability.",
                clock.now()));
      } else {
        DeploymentUtil.setCondition(
            status,
            DeploymentUtil.newCondition(
                DeploymentUtil.AVAILABLE,
                "False",
                DeploymentUtil.MINIMUM_REPLICAS_UNAVAILABLE,
                "Deployment does not have minimum availability.",
                clock.now()));
      }
      return status;
    }

    private void syncDeploymentStatus(List<ReplicaSet> allRss, ReplicaSet newRs) throws Exception {
      DeploymentStatus newStatus = calculateStatus(allRss, newRs);
      if (sameStatus(status(), newStatus)) {
        return;
      }
      d.setStatus(newStatus);
      updateStatus();
    }

    private void syncRolloutStatus(List<ReplicaSet> allRss, ReplicaSet newRs) throws Exception {
      DeploymentStatus newStatus = calculateStatus(allRss, newRs);
      if (!DeploymentUtil.hasProgressDeadline(d)) {
        DeploymentUtil.removeCondition(newStatus, DeploymentUtil.PROGRESSING);
      }
      DeploymentCondition currentCond =
          DeploymentUtil.condition(d.getStatus(), DeploymentUtil.PROGRESSING);
      boolean isComplete =
          orZero(newStatus.getReplicas()) == orZero(newStatus.getUpdatedReplicas())
              && currentCond != null
              && DeploymentUtil.NEW_RS_AVAILABLE.equals(currentCond.getReason());
      String name = d.getMetadata().getName();
      if (DeploymentUtil.hasProgressDeadline(d) && !isComplete) {
        if (DeploymentUtil.deploymentComplete(d, newStatus)) {
          String msg =
              newRs != null
                  ? "ReplicaSet \""
                      + newRs.getMetadata().getName()
                      + "\" has successfully progressed."
                  : "Deployment \"" + name + "\" has successfully progressed.";
          DeploymentUtil.setCondition(
              newStatus,
              DeploymentUtil.newCondition(
                  DeploymentUtil.PROGRESSING,
                  "True",
                  DeploymentUtil.NEW_RS_AVAILABLE,
                  msg,
                  clock.now()));
        } else if (DeploymentUtil.deploymentProgressing(d, newStatus)) {
          String msg =
              newRs != null
                  ? "ReplicaSet \"" + newRs.getMetadata().getName() + "\" is progressing."
                  : "Deployment \"" + name + "\" is progressing.";
          DeploymentCondition condition =
              DeploymentUtil.newCondition(
                  DeploymentUtil.PROGRESSING,
                  "True",
                  DeploymentUtil.REPLICA_SET_UPDATED,
                  msg,
                  clock.now());
          if (currentCond != null) {
            if ("True".equals(currentCond.getStatus())) {
              condition.setLastTransitionTime(currentCond.getLastTransitionTime());
            }
            DeploymentUtil.removeCondition(newStatus, DeploymentUtil.PROGRESSING);
          }
          DeploymentUtil.setCondition(newStatus, condition);
        } else if (DeploymentUtil.deploymentTimedOut(d, newStatus, clock.now())) {
          String msg =
              newRs != null
                  ? "ReplicaSet \""
                      + newRs.getMetadata().getName()
                      + "\" has timed out progressing."
                  : "Deployment \"" + name + "\" has timed out progressing.";
          DeploymentUtil.setCondition(
              newStatus,
              DeploymentUtil.newCondition(
                  DeploymentUtil.PROGRESSING, "False", DeploymentUtil.TIMED_OUT, msg, clock.now()));
        }
      }
      DeploymentCondition failure = replicaFailure(allRss, newRs);
      if (failure != null) {
        DeploymentUtil.setCondition(newStatus, failure);
      } else {
        DeploymentUtil.removeCondition(newStatus, DeploymentUtil.REPLICA_FAILURE);
      }
      if (sameStatus(status(), newStatus)) {
        requeueStuckDeployment(newStatus);
        return;
      }
      d.setStatus(newStatus);
      updateStatus();
    }

    private DeploymentCondition replicaFailure(List<ReplicaSet> allRss, ReplicaSet newRs) {
      List<ReplicaSet> order = new ArrayList<>();
      if (newRs != null) {
        order.add(newRs);
      }
      order.addAll(allRss);
      for (ReplicaSet rs : order) {
        if (rs.getStatus() == null || rs.getStatus().getConditions() == null) {
          continue;
        }
        for (ReplicaSetCondition c : rs.getStatus().getConditions()) {
          if (DeploymentUtil.REPLICA_FAILURE.equals(c.getType())) {
            DeploymentCondition condition = new DeploymentCondition();
            condition.setType(DeploymentUtil.REPLICA_FAILURE);
            condition.setStatus(c.getStatus());
            condition.setReason(c.getReason());
            condition.setMessage(c.getMessage());
            condition.setLastUpdateTime(c.getLastTransitionTime());
            condition.setLastTransitionTime(c.getLastTransitionTime());
            return condition;
          }
        }
      }
      return null;
    }

    /**
     * Wakes the Deployment when its progress deadline passes (kube's requeueStuckDeployment),
     * scheduled on the cluster's clock so that a test moving a fake clock moves the deadline.
     */
    private void requeueStuckDeployment(DeploymentStatus newStatus) {
      DeploymentCondition current =
          DeploymentUtil.condition(d.getStatus(), DeploymentUtil.PROGRESSING);
      if (!DeploymentUtil.hasProgressDeadline(d) || current == null) {
        return;
      }
      if (DeploymentUtil.deploymentComplete(d, newStatus)
          || DeploymentUtil.TIMED_OUT.equals(current.getReason())
          || current.getLastUpdateTime() == null) {
        return;
      }
      Instant deadline =
          current
              .getLastUpdateTime()
              .instant()
              .plus(Duration.ofSeconds(d.getSpec().getProgressDeadlineSeconds()));
      RateLimitingQueue<Request> q = queue;
      if (q == null) {
        return;
      }
      if (Duration.between(clock.now(), deadline).compareTo(Duration.ofSeconds(1)) < 0) {
        q.addRateLimited(request);
        return;
      }
      synchronized (wakeUps) {
        Cancellable previous = wakeUps.remove(request);
        if (previous != null) {
          previous.cancel();
        }
        wakeUps.put(
            request,
            clock.scheduleAt(
                deadline.plusSeconds(1),
                () -> {
                  synchronized (wakeUps) {
                    wakeUps.remove(request);
                  }
                  q.add(request);
                }));
      }
    }
  }

  private static boolean isEmpty(Map<?, ?> map) {
    return map == null || map.isEmpty();
  }

  private static boolean isEmpty(List<?> list) {
    return list == null || list.isEmpty();
  }

  private static boolean sameStatus(DeploymentStatus a, DeploymentStatus b) {
    return Objects.equals(canonicalConditions(a), canonicalConditions(b))
        && orZero(a.getReplicas()) == orZero(b.getReplicas())
        && orZero(a.getUpdatedReplicas()) == orZero(b.getUpdatedReplicas())
        && orZero(a.getReadyReplicas()) == orZero(b.getReadyReplicas())
        && orZero(a.getAvailableReplicas()) == orZero(b.getAvailableReplicas())
        && orZero(a.getUnavailableReplicas()) == orZero(b.getUnavailableReplicas())
        && Objects.equals(a.getObservedGeneration(), b.getObservedGeneration())
        && Objects.equals(a.getCollisionCount(), b.getCollisionCount());
  }

  private static List<DeploymentCondition> canonicalConditions(DeploymentStatus status) {
    return status.getConditions() == null || status.getConditions().isEmpty()
        ? null
        : status.getConditions();
  }
}
