package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.quota.QuotaEvaluator;
import dev.machinery.quota.ResourceLists;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * kube-apiserver's {@code ResourceQuota} plugin: a create (or an update that may change usage, such
 * as a Service's type or a claim's storage) in a namespace is counted against every ResourceQuota
 * of the namespace whose {@code status.hard} tracks a resource it uses and whose scopes select it;
 * usage over {@code status.hard} is refused in kube's words ({@code exceeded quota: q, requested:
 * pods=1, used: pods=1, limited: pods=1}), as are a quota whose usage is not yet known ({@code
 * status unknown for quota}) and a Pod lacking a compute resource the quota tracks ({@code failed
 * quota: q: must specify ...}). What is admitted is written to the quotas' {@code status.used}
 * through the loopback at the quota's resourceVersion, retried on a conflict (not on dry run).
 * Writes of one namespace are counted one at a time. Thread-safe once initialized.
 */
final class ResourceQuota implements ValidatingAdmissionPlugin {
  static final String NAME = "ResourceQuota";
  private static final GroupResource QUOTAS = GroupResource.of("", "resourcequotas");
  private static final GroupResource EVENTS = GroupResource.of("", "events");
  private static final GroupResource NAMESPACES = GroupResource.of("", "namespaces");
  private static final int RETRIES = 3;

  private final Loopback loopback = new Loopback();
  private final NamespacesWithoutQuotas withoutQuotas;
  private final ReentrantLock[] locks = new ReentrantLock[64];
  private final Clock clock;

  ResourceQuota() {
    this(Clock.systemUTC());
  }

  ResourceQuota(Clock clock) {
    this.clock = clock;
    this.withoutQuotas = new NamespacesWithoutQuotas(System::nanoTime);
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE || operation == Operation.UPDATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (!a.subresource().isEmpty()
        || a.namespace().isEmpty()
        || a.resource().equals(NAMESPACES)
        || a.resource().equals(EVENTS)) {
      return;
    }
    QuotaEvaluator evaluator = QuotaEvaluator.of(a.resource());
    if (!evaluator.handles(a.operation().name())) {
      return;
    }
    String path = "/api/v1/namespaces/" + a.namespace() + "/resourcequotas";
    if (a.resource().equals(QUOTAS)) {
      withoutQuotas.forget(a.namespace());
    }
    if (!mayHaveQuotas(a.namespace(), path, !a.resource().equals(QUOTAS))) {
      return; // most namespaces have no quota: no lock taken, no read of the storage
    }
    ReentrantLock lock = locks[Math.floorMod(a.namespace().hashCode(), locks.length)];
    lock.lock();
    try {
      List<Map<String, Object>> quotas = loopback.list(path);
      for (int attempt = 0; !quotas.isEmpty(); attempt++) {
        List<Map<String, Object>> changed = check(quotas, a, evaluator, clock.instant());
        if (a.dryRun() || changed.isEmpty()) {
          return;
        }
        Set<String> failed = new HashSet<>();
        for (Map<String, Object> quota : changed) {
          String name = JsonTrees.string(quota, "", "metadata", "name");
          int status = loopback.update(path + "/" + name + "/status", quota);
          if (status == 409 || status == 404) {
            failed.add(name);
          } else if (status != 200) {
            throw ApiErrors.newInternalError(
                new IllegalStateException(
                    "updating the status of resourcequota " + name + " answered " + status));
          }
        }
        if (failed.isEmpty()) {
          return;
        }
        if (attempt == RETRIES) {
          throw ApiErrors.newConflict(
              QUOTAS,
              failed.iterator().next(),
              "the object has been modified; please apply your changes to the latest version and"
                  + " try again");
        }
        // The quotas already charged stay charged: only those whose update failed are read again.
        List<Map<String, Object>> again = new ArrayList<>();
        for (Map<String, Object> quota : loopback.list(path)) {
          if (failed.contains(JsonTrees.string(quota, "", "metadata", "name"))) {
            again.add(quota);
          }
        }
        quotas = again;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether the namespace may hold quotas, as kube's quota accessor tells: from the watch cache,
   * and when that shows none, from a live list, which is remembered for {@link
   * NamespacesWithoutQuotas#TTL} when it finds none too (a quota created through this server is
   * counted from its own write on: its write forgets the namespace, and is not remembered as
   * without quotas by the live list made while it is admitted, nor by one that ran meanwhile).
   */
  private boolean mayHaveQuotas(String namespace, String path, boolean remember) {
    if (!loopback.listCached(path).isEmpty()) {
      return true;
    }
    if (withoutQuotas.known(namespace)) {
      return false;
    }
    long writes = withoutQuotas.writes();
    boolean none = loopback.list(path).isEmpty();
    if (none && remember) {
      withoutQuotas.remember(namespace, writes);
    }
    return !none;
  }

  /**
   * Counts a write against the namespace's quotas, as Kubernetes' {@code CheckRequest}.
   *
   * @return copies of the quotas whose {@code status.used} the write changes, with the new usage
   * @throws AdmissionException when the write does not fit
   */
  static List<Map<String, Object>> check(
      List<Map<String, Object>> quotas,
      AdmissionAttributes a,
      QuotaEvaluator evaluator,
      Instant now) {
    Map<String, Object> object = tree(a.object());
    List<Integer> interesting = new ArrayList<>();
    for (int i = 0; i < quotas.size(); i++) {
      Map<String, Object> quota = quotas.get(i);
      String name = JsonTrees.string(quota, "", "metadata", "name");
      TreeMap<String, Quantity> hard = ResourceLists.of(quota, "status", "hard");
      if (!evaluator.matches(hard, scopeSelectors(quota), object)) {
        continue;
      }
      List<String> restricted = evaluator.matchingResources(hard.keySet());
      Optional<String> violation = evaluator.constraints(restricted, object);
      if (violation.isPresent()) {
        throw new AdmissionException("failed quota: " + name + ": " + violation.get());
      }
      Map<String, Quantity> used = ResourceLists.of(quota, "status", "used");
      for (String resource : restricted) {
        if (!used.containsKey(resource)) {
          throw new AdmissionException(
              "status unknown for quota: "
                  + name
                  + ", resources: "
                  + String.join(",", new TreeSet<>(restricted)));
        }
      }
      interesting.add(i);
    }
    if (interesting.isEmpty()) {
      return List.of();
    }
    Map<String, Quantity> input = evaluator.usage(object, now);
    Set<String> negative = new TreeSet<>();
    input.forEach(
        (name, q) -> {
          if (q.signum() < 0) {
            negative.add(name);
          }
        });
    if (!negative.isEmpty()) {
      throw new AdmissionException(
          "quota usage is negative for resource(s): " + String.join(",", negative));
    }
    Map<Integer, Map<String, Quantity>> deltas = new LinkedHashMap<>();
    for (int index : interesting) {
      deltas.put(index, input);
    }
    if (a.operation() == Operation.UPDATE) {
      if (a.oldObject() == null) {
        throw new AdmissionException(
            "unable to get previous usage since prior version of object was not found");
      }
      Map<String, Object> old = tree(a.oldObject());
      // An update that creates is charged in full; otherwise by what grew.
      if (!JsonTrees.string(old, "", "metadata", "resourceVersion").isEmpty()) {
        Map<String, Quantity> previous = evaluator.usage(old, now);
        Map<String, Quantity> delta = new TreeMap<>();
        input.forEach(
            (name, q) -> {
              Quantity before = previous.get(name);
              Quantity d = before == null ? q : q.subtract(before);
              delta.put(name, d.signum() < 0 ? Quantity.ZERO : d);
            });
        for (int index : interesting) {
          Map<String, Object> quota = quotas.get(index);
          if (evaluator.matches(
              ResourceLists.of(quota, "status", "hard"), scopeSelectors(quota), old)) {
            deltas.put(index, delta);
          }
        }
      }
    }
    deltas.replaceAll((index, usage) -> withoutZeros(usage));
    deltas.values().removeIf(Map::isEmpty);
    List<Map<String, Object>> out = new ArrayList<>();
    for (int index : interesting) {
      Map<String, Quantity> delta = deltas.get(index);
      if (delta == null) {
        continue;
      }
      Map<String, Object> quota = quotas.get(index);
      String name = JsonTrees.string(quota, "", "metadata", "name");
      TreeMap<String, Quantity> hard = ResourceLists.of(quota, "status", "hard");
      TreeMap<String, Quantity> used = ResourceLists.of(quota, "status", "used");
      TreeMap<String, Quantity> requested = new TreeMap<>(delta);
      requested.keySet().retainAll(hard.keySet());
      TreeMap<String, Quantity> next = new TreeMap<>(used);
      ResourceLists.add(next, requested);
      Set<String> exceeded = new TreeSet<>();
      for (String resource : requested.keySet()) {
        if (next.get(resource).compareTo(hard.get(resource)) > 0) {
          exceeded.add(resource);
        }
      }
      if (!exceeded.isEmpty()) {
        throw new AdmissionException(
            "exceeded quota: "
                + name
                + ", requested: "
                + print(requested, exceeded)
                + ", used: "
                + print(used, exceeded)
                + ", limited: "
                + print(hard, exceeded));
      }
      if (requested.isEmpty()) {
        continue;
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> copy = (Map<String, Object>) JsonTrees.deepCopy(quota);
      Map<String, Object> usedTree = new LinkedHashMap<>();
      next.forEach((resource, q) -> usedTree.put(resource, q.toString()));
      JsonTrees.child(copy, "status").put("used", usedTree);
      out.add(copy);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> tree(Object object) {
    return ((Unstructured) object).content();
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

  private static Map<String, Quantity> withoutZeros(Map<String, Quantity> usage) {
    Map<String, Quantity> out = new TreeMap<>(usage);
    out.values().removeIf(Quantity::isZero);
    return out;
  }

  /** Go's {@code prettyPrint} of the named entries: {@code a=1,b=2Gi}, sorted. */
  private static String print(TreeMap<String, Quantity> list, Set<String> names) {
    List<String> parts = new ArrayList<>();
    list.forEach(
        (name, q) -> {
          if (names.contains(name)) {
            parts.add(name + "=" + q);
          }
        });
    return String.join(",", parts);
  }
}
