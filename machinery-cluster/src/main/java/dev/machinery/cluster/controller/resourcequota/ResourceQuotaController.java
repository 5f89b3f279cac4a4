package dev.machinery.cluster.controller.resourcequota;

import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.ResourceEventHandler;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.quota.QuotaEvaluator;
import dev.machinery.quota.ResourceLists;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's resource quota controller (Go's {@code pkg/controller/resourcequota}):
 * a ResourceQuota created, or whose {@code spec.hard} changed, gets {@code status.hard = spec.hard}
 * and {@code status.used} computed from the objects of its namespace its scopes select, by the same
 * usage rules as the API server's {@code ResourceQuota} admission plugin; usage goes down again
 * (replenishment) when an object is deleted or an update lowers what it charges (a Pod that
 * finished, a Service that is no longer a {@code NodePort}, a claim's storage); every quota is
 * recomputed each {@link #RESYNC} ({@code --resource-quota-sync-period}). Pods, Services, claims,
 * ConfigMaps, Secrets, ReplicationControllers and ResourceQuotas are watched through informers;
 * another resource a quota counts ({@code count/deployments.apps}) gets an informer when a quota
 * first names it, its deletes replenishing too. It writes as {@value #IDENTITY}.
 *
 * <p>Thread-safe: the controller's workers may sync different quotas at once.
 */
public final class ResourceQuotaController {
  /** kube-controller-manager's name of this controller. */
  public static final String NAME = "resourcequota-controller";

  /** The older name {@code --controllers} accepts. */
  public static final String ALIAS = "resourcequota";

  /** The service account the controller writes as. */
  public static final String IDENTITY = "resourcequota-controller";

  /** How often every quota is recomputed: kube-controller-manager's default, five minutes. */
  public static final Duration RESYNC = Duration.ofMinutes(5);

  private static final GroupVersionResource QUOTAS =
      GroupVersionResource.of("", "v1", "resourcequotas");

  /** The resources watched for replenishment, as kube's quota monitor starts with. */
  private static final List<String> WATCHED =
      List.of(
          "pods",
          "services",
          "persistentvolumeclaims",
          "configmaps",
          "secrets",
          "replicationcontrollers",
          "resourcequotas");

  private final ControllerContext context;
  private final Lister<Unstructured> quotas;
  private final Map<String, Lister<Unstructured>> watched;
  private final Client client;
  private final Clock clock;

  /** Informers of the other resources quotas count, started when a quota first names them. */
  private final Map<GroupVersionResource, SharedIndexInformer<Unstructured>> counted =
      new ConcurrentHashMap<>();

  private volatile RateLimitingQueue<Request> queue;

  private ResourceQuotaController(
      ControllerContext context,
      Lister<Unstructured> quotas,
      Map<String, Lister<Unstructured>> watched,
      Client client,
      Clock clock) {
    this.context = context;
    this.quotas = quotas;
    this.watched = watched;
    this.client = client;
    this.clock = clock;
  }

  /**
   * Sets the controller up in a context: informers of quotas and of the resources they count, a
   * controller keyed by quota.
   *
   * @param context the controller context
   * @throws InterruptedException when interrupted while a late controller waits for its caches
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    var quotaInformer = context.informer(QUOTAS);
    Map<String, Lister<Unstructured>> listers = new LinkedHashMap<>();
    Map<String, SharedIndexInformer<Unstructured>> informers = new LinkedHashMap<>();
    for (String resource : WATCHED) {
      var informer =
          resource.equals("resourcequotas")
              ? quotaInformer
              : context.informer(GroupVersionResource.of("", "v1", resource));
      informers.put(resource, informer);
      listers.put(resource, informer.lister());
    }
    ResourceQuotaController sync =
        new ResourceQuotaController(
            context, quotaInformer.lister(), listers, context.client(IDENTITY), context.clock());
    Controller.Builder builder =
        Controller.builder(NAME, sync::reconcile).watches(quotaInformer, quotaEvents());
    for (var entry : informers.entrySet()) {
      builder.watches(
          entry.getValue(),
          sync.replenishment(QuotaEvaluator.of(GroupResource.of("", entry.getKey()))));
    }
    Controller controller = builder.workers(2).build();
    sync.queue = controller.queue();
    context.add(controller);
  }

  /** Recomputes one quota's status. */
  Result reconcile(Request request) {
    var found = quotas.namespace(request.namespace()).get(request.name());
    if (found.isEmpty()) {
      return Result.done();
    }
    Map<String, Object> quota = found.get().content();
    TreeMap<String, Quantity> hard = ResourceLists.of(quota, "spec", "hard");
    TreeMap<String, Quantity> oldHard = ResourceLists.of(quota, "status", "hard");
    TreeMap<String, Quantity> oldUsed = ResourceLists.of(quota, "status", "used");
    boolean dirty =
        JsonTrees.map(quota, "status", "hard") == null
            || JsonTrees.map(quota, "status", "used") == null
            || !same(hard, oldHard);
    TreeMap<String, Quantity> used = new TreeMap<>(oldUsed);
    used.putAll(usage(request.namespace(), quota, hard));
    used.keySet().retainAll(hard.keySet());
    dirty = dirty || !same(used, oldUsed);
    if (dirty) {
      @SuppressWarnings("unchecked")
      Map<String, Object> copy = (Map<String, Object>) JsonTrees.deepCopy(quota);
      Map<String, Object> status = new LinkedHashMap<>();
      status.put("hard", strings(hard));
      status.put("used", strings(used));
      copy.put("status", status);
      try {
        client
            .resources(QUOTAS)
            .inNamespace(request.namespace())
            .updateStatus(new Unstructured(copy), new UpdateOptions());
      } catch (RuntimeException e) {
        if (ApiErrors.isNotFound(e)) {
          return Result.done();
        }
        if (ApiErrors.isConflict(e)) {
          return Result.requeueRateLimited();
        }
        throw e;
      }
    }
    return Result.requeueAfter(RESYNC);
  }

  /**
   * Go's {@code CalculateUsage}: for each evaluator tracking some of the quota's resources, the sum
   * of what the namespace's objects its scopes select charge, zero for a resource nothing charges.
   */
  private Map<String, Quantity> usage(
      String namespace, Map<String, Object> quota, Map<String, Quantity> hard) {
    List<Map<String, Object>> scopes = scopeSelectors(quota);
    Map<String, Quantity> out = new TreeMap<>();
    List<String> remaining = new ArrayList<>(hard.keySet());
    for (String resource : WATCHED) {
      QuotaEvaluator evaluator = QuotaEvaluator.of(GroupResource.of("", resource));
      List<String> matched = evaluator.matchingResources(hard.keySet());
      if (matched.isEmpty()) {
        continue;
      }
      remaining.removeAll(matched);
      List<Map<String, Object>> objects = new ArrayList<>();
      for (Unstructured object :
          watched.get(resource).namespace(namespace).list(Selector.everything())) {
        objects.add(object.content());
      }
      out.putAll(sum(evaluator, matched, scopes, objects));
    }
    // Other resources counted by name: count/<resource>[.<group>], through an informer started
    // when a quota first names the resource (listed directly until it has synced).
    for (String name : remaining) {
      if (!name.startsWith("count/")) {
        continue;
      }
      String qualified = name.substring("count/".length());
      int dot = qualified.indexOf('.');
      GroupResource resource =
          dot < 0
              ? GroupResource.of("", qualified)
              : GroupResource.of(qualified.substring(dot + 1), qualified.substring(0, dot));
      GroupVersionResource versioned;
      try {
        versioned =
            client
                .restMapper()
                .resourceFor(GroupVersionResource.of(resource.group(), "", resource.resource()));
      } catch (RuntimeException e) {
        continue; // not served (yet): its usage stays as it was
      }
      QuotaEvaluator evaluator = QuotaEvaluator.of(resource);
      SharedIndexInformer<Unstructured> informer =
          counted.computeIfAbsent(versioned, gvr -> countedInformer(gvr, evaluator));
      List<Unstructured> listed =
          informer.hasSynced()
              ? informer.lister().namespace(namespace).list(Selector.everything())
              : client.resources(versioned).inNamespace(namespace).listAll(new ListOptions());
      List<Map<String, Object>> objects = new ArrayList<>();
      for (Unstructured object : listed) {
        objects.add(object.content());
      }
      out.putAll(sum(evaluator, evaluator.matchingResources(List.of(name)), scopes, objects));
    }
    return out;
  }

  /** The shared informer of a counted resource, whose deletes replenish the quotas counting it. */
  private SharedIndexInformer<Unstructured> countedInformer(
      GroupVersionResource resource, QuotaEvaluator evaluator) {
    SharedIndexInformer<Unstructured> informer = context.informer(resource);
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onDelete(Unstructured object, boolean finalStateUnknown) {
            RateLimitingQueue<Request> q = queue;
            if (q != null) {
              replenish(evaluator, object, q);
            }
          }
        });
    return informer;
  }

  private Map<String, Quantity> sum(
      QuotaEvaluator evaluator,
      List<String> resources,
      List<Map<String, Object>> scopes,
      List<Map<String, Object>> objects) {
    Map<String, Quantity> out = new TreeMap<>();
    for (String resource : resources) {
      out.put(resource, Quantity.ZERO);
    }
    objects:
    for (Map<String, Object> object : objects) {
      for (Map<String, Object> selector : scopes) {
        if (!evaluator.matchesScope(selector, object)) {
          continue objects;
        }
      }
      evaluator
          .usage(object, clock.now())
          .forEach(
              (resource, q) -> {
                if (out.containsKey(resource)) {
                  out.put(resource, out.get(resource).add(q));
                }
              });
    }
    return out;
  }

  /** The quota's scopes (each as {@code Exists}) and its scope selector's requirements. */
  static List<Map<String, Object>> scopeSelectors(Map<String, Object> quota) {
    List<Map<String, Object>> out = new ArrayList<>();
    if (JsonTrees.get(quota, "spec", "scopes") instanceof List<?> scopes) {
      for (Object scope : scopes) {
        out.add(Map.of("scopeName", String.valueOf(scope), "operator", "Exists"));
      }
    }
    out.addAll(JsonTrees.maps(quota, "spec", "scopeSelector", "matchExpressions"));
    return out;
  }

  private static boolean same(Map<String, Quantity> a, Map<String, Quantity> b) {
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    for (var entry : a.entrySet()) {
      if (entry.getValue().compareTo(b.get(entry.getKey())) != 0) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, Object> strings(Map<String, Quantity> list) {
    Map<String, Object> out = new LinkedHashMap<>();
    list.forEach((name, q) -> out.put(name, q.toString()));
    return out;
  }

  /** Kube's quota events: a new quota, or one whose {@code spec.hard} changed. */
  private static EventHandler<Unstructured> quotaEvents() {
    return new EventHandler<>() {
      @Override
      public void create(Unstructured object, RateLimitingQueue<Request> queue) {
        queue.add(request(object));
      }

      @Override
      public void update(
          Unstructured oldObject, Unstructured newObject, RateLimitingQueue<Request> queue) {
        if (!same(
            ResourceLists.of(oldObject.content(), "spec", "hard"),
            ResourceLists.of(newObject.content(), "spec", "hard"))) {
          queue.add(request(newObject));
        }
      }

      @Override
      public void delete(
          Unstructured object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {}
    };
  }

  private static Request request(Unstructured object) {
    return new Request(
        JsonTrees.string(object.content(), "", "metadata", "namespace"),
        JsonTrees.string(object.content(), "", "metadata", "name"));
  }

  /**
   * Replenishment: an object deleted, or updated so that it charges differently, queues the quotas
   * of its namespace that count its resource.
   */
  private EventHandler<Unstructured> replenishment(QuotaEvaluator evaluator) {
    return new EventHandler<>() {
      @Override
      public void create(Unstructured object, RateLimitingQueue<Request> queue) {
        // Admission charged it.
      }

      @Override
      public void update(
          Unstructured oldObject, Unstructured newObject, RateLimitingQueue<Request> queue) {
        var now = clock.now();
        if (!Objects.equals(
            evaluator.usage(oldObject.content(), now), evaluator.usage(newObject.content(), now))) {
          replenish(evaluator, newObject, queue);
        }
      }

      @Override
      public void delete(
          Unstructured object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        replenish(evaluator, object, queue);
      }
    };
  }

  private void replenish(
      QuotaEvaluator evaluator, Unstructured object, RateLimitingQueue<Request> queue) {
    String namespace = JsonTrees.string(object.content(), "", "metadata", "namespace");
    if (namespace.isEmpty()) {
      return;
    }
    for (Unstructured quota : quotas.namespace(namespace).list(Selector.everything())) {
      if (!evaluator
          .matchingResources(ResourceLists.of(quota.content(), "status", "hard").keySet())
          .isEmpty()) {
        queue.add(request(quota));
      }
    }
  }
}
