package dev.machinery.cluster.scheduler;

import dev.machinery.api.core.v1.Affinity;
import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.NodeSelector;
import dev.machinery.api.core.v1.NodeSelectorRequirement;
import dev.machinery.api.core.v1.NodeSelectorTerm;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.api.core.v1.Toleration;
import dev.machinery.unversioned.resource.Quantity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The scheduler's filters as pure functions, shared with the simulated kubelets' admission and the
 * taint eviction controller: taints against tolerations (kube's {@code ToleratesTaint}), node
 * selectors and required node affinity ({@code NodeSelectorRequirement}s with {@code In}, {@code
 * NotIn}, {@code Exists}, {@code DoesNotExist}, {@code Gt}, {@code Lt}, and {@code matchFields} on
 * {@code metadata.name}), a pod's resource requests (containers summed, init containers' maximum,
 * sidecars added, plus overhead) and the {@code FitError} message of a pod no node fits.
 *
 * <p>Stateless and thread-safe.
 */
public final class NodeFit {
  /** Resource names whose quantities are counted in thousandths (cpu); others in units. */
  public static final String CPU = "cpu";

  /** The memory resource's name. */
  public static final String MEMORY = "memory";

  /** The pods-per-node resource's name. */
  public static final String PODS = "pods";

  /** What the scheduler's scoring counts for a container without a cpu request: 100m. */
  public static final long DEFAULT_MILLI_CPU_REQUEST = 100;

  /** What the scheduler's scoring counts for a container without a memory request: 200Mi. */
  public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

  private NodeFit() {}

  /**
   * Tells whether a toleration tolerates a taint, as kube's {@code Toleration.ToleratesTaint}: an
   * empty effect matches every effect; an empty key with {@code Exists} matches every key; {@code
   * Exists} matches any value, {@code Equal} (or no operator) the same value.
   *
   * @param toleration the toleration
   * @param taint the taint
   * @return true when tolerated
   */
  public static boolean tolerates(Toleration toleration, Taint taint) {
    String effect = toleration.getEffect();
    if (effect != null && !effect.isEmpty() && !effect.equals(taint.getEffect())) {
      return false;
    }
    String key = toleration.getKey();
    String operator = toleration.getOperator() == null ? "" : toleration.getOperator();
    if (key != null && !key.isEmpty() && !key.equals(taint.getKey())) {
      return false;
    }
    return switch (operator) {
      case "Exists" -> true;
      case "", "Equal" -> nullToEmpty(toleration.getValue()).equals(nullToEmpty(taint.getValue()));
      default -> false;
    };
  }

  /**
   * Tells whether any of the tolerations tolerates the taint.
   *
   * @param tolerations the tolerations, possibly null
   * @param taint the taint
   * @return true when one does
   */
  public static boolean tolerated(List<Toleration> tolerations, Taint taint) {
    if (tolerations == null) {
      return false;
    }
    for (Toleration toleration : tolerations) {
      if (tolerates(toleration, taint)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns the first of a node's taints with effect {@code NoSchedule} or {@code NoExecute} that
   * the pod does not tolerate (the scheduler's {@code TaintToleration} filter).
   *
   * @param node the node
   * @param pod the pod
   * @return the taint, or empty when all are tolerated
   */
  public static Optional<Taint> untoleratedTaint(Node node, Pod pod) {
    List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
    if (taints == null) {
      return Optional.empty();
    }
    List<Toleration> tolerations = pod.getSpec() == null ? null : pod.getSpec().getTolerations();
    for (Taint taint : taints) {
      String effect = taint.getEffect();
      if (("NoSchedule".equals(effect) || "NoExecute".equals(effect))
          && !tolerated(tolerations, taint)) {
        return Optional.of(taint);
      }
    }
    return Optional.empty();
  }

  /**
   * Counts a node's {@code PreferNoSchedule} taints the pod does not tolerate (the {@code
   * TaintToleration} score: fewer is better).
   *
   * @param node the node
   * @param pod the pod
   * @return how many
   */
  public static int intolerablePreferNoSchedule(Node node, Pod pod) {
    List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
    if (taints == null) {
      return 0;
    }
    List<Toleration> tolerations = pod.getSpec() == null ? null : pod.getSpec().getTolerations();
    int count = 0;
    for (Taint taint : taints) {
      if ("PreferNoSchedule".equals(taint.getEffect())) {
        List<Toleration> preferring = new ArrayList<>();
        if (tolerations != null) {
          for (Toleration t : tolerations) {
            if (t.getEffect() == null
                || t.getEffect().isEmpty()
                || "PreferNoSchedule".equals(t.getEffect())) {
              preferring.add(t);
            }
          }
        }
        if (!tolerated(preferring, taint)) {
          count++;
        }
      }
    }
    return count;
  }

  /**
   * Tells whether the pod's {@code nodeSelector} and required node affinity both match the node
   * (the scheduler's {@code NodeAffinity} filter and the kubelet's admission).
   *
   * @param pod the pod
   * @param node the node
   * @return true when both match
   */
  public static boolean matchesNodeSelectorAndAffinity(Pod pod, Node node) {
    PodSpec spec = pod.getSpec();
    if (spec == null) {
      return true;
    }
    Map<String, String> labels = labels(node);
    Map<String, String> selector = spec.getNodeSelector();
    if (selector != null) {
      for (Map.Entry<String, String> entry : selector.entrySet()) {
        if (!entry.getValue().equals(labels.get(entry.getKey()))) {
          return false;
        }
      }
    }
    Affinity affinity = spec.getAffinity();
    if (affinity == null
        || affinity.getNodeAffinity() == null
        || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      return true;
    }
    return matches(
        affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
        labels,
        node.getMetadata().getName());
  }

  /**
   * Tells whether a node selector matches: its terms are ORed, a term's requirements ANDed; a term
   * without requirements matches nothing, and so does a selector without terms.
   *
   * @param selector the selector
   * @param labels the node's labels
   * @param nodeName the node's name, for {@code matchFields}
   * @return true when a term matches
   */
  public static boolean matches(
      NodeSelector selector, Map<String, String> labels, String nodeName) {
    if (selector.getNodeSelectorTerms() == null) {
      return false;
    }
    for (NodeSelectorTerm term : selector.getNodeSelectorTerms()) {
      if (matches(term, labels, nodeName)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(
      NodeSelectorTerm term, Map<String, String> labels, String nodeName) {
    List<NodeSelectorRequirement> expressions = term.getMatchExpressions();
    List<NodeSelectorRequirement> fields = term.getMatchFields();
    if ((expressions == null || expressions.isEmpty()) && (fields == null || fields.isEmpty())) {
      return false;
    }
    if (expressions != null) {
      for (NodeSelectorRequirement requirement : expressions) {
        if (!matches(requirement, labels)) {
          return false;
        }
      }
    }
    if (fields != null) {
      for (NodeSelectorRequirement requirement : fields) {
        if (!"metadata.name".equals(requirement.getKey())) {
          return false;
        }
        if (!matches(requirement, Map.of("metadata.name", nodeName))) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Tells whether one requirement matches a set of labels: {@code In} and {@code NotIn} against the
   * values ({@code NotIn} matches a missing label), {@code Exists}, {@code DoesNotExist}, and
   * {@code Gt} / {@code Lt} comparing the label and the one value as integers (a value that is not
   * an integer matches nothing).
   *
   * @param requirement the requirement
   * @param labels the labels
   * @return true when it matches
   */
  public static boolean matches(NodeSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    return switch (requirement.getOperator() == null ? "" : requirement.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      case "Gt", "Lt" -> {
        if (value == null || values.size() != 1) {
          yield false;
        }
        try {
          long have = Long.parseLong(value);
          long want = Long.parseLong(values.get(0));
          yield requirement.getOperator().equals("Gt") ? have > want : have < want;
        } catch (NumberFormatException e) {
          yield false;
        }
      }
      default -> false;
    };
  }

  /**
   * Returns a pod's requests as the scheduler counts them: the sum over its containers (and its
   * sidecars, init containers with {@code restartPolicy: Always}), or the largest init container's
   * request plus the sidecars started before it when that is more, plus the pod's overhead. cpu is
   * in thousandths, other resources in units.
   *
   * @param pod the pod
   * @return the requests by resource name, only those asked for
   */
  public static Map<String, Long> requests(Pod pod) {
    Map<String, Long> total = new TreeMap<>();
    PodSpec spec = pod.getSpec();
    if (spec == null) {
      return total;
    }
    if (spec.getContainers() != null) {
      for (Container container : spec.getContainers()) {
        add(total, requests(container));
      }
    }
    if (spec.getInitContainers() != null) {
      Map<String, Long> sidecars = new HashMap<>();
      Map<String, Long> initMax = new HashMap<>();
      for (Container init : spec.getInitContainers()) {
        Map<String, Long> asked = requests(init);
        if ("Always".equals(init.getRestartPolicy())) {
          add(sidecars, asked);
          add(total, asked);
          continue;
        }
        Map<String, Long> during = new HashMap<>(sidecars);
        add(during, asked);
        during.forEach((name, amount) -> initMax.merge(name, amount, Math::max));
      }
      initMax.forEach((name, amount) -> total.merge(name, amount, Math::max));
    }
    if (spec.getOverhead() != null) {
      Map<String, Long> overhead = new HashMap<>();
      spec.getOverhead().forEach((name, quantity) -> overhead.put(name, amount(name, quantity)));
      add(total, overhead);
    }
    return total;
  }

  /**
   * Returns the cpu (thousandths) and memory (bytes) the scheduler's scoring counts for a pod,
   * where a container without a request counts 100m and 200Mi.
   *
   * @param pod the pod
   * @return {cpu, memory}
   */
  public static long[] nonZeroRequests(Pod pod) {
    long cpu = 0;
    long memory = 0;
    if (pod.getSpec() != null && pod.getSpec().getContainers() != null) {
      for (Container container : pod.getSpec().getContainers()) {
        Map<String, Long> asked = requests(container);
        cpu += asked.getOrDefault(CPU, 0L) == 0 ? DEFAULT_MILLI_CPU_REQUEST : asked.get(CPU);
        memory += asked.getOrDefault(MEMORY, 0L) == 0 ? DEFAULT_MEMORY_REQUEST : asked.get(MEMORY);
      }
    }
    return new long[] {cpu, memory};
  }

  private static Map<String, Long> requests(Container container) {
    Map<String, Long> out = new HashMap<>();
    if (container.getResources() != null && container.getResources().getRequests() != null) {
      container
          .getResources()
          .getRequests()
          .forEach((name, quantity) -> out.put(name, amount(name, quantity)));
    }
    return out;
  }

  /**
   * Returns a quantity in the scheduler's units for its resource: thousandths for cpu, units
   * (rounded up) for the others.
   *
   * @param resource the resource's name
   * @param quantity the quantity
   * @return the amount
   */
  public static long amount(String resource, Quantity quantity) {
    return CPU.equals(resource) ? quantity.milliValue() : quantity.value();
  }

  private static void add(Map<String, Long> into, Map<String, Long> more) {
    more.forEach((name, amount) -> into.merge(name, amount, Long::sum));
  }

  /**
   * Returns a node's allocatable resources (its capacity when allocatable is unset) in the
   * scheduler's units.
   *
   * @param node the node
   * @return the amounts by resource name
   */
  public static Map<String, Long> allocatable(Node node) {
    Map<String, Long> out = new HashMap<>();
    if (node.getStatus() == null) {
      return out;
    }
    Map<String, Quantity> source =
        node.getStatus().getAllocatable() != null
            ? node.getStatus().getAllocatable()
            : node.getStatus().getCapacity();
    if (source != null) {
      source.forEach((name, quantity) -> out.put(name, amount(name, quantity)));
    }
    return out;
  }

  /**
   * Returns the reasons the scheduler's {@code NodeResourcesFit} filter gives for a pod that does
   * not fit beside what the node's pods already request: {@code Too many pods}, then {@code
   * Insufficient <resource>} for each resource short, in name order.
   *
   * @param requests the pod's requests ({@link #requests(Pod)})
   * @param allocatable the node's allocatable amounts
   * @param used what the node's pods request, with {@code pods} their count
   * @return the reasons, empty when the pod fits
   */
  public static List<String> insufficient(
      Map<String, Long> requests, Map<String, Long> allocatable, Map<String, Long> used) {
    List<String> reasons = new ArrayList<>();
    long maxPods = allocatable.getOrDefault(PODS, 0L);
    if (used.getOrDefault(PODS, 0L) + 1 > maxPods) {
      reasons.add("Too many pods");
    }
    for (Map.Entry<String, Long> entry : new TreeMap<>(requests).entrySet()) {
      String resource = entry.getKey();
      long asked = entry.getValue();
      if (asked == 0 || resource.equals(PODS)) {
        continue;
      }
      long free = allocatable.getOrDefault(resource, 0L) - used.getOrDefault(resource, 0L);
      if (asked > free) {
        reasons.add("Insufficient " + resource);
      }
    }
    return reasons;
  }

  /**
   * Scores a node by kube's {@code LeastAllocated} strategy on cpu and memory (weights 1): the
   * share left free after placing the pod, 0 to 100.
   *
   * @param allocatable the node's allocatable amounts
   * @param usedNonZero the cpu and memory the node's pods count for scoring
   * @param podNonZero the pod's cpu and memory for scoring
   * @return the score
   */
  public static long leastAllocatedScore(
      Map<String, Long> allocatable, long[] usedNonZero, long[] podNonZero) {
    long cpu = leastAllocated(allocatable.getOrDefault(CPU, 0L), usedNonZero[0] + podNonZero[0]);
    long memory =
        leastAllocated(allocatable.getOrDefault(MEMORY, 0L), usedNonZero[1] + podNonZero[1]);
    return (cpu + memory) / 2;
  }

  private static long leastAllocated(long capacity, long requested) {
    if (capacity == 0 || requested > capacity) {
      return 0;
    }
    return (capacity - requested) * 100 / capacity;
  }

  /**
   * Writes the scheduler's {@code FitError} message: {@code 0/N nodes are available: } and the
   * reasons counted over the nodes, sorted as strings, then the preemption's diagnosis: nodes whose
   * failure no eviction can cure ({@code Preemption is not helpful for scheduling}), the others
   * ({@code No preemption victims found for incoming pod}, as no pod is preempted here). With no
   * nodes at all, {@code no nodes available to schedule pods}.
   *
   * @param nodes how many nodes were tried
   * @param reasons per node, the reasons it was filtered out
   * @param unresolvable per node, whether its failure cannot be cured by preemption
   * @return the message
   */
  public static String fitErrorMessage(
      int nodes, List<List<String>> reasons, List<Boolean> unresolvable) {
    if (nodes == 0) {
      return "no nodes available to schedule pods";
    }
    Map<String, Integer> histogram = new HashMap<>();
    for (List<String> nodeReasons : reasons) {
      for (String reason : nodeReasons) {
        histogram.merge(reason, 1, Integer::sum);
      }
    }
    Map<String, Integer> preemption = new HashMap<>();
    for (Boolean cannot : unresolvable) {
      preemption.merge(
          cannot
              ? "Preemption is not helpful for scheduling"
              : "No preemption victims found for incoming pod",
          1,
          Integer::sum);
    }
    return "0/"
        + nodes
        + " nodes are available: "
        + sorted(histogram)
        + ". preemption: 0/"
        + nodes
        + " nodes are available: "
        + sorted(preemption)
        + ".";
  }

  private static String sorted(Map<String, Integer> histogram) {
    List<String> lines = new ArrayList<>();
    histogram.forEach((reason, count) -> lines.add(count + " " + reason));
    Collections.sort(lines);
    return String.join(", ", lines);
  }

  /**
   * Returns the scheduler's reason for a taint the pod does not tolerate.
   *
   * @param taint the taint
   * @return {@code node(s) had untolerated taint {key: value}}
   */
  public static String untoleratedTaintReason(Taint taint) {
    return "node(s) had untolerated taint {"
        + taint.getKey()
        + ": "
        + nullToEmpty(taint.getValue())
        + "}";
  }

  private static Map<String, String> labels(Node node) {
    Map<String, String> labels = node.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
