package dev.machinery.quota;

import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What a ResourceQuota counts of one kind of object, as Kubernetes' quota evaluators ({@code
 * pkg/quota/v1/evaluator/core} for Pods, Services and PersistentVolumeClaims, the generic object
 * count for every other resource): the resource names it tracks, whether a quota's scopes select an
 * object, the usage one object charges and what a Pod must state. Objects are read as JSON trees
 * ({@code Unstructured} content), leniently: a field of an unexpected type counts as absent.
 *
 * <p>Made by {@link #of}; immutable and thread-safe.
 */
public abstract class QuotaEvaluator {
  private static final String REQUESTS_PREFIX = "requests.";
  private static final Quantity ONE = Quantity.parse("1");
  private static final Pattern QUALIFIED_NAME =
      Pattern.compile(
          "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
              + "[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

  private final GroupResource resource;

  private QuotaEvaluator(GroupResource resource) {
    this.resource = resource;
  }

  /**
   * Returns the evaluator of a resource: Kubernetes' own for core Pods, Services and
   * PersistentVolumeClaims, else the generic object count (with the legacy name, such as {@code
   * configmaps}, of the four kinds that have one).
   *
   * @param resource the resource
   * @return its evaluator
   */
  public static QuotaEvaluator of(GroupResource resource) {
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

  /**
   * Returns the resource this evaluator counts.
   *
   * @return the group and resource
   */
  public final GroupResource groupResource() {
    return resource;
  }

  /** {@code count/<resource>} for the core group, {@code count/<resource>.<group>} otherwise. */
  private static String objectCountName(GroupResource resource) {
    return resource.group().isEmpty()
        ? "count/" + resource.resource()
        : "count/" + resource.resource() + "." + resource.group();
  }

  /**
   * Returns whether a write of this operation may change what a quota counts (Go's {@code
   * Handles}): a create always; an update of a Service or a claim, which may change its type or
   * size.
   *
   * @param operation the admission operation's name: {@code CREATE}, {@code UPDATE}, {@code DELETE}
   *     or {@code CONNECT}
   * @return whether to charge the write
   */
  public abstract boolean handles(String operation);

  /**
   * Returns the names among a quota's that this evaluator tracks (Go's {@code MatchingResources}).
   *
   * @param names resource names of a quota's {@code hard}
   * @return those this evaluator fills, in their order
   */
  public abstract List<String> matchingResources(Collection<String> names);

  /**
   * Returns whether an object falls in one of a quota's scopes: a scope selector's requirement
   * ({@code scopeName}, and for {@code PriorityClass} an {@code operator} and {@code values}), or a
   * {@code spec.scopes} entry as {@code {scopeName: ...}}. A scope this kind has none of selects
   * nothing.
   *
   * @param selector the requirement, a JSON tree
   * @param object the object
   * @return whether it is selected
   */
  public boolean matchesScope(Map<String, Object> selector, Map<String, Object> object) {
    return false;
  }

  /**
   * Returns what one object charges, by resource name (Go's {@code Usage}); a finished Pod, or one
   * past its deletion's grace period, charges only its count.
   *
   * @param object the object
   * @param now the time to judge a deletion's grace period by
   * @return a new map, sorted by name
   * @throws dev.machinery.unversioned.resource.QuantityFormatException if a quantity of the object
   *     is malformed
   */
  public abstract Map<String, Quantity> usage(Map<String, Object> object, Instant now);

  /**
   * Returns why an object cannot be counted against the resources a quota restricts (Go's {@code
   * Constraints}): a Pod under a quota of cpu or memory must state them for every container, in
   * Kubernetes' words ({@code must specify limits.cpu for: a,b; memory for: a}).
   *
   * @param required the quota's resource names this evaluator tracks
   * @param object the object
   * @return the reason, or empty when the object can be counted
   */
  public Optional<String> constraints(Collection<String> required, Map<String, Object> object) {
    return Optional.empty();
  }

  /**
   * Returns whether a quota applies to an object: it tracks one of this evaluator's resources and
   * each of its scopes selects the object.
   *
   * @param hard the quota's hard limits
   * @param scopes its scopes, as {@link #matchesScope} reads them
   * @param object the object
   * @return whether the quota counts the object
   */
  public boolean matches(
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

  // ---- pods -----------------------------------------------------------------------------------

  /** Kubernetes' pod evaluator: compute resources of pods not yet finished, and their count. */
  private static final class Pods extends QuotaEvaluator {
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

    /** Resources whose presence on a quota obliges every container to state them. */
    private static final Set<String> VALIDATION =
        Set.of("cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory");

    Pods() {
      super(GroupResource.of("", "pods"));
    }

    @Override
    public boolean handles(String operation) {
      return "CREATE".equals(operation);
    }

    @Override
    public List<String> matchingResources(Collection<String> names) {
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
    public boolean matchesScope(Map<String, Object> selector, Map<String, Object> pod) {
      String scope = JsonTrees.string(selector, "", "scopeName");
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
      return JsonTrees.get(pod, "spec", "activeDeadlineSeconds") instanceof Number n
          && n.longValue() >= 0;
    }

    /** QoS class BestEffort: no container asks for or limits cpu or memory. */
    static boolean bestEffort(Map<String, Object> pod) {
      List<Map<String, Object>> all = new ArrayList<>(JsonTrees.maps(pod, "spec", "containers"));
      all.addAll(JsonTrees.maps(pod, "spec", "initContainers"));
      for (Map<String, Object> c : all) {
        for (String part : List.of("requests", "limits")) {
          Map<String, Quantity> list = ResourceLists.of(c, "resources", part);
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
      String className = JsonTrees.string(pod, "", "spec", "priorityClassName");
      String operator = JsonTrees.string(selector, "", "operator");
      List<String> values = new ArrayList<>();
      if (JsonTrees.get(selector, "values") instanceof List<?> list) {
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
            JsonTrees.maps(
                pod, "spec", "affinity", kind, "requiredDuringSchedulingIgnoredDuringExecution")) {
          if (crossNamespace(term)) {
            return true;
          }
        }
        for (Map<String, Object> weighted :
            JsonTrees.maps(
                pod, "spec", "affinity", kind, "preferredDuringSchedulingIgnoredDuringExecution")) {
          Map<String, Object> term = JsonTrees.map(weighted, "podAffinityTerm");
          if (term != null && crossNamespace(term)) {
            return true;
          }
        }
      }
      return false;
    }

    private static boolean crossNamespace(Map<String, Object> term) {
      return (JsonTrees.get(term, "namespaces") instanceof List<?> l && !l.isEmpty())
          || JsonTrees.get(term, "namespaceSelector") != null;
    }

    @Override
    public Map<String, Quantity> usage(Map<String, Object> pod, Instant now) {
      TreeMap<String, Quantity> out = new TreeMap<>();
      out.put("count/pods", ONE);
      if (!charged(pod, now)) {
        return out;
      }
      ResourceLists.add(
          out,
          computeUsage(podResources(pod, "requests", true), podResources(pod, "limits", false)));
      return out;
    }

    /** A pod is charged until it finishes or its deletion's grace period has passed. */
    private static boolean charged(Map<String, Object> pod, Instant now) {
      String phase = JsonTrees.string(pod, "", "status", "phase");
      if (phase.equals("Failed") || phase.equals("Succeeded")) {
        return false;
      }
      String deleted = JsonTrees.string(pod, "", "metadata", "deletionTimestamp");
      if (!deleted.isEmpty()
          && JsonTrees.get(pod, "metadata", "deletionGracePeriodSeconds") instanceof Number grace) {
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
      for (Map<String, Object> c : JsonTrees.maps(pod, "spec", "containers")) {
        ResourceLists.add(sum, ResourceLists.of(c, "resources", part));
      }
      TreeMap<String, Quantity> sidecars = new TreeMap<>();
      TreeMap<String, Quantity> init = new TreeMap<>();
      for (Map<String, Object> c : JsonTrees.maps(pod, "spec", "initContainers")) {
        Map<String, Quantity> own = ResourceLists.of(c, "resources", part);
        Map<String, Quantity> effective;
        if ("Always".equals(JsonTrees.string(c, "", "restartPolicy"))) {
          ResourceLists.add(sum, own);
          ResourceLists.add(sidecars, own);
          effective = new TreeMap<>(sidecars);
        } else {
          effective = new TreeMap<>(own);
          ResourceLists.add(effective, sidecars);
        }
        ResourceLists.max(init, effective);
      }
      ResourceLists.max(sum, init);
      Map<String, Quantity> overhead = ResourceLists.of(pod, "spec", "overhead");
      if (requests) {
        ResourceLists.add(sum, overhead);
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

    @Override
    public Optional<String> constraints(Collection<String> required, Map<String, Object> pod) {
      Set<String> requiredSet = new TreeSet<>(required);
      requiredSet.retainAll(VALIDATION);
      TreeMap<String, TreeSet<String>> missing = new TreeMap<>();
      List<Map<String, Object>> all = new ArrayList<>(JsonTrees.maps(pod, "spec", "containers"));
      all.addAll(JsonTrees.maps(pod, "spec", "initContainers"));
      for (Map<String, Object> c : all) {
        Set<String> has =
            computeUsage(
                    ResourceLists.of(c, "resources", "requests"),
                    ResourceLists.of(c, "resources", "limits"))
                .keySet();
        for (String name : requiredSet) {
          if (!has.contains(name)) {
            missing
                .computeIfAbsent(name, k -> new TreeSet<>())
                .add(JsonTrees.string(c, "", "name"));
          }
        }
      }
      if (missing.isEmpty()) {
        return Optional.empty();
      }
      List<String> parts = new ArrayList<>();
      missing.forEach(
          (name, containers) -> parts.add(name + " for: " + String.join(",", containers)));
      return Optional.of("must specify " + String.join("; ", parts));
    }
  }

  /** Kubernetes' {@code IsNativeResource}: no domain, or a {@code kubernetes.io} one. */
  private static boolean isNative(String name) {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  /** Kubernetes' {@code IsExtendedResourceName}. */
  private static boolean isExtended(String name) {
    return !isNative(name)
        && !name.startsWith(REQUESTS_PREFIX)
        && QUALIFIED_NAME.matcher(REQUESTS_PREFIX + name).matches();
  }

  // ---- services -------------------------------------------------------------------------------

  /** Kubernetes' service evaluator: services, load balancers and node ports. */
  private static final class Services extends QuotaEvaluator {
    private static final List<String> RESOURCES =
        List.of("count/services", "services", "services.nodeports", "services.loadbalancers");

    Services() {
      super(GroupResource.of("", "services"));
    }

    @Override
    public boolean handles(String operation) {
      // An update may change the type.
      return "CREATE".equals(operation) || "UPDATE".equals(operation);
    }

    @Override
    public List<String> matchingResources(Collection<String> names) {
      return names.stream().filter(RESOURCES::contains).toList();
    }

    @Override
    public Map<String, Quantity> usage(Map<String, Object> service, Instant now) {
      TreeMap<String, Quantity> out = new TreeMap<>();
      List<Map<String, Object>> ports = JsonTrees.maps(service, "spec", "ports");
      out.put("count/services", ONE);
      out.put("services", ONE);
      out.put("services.loadbalancers", Quantity.ZERO);
      out.put("services.nodeports", Quantity.ZERO);
      switch (JsonTrees.string(service, "", "spec", "type")) {
        case "NodePort" -> out.put("services.nodeports", count(ports.size()));
        case "LoadBalancer" -> {
          if (Boolean.FALSE.equals(
              JsonTrees.get(service, "spec", "allocateLoadBalancerNodePorts"))) {
            long explicit =
                ports.stream().filter(p -> JsonTrees.number(p, 0, "nodePort") != 0).count();
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
  private static final class Claims extends QuotaEvaluator {
    static final String STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
    private static final List<String> RESOURCES =
        List.of("persistentvolumeclaims", "requests.storage");

    Claims() {
      super(GroupResource.of("", "persistentvolumeclaims"));
    }

    @Override
    public boolean handles(String operation) {
      return "CREATE".equals(operation) || "UPDATE".equals(operation);
    }

    @Override
    public List<String> matchingResources(Collection<String> names) {
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
      Map<String, Object> annotations = JsonTrees.map(claim, "metadata", "annotations");
      if (annotations != null
          && annotations.get("volume.beta.kubernetes.io/storage-class") instanceof String c) {
        return c;
      }
      return JsonTrees.string(claim, "", "spec", "storageClassName");
    }

    @Override
    public Map<String, Quantity> usage(Map<String, Object> claim, Instant now) {
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
      Quantity requested = ResourceLists.of(claim, "spec", "resources", "requests").get("storage");
      if (requested == null) {
        return null;
      }
      Quantity result = wholeBytes(requested);
      Quantity allocated = ResourceLists.of(claim, "status", "allocatedResources").get("storage");
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
  private static final class ObjectCount extends QuotaEvaluator {
    private final String countName;
    private final String alias;

    ObjectCount(GroupResource resource, String alias) {
      super(resource);
      this.countName = objectCountName(resource);
      this.alias = alias;
    }

    @Override
    public boolean handles(String operation) {
      return "CREATE".equals(operation);
    }

    @Override
    public List<String> matchingResources(Collection<String> names) {
      return names.stream().filter(n -> n.equals(countName) || n.equals(alias)).toList();
    }

    @Override
    public Map<String, Quantity> usage(Map<String, Object> object, Instant now) {
      TreeMap<String, Quantity> out = new TreeMap<>();
      out.put(countName, ONE);
      if (alias != null) {
        out.put(alias, ONE);
      }
      return out;
    }
  }
}
