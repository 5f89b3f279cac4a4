package dev.machinery.cluster.controller.resourcequota;

import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.resource.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a ResourceQuota counts of one kind of object, as Kubernetes' quota evaluators ({@code
 * pkg/quota/v1/evaluator/core} and the generic object count evaluator): the resource names it
 * tracks, whether a quota's scopes select an object and the usage one object charges. Works on
 * objects as JSON trees ({@code Unstructured} content). The same arithmetic as the API server's
 * {@code ResourceQuota} admission plugin (machinery-builtins), which this module does not depend
 * on. Immutable and thread-safe.
 */
abstract class QuotaEvaluator {
  static final String REQUESTS_PREFIX = "requests.";
  private static final Quantity ONE = Quantity.parse("1");
  private static final Pattern QUALIFIED_NAME =
      Pattern.compile(
          "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
              + "[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

  final GroupResource resource;

  private QuotaEvaluator(GroupResource resource) {
    this.resource = resource;
  }

  /** The evaluator of a resource: Kubernetes' own for pods, services and claims, else a count. */
  static QuotaEvaluator of(GroupResource resource) {
    if (resource.group().isEmpty()) {
      switch (resource.resource()) {
        case "pods":
          return new Pods();
        case "services":
          return new Services();
        case "persistentvolumeclaims":
          return new Claims();
        case "configmaps", "secrets", "replicationcontrollers", "resourcequotas":
          return new ObjectCount(resource, resource.resource());
        default:
          break;
      }
    }
    return new ObjectCount(resource, null);
  }

  /** {@code count/<resource>} for the core group, {@code count/<resource>.<group>} otherwise. */
  static String objectCountName(GroupResource resource) {
    return resource.group().isEmpty()
        ? "count/" + resource.resource()
        : "count/" + resource.resource() + "." + resource.group();
  }

  /** The names among {@code names} this evaluator tracks, in their order. */
  abstract List<String> matchingResources(Collection<String> names);

  /** Whether the object falls in a scope selector ({@code scopeName}, {@code operator}, ...). */
  boolean matchesScope(Map<String, Object> selector, Map<String, Object> object) {
    return false;
  }

  /** What the object charges, by resource name. */
  abstract Map<String, Quantity> usage(Map<String, Object> object, Instant now);

  /** Whether a quota applies: it tracks one of our resources and all its scopes select us. */
  boolean matches(
      Map<String, Quantity> hard, List<Map<String, Object>> scopes, Map<String, Object> object) {
    if (matchingResources(hard.keySet()).isEmpty()) {
      return false;
    }
    for (Map<String, Object> selector : scopes) {
      if (!matchesScope(selector, object)) {
        return false;
      }
    }
    return true;
  }

  // ---- quantities -----------------------------------------------------------------------------

  /** A resource list of a tree (a map of names to quantities), sorted by name; empty when none. */
  static TreeMap<String, Quantity> resourceList(Object tree, String... path) {
    TreeMap<String, Quantity> out = new TreeMap<>();
    Map<String, Object> map = Trees.map(tree, path);
    if (map != null) {
      map.forEach(
          (name, value) -> {
            if (value != null) {
              out.put(name, Quantity.parse(String.valueOf(value)));
            }
          });
    }
    return out;
  }

  /** Adds {@code more} into {@code into}, as Go's {@code quota.Add}. */
  static void add(Map<String, Quantity> into, Map<String, Quantity> more) {
    more.forEach((name, q) -> into.merge(name, q, Quantity::add));
  }

  /** Go's {@code maxResourceList}: each name takes the larger value. */
  private static void max(Map<String, Quantity> into, Map<String, Quantity> other) {
    other.forEach(
        (name, q) -> {
          Quantity have = into.get(name);
          if (have == null || q.compareTo(have) > 0) {
            into.put(name, q);
          }
        });
  }

  // ---- pods -----------------------------------------------------------------------------------

  /** Kubernetes' pod evaluator: compute resources of pods not yet finished, and their count. */
  static final class Pods extends QuotaEvaluator {
    static final List<String> RESOURCES =
        List.of(
            "count/pods",
            "cpu",
            "memory",
            "ephemeral-storage",
            "requests.cpu",
            "requests.memory",
            "requests.ephemeral-storage",
            "limits.cpu",
            "limits.memory",
            "limits.ephemeral-storage",
            "pods");

    Pods() {
      super(GroupResource.of("", "pods"));
    }

    @Override
    List<String> matchingResources(Collection<String> names) {
      List<String> out = new ArrayList<>();
      for (String name : names) {
        if (RESOURCES.contains(name)
            || name.startsWith("hugepages-")
            || name.startsWith("requests.hugepages-")
            || (!isNative(name) && name.startsWith(REQUESTS_PREFIX))) {
          out.add(name);
        }
      }
      return out;
    }

    @Override
    boolean matchesScope(Map<String, Object> selector, Map<String, Object> pod) {
      String scope = Trees.string(selector, "", "scopeName");
      return switch (scope) {
        case "Terminating" -> terminating(pod);
        case "NotTerminating" -> !terminating(pod);
        case "BestEffort" -> bestEffort(pod);
        case "NotBestEffort" -> !bestEffort(pod);
        case "PriorityClass" -> priorityClass(selector, pod);
        case "CrossNamespacePodAffinity" -> crossNamespaceAffinity(pod);
        default -> false;
      };
    }

    private static boolean terminating(Map<String, Object> pod) {
      return Trees.get(pod, "spec", "activeDeadlineSeconds") instanceof Number n
          && n.longValue() >= 0;
    }

    /** QoS class BestEffort: no container asks for or limits cpu or memory. */
    static boolean bestEffort(Map<String, Object> pod) {
      List<Map<String, Object>> all = new ArrayList<>(Trees.maps(pod, "spec", "containers"));
      all.addAll(Trees.maps(pod, "spec", "initContainers"));
      for (Map<String, Object> c : all) {
        for (String part : List.of("requests", "limits")) {
          Map<String, Quantity> list = resourceList(c, "resources", part);
          for (String name : List.of("cpu", "memory")) {
            Quantity q = list.get(name);
            if (q != null && q.signum() > 0) {
              return false;
            }
          }
        }
      }
      return true;
    }

    /** A label selector requirement on the label set {@code PriorityClass=<the pod's class>}. */
    private static boolean priorityClass(Map<String, Object> selector, Map<String, Object> pod) {
      String className = Trees.string(pod, "", "spec", "priorityClassName");
      String operator = Trees.string(selector, "", "operator");
      List<String> values = new ArrayList<>();
      if (Trees.get(selector, "values") instanceof List<?> list) {
        list.forEach(v -> values.add(String.valueOf(v)));
      }
      boolean has = !className.isEmpty();
      return switch (operator) {
        case "Exists" -> has;
        case "DoesNotExist" -> !has;
        case "In" -> has && values.contains(className);
        case "NotIn" -> !has || !values.contains(className);
        default -> false;
      };
    }

    private static boolean crossNamespaceAffinity(Map<String, Object> pod) {
      for (String kind : List.of("podAffinity", "podAntiAffinity")) {
        for (Map<String, Object> term :
            Trees.maps(
                pod, "spec", "affinity", kind, "requiredDuringSchedulingIgnoredDuringExecution")) {
          if (crossNamespace(term)) {
            return true;
          }
        }
        for (Map<String, Object> weighted :
            Trees.maps(
                pod, "spec", "affinity", kind, "preferredDuringSchedulingIgnoredDuringExecution")) {
          Map<String, Object> term = Trees.map(weighted, "podAffinityTerm");
          if (term != null && crossNamespace(term)) {
            return true;
          }
        }
      }
      return false;
    }

    private static boolean crossNamespace(Map<String, Object> term) {
      return (Trees.get(term, "namespaces") instanceof List<?> l && !l.isEmpty())
          || Trees.get(term, "namespaceSelector") != null;
    }

    @Override
    Map<String, Quantity> usage(Map<String, Object> pod, Instant now) {
      TreeMap<String, Quantity> out = new TreeMap<>();
      out.put("count/pods", ONE);
      if (!charged(pod, now)) {
        return out;
      }
      add(
          out,
          computeUsage(podResources(pod, "requests", true), podResources(pod, "limits", false)));
      return out;
    }

    /** A pod is charged until it finishes or its deletion's grace period has passed. */
    private static boolean charged(Map<String, Object> pod, Instant now) {
      String phase = Trees.string(pod, "", "status", "phase");
      if (phase.equals("Failed") || phase.equals("Succeeded")) {
        return false;
      }
      String deleted = Trees.string(pod, "", "metadata", "deletionTimestamp");
      if (!deleted.isEmpty()
          && Trees.get(pod, "metadata", "deletionGracePeriodSeconds") instanceof Number grace) {
        try {
          return !now.isAfter(Instant.parse(deleted).plusSeconds(grace.longValue()));
        } catch (DateTimeParseException e) {
          return true;
        }
      }
      return true;
    }

    /**
     * The pod's requests or limits as the scheduler sums them: the containers' sum with the
     * restartable (sidecar) init containers, at least each init container's own with the sidecars
     * started before it, plus the overhead (for limits, only onto limits that are set).
     */
    static Map<String, Quantity> podResources(
        Map<String, Object> pod, String part, boolean requests) {
      TreeMap<String, Quantity> sum = new TreeMap<>();
      for (Map<String, Object> c : Trees.maps(pod, "spec", "containers")) {
        add(sum, resourceList(c, "resources", part));
      }
      TreeMap<String, Quantity> sidecars = new TreeMap<>();
      TreeMap<String, Quantity> init = new TreeMap<>();
      for (Map<String, Object> c : Trees.maps(pod, "spec", "initContainers")) {
        Map<String, Quantity> own = resourceList(c, "resources", part);
        Map<String, Quantity> effective;
        if ("Always".equals(Trees.string(c, "", "restartPolicy"))) {
          add(sum, own);
          add(sidecars, own);
          effective = new TreeMap<>(sidecars);
        } else {
          effective = new TreeMap<>(own);
          add(effective, sidecars);
        }
        max(init, effective);
      }
      max(sum, init);
      Map<String, Quantity> overhead = resourceList(pod, "spec", "overhead");
      if (requests) {
        add(sum, overhead);
      } else {
        overhead.forEach((name, q) -> sum.computeIfPresent(name, (k, have) -> have.add(q)));
      }
      return sum;
    }

    /** Go's {@code podComputeUsageHelper}: the quota names a set of requests and limits fill. */
    static Map<String, Quantity> computeUsage(
        Map<String, Quantity> requests, Map<String, Quantity> limits) {
      TreeMap<String, Quantity> out = new TreeMap<>();
      out.put("pods", ONE);
      for (String name : List.of("cpu", "memory", "ephemeral-storage")) {
        Quantity request = requests.get(name);
        if (request != null) {
          out.put(name, request);
          out.put(REQUESTS_PREFIX + name, request);
        }
        Quantity limit = limits.get(name);
        if (limit != null) {
          out.put("limits." + name, limit);
        }
      }
      requests.forEach(
          (name, request) -> {
            if (name.startsWith("hugepages-")) {
              out.put(name, request);
              out.put(REQUESTS_PREFIX + name, request);
            }
            if (isExtended(name)) {
              out.put(REQUESTS_PREFIX + name, request);
            }
          });
      return out;
    }
  }

  /** Kubernetes' {@code IsNativeResource}: no domain, or a {@code kubernetes.io} one. */
  static boolean isNative(String name) {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  /** Kubernetes' {@code IsExtendedResourceName}. */
  static boolean isExtended(String name) {
    return !isNative(name)
        && !name.startsWith(REQUESTS_PREFIX)
        && QUALIFIED_NAME.matcher(REQUESTS_PREFIX + name).matches();
  }

  // ---- services -------------------------------------------------------------------------------

  /** Kubernetes' service evaluator: services, load balancers and node ports. */
  static final class Services extends QuotaEvaluator {
    private static final List<String> RESOURCES =
        List.of("count/services", "services", "services.nodeports", "services.loadbalancers");

    Services() {
      super(GroupResource.of("", "services"));
    }

    @Override
    List<String> matchingResources(Collection<String> names) {
      return names.stream().filter(RESOURCES::contains).toList();
    }

    @Override
    Map<String, Quantity> usage(Map<String, Object> service, Instant now) {
      TreeMap<String, Quantity> out = new TreeMap<>();
      List<Map<String, Object>> ports = Trees.maps(service, "spec", "ports");
      out.put("count/services", ONE);
      out.put("services", ONE);
      out.put("services.loadbalancers", Quantity.ZERO);
      out.put("services.nodeports", Quantity.ZERO);
      switch (Trees.string(service, "", "spec", "type")) {
        case "NodePort" -> out.put("services.nodeports", count(ports.size()));
        case "LoadBalancer" -> {
          if (Boolean.FALSE.equals(Trees.get(service, "spec", "allocateLoadBalancerNodePorts"))) {
            long explicit = ports.stream().filter(p -> Trees.number(p, 0, "nodePort") != 0).count();
            out.put("services.nodeports", count(explicit));
          } else {
            out.put("services.nodeports", count(ports.size()));
          }
          out.put("services.loadbalancers", ONE);
        }
        default -> {}
      }
      return out;
    }
  }

  private static Quantity count(long n) {
    return Quantity.of(n, Quantity.Format.DECIMAL_SI);
  }

  // ---- persistent volume claims ---------------------------------------------------------------

  /** Kubernetes' claim evaluator: claims and storage, in total and by storage class. */
  static final class Claims extends QuotaEvaluator {
    static final String STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
    private static final List<String> RESOURCES =
        List.of("persistentvolumeclaims", "requests.storage");

    Claims() {
      super(GroupResource.of("", "persistentvolumeclaims"));
    }

    @Override
    List<String> matchingResources(Collection<String> names) {
      List<String> out = new ArrayList<>();
      for (String name : names) {
        if (name.equals("count/persistentvolumeclaims") || RESOURCES.contains(name)) {
          out.add(name);
          continue;
        }
        for (String r : RESOURCES) {
          if (name.endsWith(STORAGE_CLASS_SUFFIX + r)) {
            out.add(name);
            break;
          }
        }
      }
      return out;
    }

    /** The claim's class: the beta annotation first, then {@code spec.storageClassName}. */
    static String storageClass(Map<String, Object> claim) {
      Map<String, Object> annotations = Trees.map(claim, "metadata", "annotations");
      if (annotations != null
          && annotations.get("volume.beta.kubernetes.io/storage-class") instanceof String c) {
        return c;
      }
      return Trees.string(claim, "", "spec", "storageClassName");
    }

    @Override
    Map<String, Quantity> usage(Map<String, Object> claim, Instant now) {
      TreeMap<String, Quantity> out = new TreeMap<>();
      out.put("persistentvolumeclaims", ONE);
      out.put("count/persistentvolumeclaims", ONE);
      String storageClass = storageClass(claim);
      if (!storageClass.isEmpty()) {
        out.put(storageClass + STORAGE_CLASS_SUFFIX + "persistentvolumeclaims", ONE);
      }
      Quantity storage = storage(claim);
      if (storage != null) {
        out.put("requests.storage", storage);
        if (!storageClass.isEmpty()) {
          out.put(storageClass + STORAGE_CLASS_SUFFIX + "requests.storage", storage);
        }
      }
      return out;
    }

    /** The storage asked for, in whole bytes, or what is allocated when that is more. */
    private static Quantity storage(Map<String, Object> claim) {
      Quantity requested = resourceList(claim, "spec", "resources", "requests").get("storage");
      if (requested == null) {
        return null;
      }
      Quantity result = wholeBytes(requested);
      Quantity allocated = resourceList(claim, "status", "allocatedResources").get("storage");
      if (allocated != null && allocated.compareTo(result) > 0) {
        result = wholeBytes(allocated);
      }
      return result;
    }

    private static Quantity wholeBytes(Quantity q) {
      BigDecimal amount = q.amount();
      if (amount.stripTrailingZeros().scale() <= 0) {
        return q;
      }
      return Quantity.of(amount.setScale(0, RoundingMode.CEILING), q.format());
    }
  }

  // ---- object counts --------------------------------------------------------------------------

  /**
   * Kubernetes' generic object count: {@code count/<resource>[.<group>]}, and the legacy name (such
   * as {@code configmaps}) of the four kinds that have one; charged on create only.
   */
  static final class ObjectCount extends QuotaEvaluator {
    private final String countName;
    private final String alias;

    ObjectCount(GroupResource resource, String alias) {
      super(resource);
      this.countName = objectCountName(resource);
      this.alias = alias;
    }

    @Override
    List<String> matchingResources(Collection<String> names) {
      return names.stream().filter(n -> n.equals(countName) || n.equals(alias)).toList();
    }

    @Override
    Map<String, Quantity> usage(Map<String, Object> object, Instant now) {
      TreeMap<String, Quantity> out = new TreeMap<>();
      out.put(countName, ONE);
      if (alias != null) {
        out.put(alias, ONE);
      }
      return out;
    }
  }
}
