package dev.machinery.cluster.controller.replicaset;

import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.api.apps.v1.ReplicaSetCondition;
import dev.machinery.api.apps.v1.ReplicaSetStatus;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.ReplicationController;
import dev.machinery.api.core.v1.ReplicationControllerSpec;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.util.ActivePods;
import dev.machinery.cluster.controller.util.ControllerExpectations;
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
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ReplicaSet controller ({@code replicaset-controller}), as Kubernetes' {@code
 * ReplicaSetController}: for each ReplicaSet it claims the active pods of its namespace (adopting
 * orphans its selector matches, releasing pods it no longer matches), creates the missing pods in
 * slow-start batches (1, 2, 4, ... at most 500 a sync) or deletes the surplus in kube's order
 * ({@link ActivePods}), waits for its informers to show what it did ({@link
 * ControllerExpectations}), and writes its status: {@code replicas}, {@code fullyLabeledReplicas},
 * {@code readyReplicas}, {@code availableReplicas} (ready for {@code minReadySeconds}), {@code
 * observedGeneration} and the {@code ReplicaFailure} condition.
 *
 * <p>Thread-safe: its workers share the expectations, which are synchronized.
 */
public final class ReplicaSetController implements Reconciler {
  /** The controller's name and service account. */
  public static final String NAME = "replicaset-controller";

  /** At most this many pods are created or deleted in one sync (kube's {@code BurstReplicas}). */
  public static final int BURST_REPLICAS = 500;

  /** The first batch of creations (kube's {@code SlowStartInitialBatchSize}). */
  public static final int SLOW_START_INITIAL_BATCH_SIZE = 1;

  /**
   * The ReplicationController controller's service account (kube's {@code replication-controller}).
   */
  public static final String REPLICATION_CONTROLLER_NAME = "replication-controller";

  private static final int STATUS_UPDATE_RETRIES = 1;

  private final Client client;
  private final ReplicaSetSource replicaSets;
  private final Lister<Pod> pods;
  private final ControllerExpectations expectations;
  private final PodControl podControl;
  private final Clock clock;
  private final ExecutorService executor;

  ReplicaSetController(
      Client client,
      ReplicaSetSource replicaSets,
      Lister<Pod> pods,
      PodControl podControl,
      Clock clock,
      ExecutorService executor) {
    this.client = client;
    this.replicaSets = replicaSets;
    this.pods = pods;
    this.podControl = podControl;
    this.clock = clock;
    this.expectations = new ControllerExpectations(clock);
    this.executor = executor;
  }

  /**
   * Sets the controller up in a context: informers of ReplicaSets and Pods, five workers.
   *
   * @param context the controller manager's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    Client client = context.client(NAME);
    SharedIndexInformer<ReplicaSet> rsInformer = context.informer(ReplicaSet.class);
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    ReplicaSetController reconciler =
        new ReplicaSetController(
            client,
            replicaSetSource(client, rsInformer.lister()),
            podInformer.lister(),
            new PodControl(client, context.eventRecorder(NAME)),
            context.clock(),
            workers("replicaset-pods"));
    context.add(
        Controller.builder("replicaset", reconciler)
            .watches(rsInformer, reconciler.replicaSetHandler())
            .watches(podInformer, reconciler.podHandler())
            .workers(5)
            .build());
  }

  /**
   * Sets the ReplicationController controller up in a context ({@code
   * replicationcontroller-controller}): the same controller over ReplicationControllers converted
   * to ReplicaSets, as kube's replication manager runs.
   *
   * @param context the controller manager's context
   * @throws InterruptedException when interrupted
   */
  public static void initializeReplicationControllers(ControllerContext context)
      throws InterruptedException {
    Client client = context.client(REPLICATION_CONTROLLER_NAME);
    SharedIndexInformer<ReplicationController> rcInformer =
        context.informer(ReplicationController.class);
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    ReplicaSetController reconciler =
        new ReplicaSetController(
            client,
            replicationControllerSource(client, rcInformer.lister()),
            podInformer.lister(),
            new PodControl(client, context.eventRecorder(REPLICATION_CONTROLLER_NAME)),
            context.clock(),
            workers("replicationcontroller-pods"));
    EventHandler<ReplicaSet> handler = reconciler.replicaSetHandler();
    context.add(
        Controller.builder("replicationcontroller", reconciler)
            .watches(
                rcInformer,
                new EventHandler<ReplicationController>() {
                  @Override
                  public void create(ReplicationController rc, RateLimitingQueue<Request> q) {
                    handler.create(ReplicationControllers.toReplicaSet(rc), q);
                  }

                  @Override
                  public void update(
                      ReplicationController old,
                      ReplicationController cur,
                      RateLimitingQueue<Request> q) {
                    handler.update(
                        ReplicationControllers.toReplicaSet(old),
                        ReplicationControllers.toReplicaSet(cur),
                        q);
                  }

                  @Override
                  public void delete(
                      ReplicationController rc, boolean unknown, RateLimitingQueue<Request> q) {
                    handler.delete(ReplicationControllers.toReplicaSet(rc), unknown, q);
                  }
                })
            .watches(podInformer, reconciler.podHandler())
            .workers(5)
            .build());
  }

  static ReplicaSetSource replicaSetSource(Client client, Lister<ReplicaSet> lister) {
    return new ReplicaSetSource() {
      @Override
      public String kind() {
        return "ReplicaSet";
      }

      @Override
      public String apiVersion() {
        return "apps/v1";
      }

      @Override
      public Optional<ReplicaSet> get(String namespace, String name) {
        return lister.namespace(namespace).get(name);
      }

      @Override
      public List<ReplicaSet> list(String namespace) {
        return lister.namespace(namespace).list(Selector.everything());
      }

      @Override
      public ReplicaSet read(String namespace, String name) {
        return client.resources(ReplicaSet.class).inNamespace(namespace).get(name);
      }

      @Override
      public ReplicaSet updateStatus(ReplicaSet object) {
        return client
            .resources(ReplicaSet.class)
            .inNamespace(object.getMetadata().getNamespace())
            .updateStatus(object, new dev.machinery.unversioned.meta.v1.UpdateOptions());
      }

      @Override
      public ApiObject owner(ReplicaSet object) {
        if (object.getKind() != null && object.getApiVersion() != null) {
          return object;
        }
        ReplicaSet copy = Copies.of(object);
        copy.setApiVersion("apps/v1");
        copy.setKind("ReplicaSet");
        return copy;
      }
    };
  }

  static ReplicaSetSource replicationControllerSource(
      Client client, Lister<ReplicationController> lister) {
    return new ReplicaSetSource() {
      @Override
      public String kind() {
        return "ReplicationController";
      }

      @Override
      public String apiVersion() {
        return "v1";
      }

      @Override
      public Optional<ReplicaSet> get(String namespace, String name) {
        return lister.namespace(namespace).get(name).map(ReplicationControllers::toReplicaSet);
      }

      @Override
      public List<ReplicaSet> list(String namespace) {
        List<ReplicaSet> result = new ArrayList<>();
        for (ReplicationController rc : lister.namespace(namespace).list(Selector.everything())) {
          result.add(ReplicationControllers.toReplicaSet(rc));
        }
        return result;
      }

      @Override
      public ReplicaSet read(String namespace, String name) {
        return ReplicationControllers.toReplicaSet(
            client.resources(ReplicationController.class).inNamespace(namespace).get(name));
      }

      @Override
      public ReplicaSet updateStatus(ReplicaSet object) {
        ResourceClient<ReplicationController> rcs =
            client
                .resources(ReplicationController.class)
                .inNamespace(object.getMetadata().getNamespace());
        ReplicationController rc = new ReplicationController();
        rc.setMetadata(object.getMetadata());
        ReplicationControllerSpec spec = new ReplicationControllerSpec();
        spec.setReplicas(object.getSpec().getReplicas());
        spec.setMinReadySeconds(object.getSpec().getMinReadySeconds());
        spec.setSelector(object.getSpec().getSelector().getMatchLabels());
        spec.setTemplate(object.getSpec().getTemplate());
        rc.setSpec(spec);
        ReplicationController written =
            rcs.updateStatus(
                ReplicationControllers.withStatus(rc, object.getStatus()),
                new dev.machinery.unversioned.meta.v1.UpdateOptions());
        return ReplicationControllers.toReplicaSet(written);
      }

      @Override
      public ApiObject owner(ReplicaSet object) {
        return lister
            .namespace(object.getMetadata().getNamespace())
            .get(object.getMetadata().getName())
            .<ApiObject>map(
                rc -> {
                  ReplicationController copy = Copies.of(rc);
                  copy.setApiVersion("v1");
                  copy.setKind("ReplicationController");
                  return copy;
                })
            .orElseGet(
                () -> {
                  ReplicationController rc = new ReplicationController();
                  rc.setApiVersion("v1");
                  rc.setKind("ReplicationController");
                  rc.setMetadata(object.getMetadata());
                  return rc;
                });
      }
    };
  }

  /**
   * Returns daemon threads for a controller's parallel writes.
   *
   * @param name the threads' name prefix
   * @return the executor
   */
  public static ExecutorService workers(String name) {
    AtomicInteger count = new AtomicInteger();
    return Executors.newFixedThreadPool(
        16,
        runnable -> {
          Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  ControllerExpectations expectations() {
    return expectations;
  }

  private static String key(ReplicaSet rs) {
    return rs.getMetadata().getNamespace() + "/" + rs.getMetadata().getName();
  }

  private EventHandler<ReplicaSet> replicaSetHandler() {
    return new EventHandler<>() {
      @Override
      public void create(ReplicaSet object, RateLimitingQueue<Request> queue) {
        queue.add(Request.of(object));
      }

      @Override
      public void update(ReplicaSet oldObject, ReplicaSet newObject, RateLimitingQueue<Request> q) {
        q.add(Request.of(newObject));
      }

      @Override
      public void delete(ReplicaSet object, boolean unknown, RateLimitingQueue<Request> queue) {
        expectations.delete(key(object));
        queue.add(Request.of(object));
      }
    };
  }

  private Optional<ReplicaSet> resolve(String namespace, OwnerReference ref) {
    if (!replicaSets.kind().equals(ref.getKind())
        || ref.getApiVersion() == null
        || !groupOf(ref.getApiVersion()).equals(groupOf(replicaSets.apiVersion()))) {
      return Optional.empty();
    }
    return replicaSets
        .get(namespace, ref.getName())
        .filter(rs -> Objects.equals(rs.getMetadata().getUid(), ref.getUid()));
  }

  private List<ReplicaSet> podReplicaSets(Pod pod) {
    Map<String, String> labels = labels(pod.getMetadata());
    if (labels.isEmpty()) {
      return List.of();
    }
    List<ReplicaSet> result = new ArrayList<>();
    for (ReplicaSet rs : replicaSets.list(pod.getMetadata().getNamespace())) {
      Selector selector;
      try {
        selector = LabelSelectors.toSelector(rs.getSpec().getSelector());
      } catch (RuntimeException e) {
        continue;
      }
      if (!selector.isEmpty() && selector.matches(labels)) {
        result.add(rs);
      }
    }
    return result;
  }

  private static Map<String, String> labels(ObjectMeta meta) {
    return meta.getLabels() == null ? Map.of() : meta.getLabels();
  }

  private EventHandler<Pod> podHandler() {
    return new EventHandler<>() {
      @Override
      public void create(Pod pod, RateLimitingQueue<Request> queue) {
        if (pod.getMetadata().getDeletionTimestamp() != null) {
          deleted(pod, queue);
          return;
        }
        Optional<OwnerReference> ref = ControllerRefs.controllerOf(pod.getMetadata());
        if (ref.isPresent()) {
          resolve(pod.getMetadata().getNamespace(), ref.get())
              .ifPresent(
                  rs -> {
                    expectations.creationObserved(key(rs));
                    queue.add(Request.of(rs));
                  });
          return;
        }
        podReplicaSets(pod).forEach(rs -> queue.add(Request.of(rs)));
      }

      @Override
      public void update(Pod old, Pod cur, RateLimitingQueue<Request> queue) {
        if (Objects.equals(
            old.getMetadata().getResourceVersion(), cur.getMetadata().getResourceVersion())) {
          return;
        }
        boolean labelChanged = !labels(old.getMetadata()).equals(labels(cur.getMetadata()));
        if (cur.getMetadata().getDeletionTimestamp() != null) {
          deleted(cur, queue);
          if (labelChanged) {
            deleted(old, queue);
          }
          return;
        }
        Optional<OwnerReference> curRef = ControllerRefs.controllerOf(cur.getMetadata());
        Optional<OwnerReference> oldRef = ControllerRefs.controllerOf(old.getMetadata());
        boolean refChanged = !curRef.equals(oldRef);
        if (refChanged && oldRef.isPresent()) {
          resolve(old.getMetadata().getNamespace(), oldRef.get())
              .ifPresent(rs -> queue.add(Request.of(rs)));
        }
        if (curRef.isPresent()) {
          Optional<ReplicaSet> rs = resolve(cur.getMetadata().getNamespace(), curRef.get());
          if (rs.isEmpty()) {
            return;
          }
          queue.add(Request.of(rs.get()));
          int minReady = minReadySeconds(rs.get());
          if (!Pods.isReady(old) && Pods.isReady(cur) && minReady > 0) {
            queue.addAfter(Request.of(rs.get()), Duration.ofSeconds(minReady + 1L));
          }
          return;
        }
        if (labelChanged || refChanged) {
          podReplicaSets(cur).forEach(rs -> queue.add(Request.of(rs)));
        }
      }

      @Override
      public void delete(Pod pod, boolean unknown, RateLimitingQueue<Request> queue) {
        deleted(pod, queue);
      }

      private void deleted(Pod pod, RateLimitingQueue<Request> queue) {
        Optional<OwnerReference> ref = ControllerRefs.controllerOf(pod.getMetadata());
        if (ref.isEmpty()) {
          return;
        }
        resolve(pod.getMetadata().getNamespace(), ref.get())
            .ifPresent(
                rs -> {
                  expectations.deletionObserved(key(rs), Pods.key(pod));
                  queue.add(Request.of(rs));
                });
      }
    };
  }

  static int minReadySeconds(ReplicaSet rs) {
    Integer value = rs.getSpec().getMinReadySeconds();
    return value == null ? 0 : value;
  }

  static int replicas(ReplicaSet rs) {
    Integer value = rs.getSpec().getReplicas();
    return value == null ? 1 : value;
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<ReplicaSet> cached = replicaSets.get(request.namespace(), request.name());
    String rsKey = request.namespace() + "/" + request.name();
    if (cached.isEmpty()) {
      expectations.delete(rsKey);
      return Result.done();
    }
    ReplicaSet rs = cached.get();
    boolean needsSync = expectations.satisfied(rsKey);
    Selector selector;
    try {
      selector = LabelSelectors.toSelector(rs.getSpec().getSelector());
    } catch (RuntimeException e) {
      // An invalid selector cannot be acted on; validation refuses it, so only old data has one.
      return Result.done();
    }
    List<Pod> active = new ArrayList<>();
    for (Pod pod : pods.namespace(request.namespace()).list(Selector.everything())) {
      if (Pods.isActive(pod)) {
        active.add(pod);
      }
    }
    ControllerRefManager<Pod> refs =
        new ControllerRefManager<>(
            rs.getMetadata(),
            replicaSets.apiVersion(),
            replicaSets.kind(),
            selector,
            ns -> client.resources(Pod.class).inNamespace(ns),
            ControllerRefManager.recheckDeletionTimestamp(
                () -> readMeta(request), rs.getMetadata()));
    List<Pod> filtered = refs.claim(active);
    Exception manageError = null;
    if (needsSync && rs.getMetadata().getDeletionTimestamp() == null) {
      try {
        manageReplicas(filtered, rs, rsKey);
      } catch (Exception e) {
        manageError = e;
      }
    }
    ReplicaSetStatus newStatus = calculateStatus(rs, filtered, manageError);
    ReplicaSet updated = updateStatus(rs, newStatus);
    if (manageError != null) {
      throw manageError;
    }
    int minReady = minReadySeconds(updated);
    ReplicaSetStatus status = updated.getStatus();
    if (minReady > 0
        && status != null
        && intOf(status.getReadyReplicas()) == replicas(updated)
        && intOf(status.getAvailableReplicas()) != replicas(updated)) {
      return Result.requeueAfter(Duration.ofSeconds(minReady));
    }
    return Result.done();
  }

  static int intOf(Integer value) {
    return value == null ? 0 : value;
  }

  private void manageReplicas(List<Pod> filtered, ReplicaSet rs, String rsKey) throws Exception {
    int diff = filtered.size() - replicas(rs);
    String namespace = rs.getMetadata().getNamespace();
    if (diff < 0) {
      int count = Math.min(-diff, BURST_REPLICAS);
      expectations.expectCreations(rsKey, count);
      OwnerReference ref =
          ControllerRefs.newControllerRef(
              replicaSets.apiVersion(), replicaSets.kind(), rs.getMetadata());
      ApiObject owner = replicaSets.owner(rs);
      int[] successes = new int[1];
      Exception failure =
          slowStartBatch(
              count,
              SLOW_START_INITIAL_BATCH_SIZE,
              () -> {
                try {
                  podControl.createPod(
                      namespace,
                      rs.getSpec().getTemplate(),
                      owner,
                      rs.getMetadata().getName(),
                      ref);
                } catch (StatusException e) {
                  if (PodControl.hasCause(e, PodControl.NAMESPACE_TERMINATING_CAUSE)) {
                    return;
                  }
                  throw e;
                }
              },
              successes);
      for (int i = 0; i < count - successes[0]; i++) {
        expectations.creationObserved(rsKey);
      }
      if (failure != null) {
        throw failure;
      }
    } else if (diff > 0) {
      int count = Math.min(diff, BURST_REPLICAS);
      List<Pod> toDelete = podsToDelete(filtered, relatedPods(rs), count);
      Set<String> keys = new HashSet<>();
      toDelete.forEach(p -> keys.add(Pods.key(p)));
      expectations.expectDeletions(rsKey, keys);
      ApiObject owner = replicaSets.owner(rs);
      List<Future<?>> futures = new ArrayList<>();
      List<Exception> errors = java.util.Collections.synchronizedList(new ArrayList<>());
      for (Pod pod : toDelete) {
        futures.add(
            executor.submit(
                () -> {
                  try {
                    podControl.deletePod(namespace, pod.getMetadata().getName(), owner);
                  } catch (Exception e) {
                    expectations.deletionObserved(rsKey, Pods.key(pod));
                    if (!ApiErrors.isNotFound(e)) {
                      errors.add(e);
                    }
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
      if (!errors.isEmpty()) {
        throw errors.get(0);
      }
    }
  }

  /** A create or delete of one pod. */
  @FunctionalInterface
  interface Action {
    void run() throws Exception;
  }

  /**
   * Runs {@code count} actions in batches of 1, 2, 4, ... (from {@code initialBatchSize}), each
   * batch in parallel, stopping after the first batch with a failure (kube's {@code
   * slowStartBatch}).
   *
   * @return the first failure, or null; {@code successes[0]} holds how many succeeded
   */
  Exception slowStartBatch(int count, int initialBatchSize, Action action, int[] successes)
      throws InterruptedException {
    int remaining = count;
    successes[0] = 0;
    for (int batch = Math.min(remaining, initialBatchSize);
        batch > 0;
        batch = Math.min(2 * batch, remaining)) {
      List<Future<Exception>> futures = new ArrayList<>();
      for (int i = 0; i < batch; i++) {
        futures.add(
            executor.submit(
                () -> {
                  try {
                    action.run();
                    return null;
                  } catch (Exception e) {
                    return e;
                  }
                }));
      }
      Exception first = null;
      for (Future<Exception> future : futures) {
        Exception e;
        try {
          e = future.get();
        } catch (java.util.concurrent.ExecutionException ee) {
          e = new IllegalStateException(ee.getCause());
        }
        if (e == null) {
          successes[0]++;
        } else if (first == null) {
          first = e;
        }
      }
      if (first != null) {
        return first;
      }
      remaining -= batch;
    }
    return null;
  }

  /** The pods of every ReplicaSet controlled by the same owner as this one (or its own pods). */
  private List<Pod> relatedPods(ReplicaSet rs) {
    Set<String> uids = new HashSet<>();
    uids.add(rs.getMetadata().getUid());
    Optional<OwnerReference> owner = ControllerRefs.controllerOf(rs.getMetadata());
    if (owner.isPresent()) {
      for (ReplicaSet other : replicaSets.list(rs.getMetadata().getNamespace())) {
        Optional<OwnerReference> otherOwner = ControllerRefs.controllerOf(other.getMetadata());
        if (otherOwner.isPresent()
            && Objects.equals(otherOwner.get().getUid(), owner.get().getUid())) {
          uids.add(other.getMetadata().getUid());
        }
      }
    }
    List<Pod> related = new ArrayList<>();
    for (Pod pod : pods.namespace(rs.getMetadata().getNamespace()).list(Selector.everything())) {
      Optional<OwnerReference> ref = ControllerRefs.controllerOf(pod.getMetadata());
      if (ref.isPresent() && uids.contains(ref.get().getUid())) {
        related.add(pod);
      }
    }
    return related;
  }

  /**
   * Chooses the pods a scale-down deletes (kube's {@code getPodsToDelete}): the first {@code diff}
   * of the pods ranked by {@link ActivePods#rankedForDeletion}.
   */
  List<Pod> podsToDelete(List<Pod> filtered, List<Pod> related, int diff) {
    List<Pod> ordered =
        diff < filtered.size()
            ? ActivePods.rankedForDeletion(filtered, related, clock.now())
            : filtered;
    return new ArrayList<>(ordered.subList(0, Math.min(diff, ordered.size())));
  }

  /** Computes a ReplicaSet's status from its claimed pods (kube's {@code calculateStatus}). */
  ReplicaSetStatus calculateStatus(ReplicaSet rs, List<Pod> filtered, Exception manageError) {
    ReplicaSetStatus newStatus =
        rs.getStatus() == null ? new ReplicaSetStatus() : Copies.of(rs).getStatus();
    Map<String, String> templateLabels =
        rs.getSpec().getTemplate() == null || rs.getSpec().getTemplate().getMetadata() == null
            ? Map.of()
            : labels(rs.getSpec().getTemplate().getMetadata());
    Selector templateSelector = Selector.fromSet(templateLabels);
    int fullyLabeled = 0;
    int ready = 0;
    int available = 0;
    for (Pod pod : filtered) {
      if (templateSelector.matches(labels(pod.getMetadata()))) {
        fullyLabeled++;
      }
      if (Pods.isReady(pod)) {
        ready++;
        if (Pods.isAvailable(pod, minReadySeconds(rs), clock.now())) {
          available++;
        }
      }
    }
    List<ReplicaSetCondition> conditions =
        newStatus.getConditions() == null
            ? new ArrayList<>()
            : new ArrayList<>(newStatus.getConditions());
    boolean hasFailure = conditions.stream().anyMatch(c -> "ReplicaFailure".equals(c.getType()));
    if (manageError != null && !hasFailure) {
      int diff = filtered.size() - replicas(rs);
      String reason = diff < 0 ? "FailedCreate" : diff > 0 ? "FailedDelete" : "";
      ReplicaSetCondition condition = new ReplicaSetCondition();
      condition.setType("ReplicaFailure");
      condition.setStatus("True");
      condition.setReason(reason);
      condition.setMessage(String.valueOf(manageError.getMessage()));
      condition.setLastTransitionTime(new Time(clock.now()));
      conditions.add(condition);
    } else if (manageError == null && hasFailure) {
      conditions.removeIf(c -> "ReplicaFailure".equals(c.getType()));
    }
    newStatus.setConditions(conditions.isEmpty() ? null : conditions);
    newStatus.setReplicas(filtered.size());
    newStatus.setFullyLabeledReplicas(fullyLabeled);
    newStatus.setReadyReplicas(ready);
    newStatus.setAvailableReplicas(available);
    return newStatus;
  }

  private static boolean sameStatus(ReplicaSet rs, ReplicaSetStatus newStatus) {
    ReplicaSetStatus old = rs.getStatus() == null ? new ReplicaSetStatus() : rs.getStatus();
    return intOf(old.getReplicas()) == intOf(newStatus.getReplicas())
        && intOf(old.getFullyLabeledReplicas()) == intOf(newStatus.getFullyLabeledReplicas())
        && intOf(old.getReadyReplicas()) == intOf(newStatus.getReadyReplicas())
        && intOf(old.getAvailableReplicas()) == intOf(newStatus.getAvailableReplicas())
        && rs.getMetadata().getGeneration()
            == (old.getObservedGeneration() == null ? 0L : old.getObservedGeneration())
        && Objects.equals(emptyToNull(old.getConditions()), emptyToNull(newStatus.getConditions()));
  }

  private static <T> List<T> emptyToNull(List<T> list) {
    return list == null || list.isEmpty() ? null : list;
  }

  private dev.machinery.unversioned.meta.v1.MetaObject readMeta(Request request) {
    try {
      return replicaSets.read(request.namespace(), request.name()).getMetadata();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private static String groupOf(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private ReplicaSet updateStatus(ReplicaSet rs, ReplicaSetStatus newStatus) throws Exception {
    if (sameStatus(rs, newStatus)) {
      return rs;
    }
    ReplicaSet current = Copies.of(rs);
    for (int i = 0; ; i++) {
      newStatus.setObservedGeneration(current.getMetadata().getGeneration());
      current.setStatus(newStatus);
      try {
        return replicaSets.updateStatus(current);
      } catch (Exception e) {
        if (i >= STATUS_UPDATE_RETRIES) {
          throw e;
        }
        current = replicaSets.read(rs.getMetadata().getNamespace(), rs.getMetadata().getName());
      }
    }
  }
}
