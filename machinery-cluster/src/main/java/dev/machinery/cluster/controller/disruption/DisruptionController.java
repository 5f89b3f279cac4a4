package dev.machinery.cluster.controller.disruption;

import dev.machinery.api.apps.v1.Deployment;
import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.policy.v1.PodDisruptionBudget;
import dev.machinery.api.policy.v1.PodDisruptionBudgetStatus;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.Condition;
import dev.machinery.unversioned.meta.v1.Conditions;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Keeps the status of every PodDisruptionBudget, as Go's {@code DisruptionController}: the pods its
 * selector matches in its namespace (an empty selector matches all, none matches nothing), {@code
 * expectedPods} and {@code desiredHealthy} from {@code minAvailable} or {@code maxUnavailable}
 * (percentages and {@code maxUnavailable} of the pods' controllers' scale: a ReplicaSet's
 * Deployment when it has one, else the controller's {@code scale} subresource), {@code
 * currentHealthy} (ready pods not being deleted and not marked disrupted), {@code
 * disruptionsAllowed} (never negative, 0 while no pod is expected), {@code disruptedPods} (entries
 * the eviction API wrote, kept two minutes while the pod exists, then dropped), {@code
 * observedGeneration} and the {@code DisruptionAllowed} condition ({@code SufficientPods} / {@code
 * InsufficientPods}; {@code SyncFailed} with the error, and no disruption allowed, when the scale
 * cannot be found). A PDB without pods gets the warning event {@code NoPods}; one whose percentage
 * meets unmanaged pods, {@code UnmanagedPods}. It writes as {@value #IDENTITY}.
 *
 * <p>Thread-safe: the controller's workers sync different budgets at once.
 */
public final class DisruptionController {
  /** kube-controller-manager's name of this controller. */
  public static final String NAME = "disruption-controller";

  /** The older name {@code --controllers} accepts. */
  public static final String ALIAS = "disruption";

  /** The service account the controller writes as. */
  public static final String IDENTITY = "disruption-controller";

  /** The condition type. */
  public static final String DISRUPTION_ALLOWED = "DisruptionAllowed";

  private final Lister<PodDisruptionBudget> budgets;
  private final Lister<Pod> pods;
  private final Lister<ReplicaSet> replicaSets;
  private final Lister<Deployment> deployments;
  private final Client client;
  private final Clock clock;
  private final EventRecorder events;
  private final AtomicReference<Controller> controller = new AtomicReference<>();

  private DisruptionController(
      Lister<PodDisruptionBudget> budgets,
      Lister<Pod> pods,
      Lister<ReplicaSet> replicaSets,
      Lister<Deployment> deployments,
      Client client,
      Clock clock,
      EventRecorder events) {
    this.budgets = budgets;
    this.pods = pods;
    this.replicaSets = replicaSets;
    this.deployments = deployments;
    this.client = client;
    this.clock = clock;
    this.events = events;
  }

  /**
   * Sets the controller up in a context: informers of budgets, pods, ReplicaSets and Deployments, a
   * controller keyed by budget.
   *
   * @param context the controller context
   * @throws InterruptedException when interrupted while a late controller waits for its caches
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    var budgetInformer = context.informer(PodDisruptionBudget.class);
    var podInformer = context.informer(Pod.class);
    var replicaSetInformer = context.informer(ReplicaSet.class);
    var deploymentInformer = context.informer(Deployment.class);
    DisruptionController sync =
        new DisruptionController(
            budgetInformer.lister(),
            podInformer.lister(),
            replicaSetInformer.lister(),
            deploymentInformer.lister(),
            context.client(IDENTITY),
            context.clock(),
            context.eventRecorder(IDENTITY));
    Controller built =
        Controller.builder(NAME, sync::reconcile)
            .watches(budgetInformer, EventHandlers.enqueueRequestForObject())
            .watches(
                podInformer,
                sync.budgetsOf(
                    p -> p.getMetadata().getNamespace(), p -> p.getMetadata().getLabels()))
            .watches(replicaSetInformer, sync.budgetsOf(r -> r.getMetadata().getNamespace(), null))
            .watches(deploymentInformer, sync.budgetsOf(d -> d.getMetadata().getNamespace(), null))
            .workers(2)
            .build();
    sync.controller.set(built);
    context.add(built);
  }

  /** Syncs one budget. */
  Result reconcile(Request request) {
    Optional<PodDisruptionBudget> found =
        budgets.namespace(request.namespace()).get(request.name());
    if (found.isEmpty()) {
      return Result.done();
    }
    PodDisruptionBudget pdb = found.get();
    List<Pod> selected = podsOf(pdb);
    if (selected.isEmpty()) {
      events.eventf(pdb, null, Event.TYPE_WARNING, "NoPods", "Sync", "No matching pods found");
    }
    Budgets.Expected expected;
    try {
      expected = Budgets.expected(pdb, selected, this::scale);
    } catch (Budgets.SyncFailure e) {
      events.eventf(
          pdb,
          null,
          Event.TYPE_WARNING,
          "CalculateExpectedPodCountFailed",
          "Sync",
          "Failed to calculate the number of expected pods: %s",
          e.getMessage());
      failSafe(pdb, e.getMessage());
      return Result.done();
    }
    if (!expected.unmanagedPods().isEmpty()) {
      events.eventf(
          pdb,
          null,
          Event.TYPE_WARNING,
          "UnmanagedPods",
          "Sync",
          "Pods selected by this PodDisruptionBudget (selector: %s) were found to be unmanaged."
              + " As a result, the status of the PDB cannot be calculated correctly, which may"
              + " result in undefined behavior. To account for these pods please set"
              + " \".spec.minAvailable\" field of the PDB to an integer value.",
          selectorText(pdb));
    }
    Instant now = clock.now();
    Budgets.Disrupted disrupted = Budgets.disrupted(pdb, selected, now);
    int currentHealthy = Budgets.currentHealthy(selected, disrupted.pods(), now);
    updateStatus(pdb, currentHealthy, expected, disrupted.pods());
    if (disrupted.recheck() != null) {
      clock.scheduleAt(
          disrupted.recheck(),
          () -> {
            Controller running = controller.get();
            if (running != null) {
              running.queue().add(request);
            }
          });
    }
    return Result.done();
  }

  private void updateStatus(
      PodDisruptionBudget pdb,
      int currentHealthy,
      Budgets.Expected expected,
      Map<String, Time> disrupted) {
    int allowed =
        Budgets.disruptionsAllowed(
            currentHealthy, expected.desiredHealthy(), expected.expectedCount());
    PodDisruptionBudgetStatus old =
        pdb.getStatus() == null ? new PodDisruptionBudgetStatus() : pdb.getStatus();
    long generation = pdb.getMetadata().getGeneration();
    List<Condition> conditions = copy(old.getConditions());
    Conditions.set(
        conditions,
        new Condition(
            DISRUPTION_ALLOWED,
            allowed > 0 ? Condition.TRUE : Condition.FALSE,
            allowed > 0 ? "SufficientPods" : "InsufficientPods",
            ""),
        java.time.Clock.fixed(clock.now(), ZoneOffset.UTC));
    for (Condition condition : conditions) {
      if (DISRUPTION_ALLOWED.equals(condition.getType())) {
        condition.setObservedGeneration(generation);
      }
    }
    Map<String, Time> oldDisrupted =
        old.getDisruptedPods() == null ? Map.of() : old.getDisruptedPods();
    if (Objects.equals(old.getCurrentHealthy(), currentHealthy)
        && Objects.equals(old.getDesiredHealthy(), expected.desiredHealthy())
        && Objects.equals(old.getExpectedPods(), expected.expectedCount())
        && Objects.equals(old.getDisruptionsAllowed(), allowed)
        && oldDisrupted.equals(disrupted)
        && Objects.equals(old.getObservedGeneration(), generation)
        && Objects.equals(old.getConditions(), conditions)) {
      return;
    }
    PodDisruptionBudgetStatus status = new PodDisruptionBudgetStatus();
    status.setCurrentHealthy(currentHealthy);
    status.setDesiredHealthy(expected.desiredHealthy());
    status.setExpectedPods(expected.expectedCount());
    status.setDisruptionsAllowed(allowed);
    status.setDisruptedPods(disrupted.isEmpty() ? null : disrupted);
    status.setObservedGeneration(generation);
    status.setConditions(conditions);
    write(pdb, status);
  }

  private void failSafe(PodDisruptionBudget pdb, String message) {
    PodDisruptionBudgetStatus old =
        pdb.getStatus() == null ? new PodDisruptionBudgetStatus() : pdb.getStatus();
    List<Condition> conditions = copy(old.getConditions());
    Long observed = old.getObservedGeneration();
    Condition failed = new Condition(DISRUPTION_ALLOWED, Condition.FALSE, "SyncFailed", message);
    failed.setObservedGeneration(observed == null ? 0 : observed);
    Conditions.set(conditions, failed, java.time.Clock.fixed(clock.now(), ZoneOffset.UTC));
    if (Objects.equals(old.getDisruptionsAllowed(), 0)
        && Objects.equals(old.getConditions(), conditions)) {
      return;
    }
    PodDisruptionBudgetStatus status = new PodDisruptionBudgetStatus();
    status.setCurrentHealthy(old.getCurrentHealthy() == null ? 0 : old.getCurrentHealthy());
    status.setDesiredHealthy(old.getDesiredHealthy() == null ? 0 : old.getDesiredHealthy());
    status.setExpectedPods(old.getExpectedPods() == null ? 0 : old.getExpectedPods());
    status.setDisruptedPods(old.getDisruptedPods());
    status.setObservedGeneration(observed);
    status.setDisruptionsAllowed(0);
    status.setConditions(conditions);
    write(pdb, status);
  }

  private void write(PodDisruptionBudget pdb, PodDisruptionBudgetStatus status) {
    PodDisruptionBudget copy = new PodDisruptionBudget();
    copy.setMetadata(pdb.getMetadata());
    copy.setSpec(pdb.getSpec());
    copy.setStatus(status);
    try {
      client
          .resources(PodDisruptionBudget.class)
          .inNamespace(pdb.getMetadata().getNamespace())
          .updateStatus(copy, new UpdateOptions());
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return;
      }
      throw e;
    }
  }

  private static List<Condition> copy(List<Condition> conditions) {
    List<Condition> out = new ArrayList<>();
    if (conditions != null) {
      for (Condition condition : conditions) {
        Condition c =
            new Condition(
                condition.getType(),
                condition.getStatus(),
                condition.getReason(),
                condition.getMessage());
        c.setObservedGeneration(condition.getObservedGeneration());
        c.setLastTransitionTime(condition.getLastTransitionTime());
        out.add(c);
      }
    }
    return out;
  }

  private List<Pod> podsOf(PodDisruptionBudget pdb) {
    if (pdb.getSpec() == null || pdb.getSpec().getSelector() == null) {
      return List.of();
    }
    Selector selector = LabelSelectors.toSelector(pdb.getSpec().getSelector());
    return pods.namespace(pdb.getMetadata().getNamespace()).list(selector);
  }

  private static String selectorText(PodDisruptionBudget pdb) {
    return pdb.getSpec() == null || pdb.getSpec().getSelector() == null
        ? "nil"
        : LabelSelectors.toSelector(pdb.getSpec().getSelector()).toString();
  }

  /**
   * The scale of a pod's controller: a ReplicaSet's Deployment's replicas when the Deployment
   * controls it, the ReplicaSet's own otherwise, else the controller's {@code scale} subresource.
   */
  private Integer scale(String namespace, OwnerReference controller) {
    String group = groupOf(controller.getApiVersion());
    if ("apps".equals(group) && "ReplicaSet".equals(controller.getKind())) {
      Optional<ReplicaSet> rs = replicaSets.namespace(namespace).get(controller.getName());
      if (rs.isEmpty() || !Objects.equals(rs.get().getMetadata().getUid(), controller.getUid())) {
        return null;
      }
      List<OwnerReference> owners = rs.get().getMetadata().getOwnerReferences();
      if (owners != null) {
        for (OwnerReference owner : owners) {
          if (Boolean.TRUE.equals(owner.getController())
              && "Deployment".equals(owner.getKind())
              && "apps".equals(groupOf(owner.getApiVersion()))) {
            Optional<Deployment> deployment = deployments.namespace(namespace).get(owner.getName());
            if (deployment.isEmpty()
                || !Objects.equals(deployment.get().getMetadata().getUid(), owner.getUid())) {
              return null;
            }
            Integer replicas = deployment.get().getSpec().getReplicas();
            return replicas == null ? 1 : replicas;
          }
        }
      }
      Integer replicas = rs.get().getSpec().getReplicas();
      return replicas == null ? 1 : replicas;
    }
    if ("apps".equals(group) && "Deployment".equals(controller.getKind())) {
      Optional<Deployment> deployment = deployments.namespace(namespace).get(controller.getName());
      if (deployment.isEmpty()
          || !Objects.equals(deployment.get().getMetadata().getUid(), controller.getUid())) {
        return null;
      }
      Integer replicas = deployment.get().getSpec().getReplicas();
      return replicas == null ? 1 : replicas;
    }
    String version = versionOf(controller.getApiVersion());
    try {
      Scale scale =
          client
              .resources(new GroupVersionKind(group, version, controller.getKind()))
              .inNamespace(namespace)
              .getScale(controller.getName());
      if (scale.getMetadata() != null
          && scale.getMetadata().getUid() != null
          && !scale.getMetadata().getUid().equals(controller.getUid())) {
        return null;
      }
      return scale.getSpec() == null ? 0 : scale.getSpec().getReplicas();
    } catch (RuntimeException e) {
      // Not found, no scale subresource, or a kind the server does not serve: no finder knows it.
      return null;
    }
  }

  private static String groupOf(String apiVersion) {
    int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private static String versionOf(String apiVersion) {
    int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
    return slash < 0 ? Objects.toString(apiVersion, "v1") : apiVersion.substring(slash + 1);
  }

  /**
   * Enqueues the budgets of an object's namespace: those whose selector matches a pod's labels, or
   * all of them for a controller whose scale changed ({@code podLabels} null).
   */
  private <T> EventHandler<T> budgetsOf(
      Function<T, String> namespaceOf, Function<T, Map<String, String>> podLabels) {
    return new EventHandler<>() {
      @Override
      public void create(T object, RateLimitingQueue<Request> queue) {
        enqueue(object, queue);
      }

      @Override
      public void update(T oldObject, T newObject, RateLimitingQueue<Request> queue) {
        enqueue(oldObject, queue);
        enqueue(newObject, queue);
      }

      @Override
      public void delete(T object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        enqueue(object, queue);
      }

      private void enqueue(T object, RateLimitingQueue<Request> queue) {
        String namespace = namespaceOf.apply(object);
        for (PodDisruptionBudget pdb : budgets.namespace(namespace).list(Selector.everything())) {
          if (podLabels != null) {
            if (pdb.getSpec() == null || pdb.getSpec().getSelector() == null) {
              continue;
            }
            Map<String, String> given = podLabels.apply(object);
            Map<String, String> labels = given == null ? Map.of() : given;
            if (!LabelSelectors.toSelector(pdb.getSpec().getSelector()).matches(labels)) {
              continue;
            }
          }
          queue.add(Request.of(pdb));
        }
      }
    };
  }
}
