package dev.machinery.cluster.controller.daemonset;

import dev.machinery.api.core.v1.Affinity;
import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.NodeAffinity;
import dev.machinery.api.core.v1.NodeSelector;
import dev.machinery.api.core.v1.NodeSelectorRequirement;
import dev.machinery.api.core.v1.NodeSelectorTerm;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.api.core.v1.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a daemon pod runs, as Go's {@code pkg/controller/daemon} decides: the node selector, the
 * required node affinity and the node's taints against the pod's tolerations (with those kube adds
 * to every daemon pod), and the node affinity on {@code metadata.name} that binds a pod to its
 * node.
 *
 * <p>Stateless; thread-safe.
 */
final class NodePlacement {
  private NodePlacement() {}

  /** Whether to run a daemon pod, and whether one already there may stay. */
  record Decision(boolean shouldRun, boolean shouldContinueRunning) {}

  /**
   * Go's {@code NodeShouldRunDaemonPod}: the selector and affinity must match; a {@code NoSchedule}
   * taint the pod does not tolerate stops new pods, a {@code NoExecute} one removes running ones
   * too.
   */
  static Decision decide(Node node, PodSpec spec) {
    if (!selectorMatches(node, spec.getNodeSelector())
        || !affinityMatches(node, spec.getAffinity())) {
      return new Decision(false, false);
    }
    boolean run = true;
    boolean stay = true;
    List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
    if (taints != null) {
      for (Taint taint : taints) {
        String effect = taint.getEffect();
        if (!"NoSchedule".equals(effect) && !"NoExecute".equals(effect)) {
          continue;
        }
        if (!tolerated(taint, spec.getTolerations())) {
          run = false;
          if ("NoExecute".equals(effect)) {
            stay = false;
          }
        }
      }
    }
    return new Decision(run, stay);
  }

  static boolean selectorMatches(Node node, Map<String, String> selector) {
    if (selector == null || selector.isEmpty()) {
      return true;
    }
    Map<String, String> labels = labels(node);
    for (Map.Entry<String, String> entry : selector.entrySet()) {
      if (!entry.getValue().equals(labels.get(entry.getKey()))) {
        return false;
      }
    }
    return true;
  }

  static boolean affinityMatches(Node node, Affinity affinity) {
    if (affinity == null
        || affinity.getNodeAffinity() == null
        || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      return true;
    }
    List<NodeSelectorTerm> terms =
        affinity
            .getNodeAffinity()
            .getRequiredDuringSchedulingIgnoredDuringExecution()
            .getNodeSelectorTerms();
    if (terms == null || terms.isEmpty()) {
      return false;
    }
    for (NodeSelectorTerm term : terms) {
      if (termMatches(node, term)) {
        return true;
      }
    }
    return false;
  }

  private static boolean termMatches(Node node, NodeSelectorTerm term) {
    boolean empty =
        (term.getMatchExpressions() == null || term.getMatchExpressions().isEmpty())
            && (term.getMatchFields() == null || term.getMatchFields().isEmpty());
    if (empty) {
      return false;
    }
    Map<String, String> labels = labels(node);
    if (term.getMatchExpressions() != null) {
      for (NodeSelectorRequirement requirement : term.getMatchExpressions()) {
        if (!requirementMatches(
            requirement,
            labels.get(requirement.getKey()),
            labels.containsKey(requirement.getKey()))) {
          return false;
        }
      }
    }
    if (term.getMatchFields() != null) {
      for (NodeSelectorRequirement requirement : term.getMatchFields()) {
        if (!"metadata.name".equals(requirement.getKey())
            || !requirementMatches(requirement, node.getMetadata().getName(), true)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean requirementMatches(
      NodeSelectorRequirement requirement, String value, boolean present) {
    List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    switch (requirement.getOperator() == null ? "" : requirement.getOperator()) {
      case "In":
        return present && values.contains(value);
      case "NotIn":
        return !present || !values.contains(value);
      case "Exists":
        return present;
      case "DoesNotExist":
        return !present;
      case "Gt":
      case "Lt":
        if (!present || values.size() != 1) {
          return false;
        }
        try {
          long actual = Long.parseLong(value);
          long bound = Long.parseLong(values.get(0));
          return "Gt".equals(requirement.getOperator()) ? actual > bound : actual < bound;
        } catch (NumberFormatException e) {
          return false;
        }
      default:
        return false;
    }
  }

  /** Go's {@code Toleration.ToleratesTaint}. */
  static boolean tolerated(Taint taint, List<Toleration> tolerations) {
    if (tolerations == null) {
      return false;
    }
    for (Toleration toleration : tolerations) {
      String effect = toleration.getEffect();
      if (effect != null && !effect.isEmpty() && !effect.equals(taint.getEffect())) {
        continue;
      }
      String key = toleration.getKey() == null ? "" : toleration.getKey();
      if (!key.isEmpty() && !key.equals(taint.getKey())) {
        continue;
      }
      String operator = toleration.getOperator() == null ? "" : toleration.getOperator();
      if ("Exists".equals(operator)) {
        return true;
      }
      String value = toleration.getValue() == null ? "" : toleration.getValue();
      String taintValue = taint.getValue() == null ? "" : taint.getValue();
      // An empty operator means Equal; any other operator tolerates nothing.
      if ((operator.isEmpty() || "Equal".equals(operator)) && value.equals(taintValue)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Go's {@code AddOrUpdateDaemonPodTolerations}: every daemon pod tolerates nodes that are not
   * ready or unreachable, under disk, memory or PID pressure, unschedulable, and, on the host
   * network, without a network.
   */
  static void addDaemonTolerations(PodSpec spec) {
    List<Toleration> tolerations =
        new ArrayList<>(spec.getTolerations() == null ? List.of() : spec.getTolerations());
    add(tolerations, "node.kubernetes.io/not-ready", "NoExecute");
    add(tolerations, "node.kubernetes.io/unreachable", "NoExecute");
    add(tolerations, "node.kubernetes.io/disk-pressure", "NoSchedule");
    add(tolerations, "node.kubernetes.io/memory-pressure", "NoSchedule");
    add(tolerations, "node.kubernetes.io/pid-pressure", "NoSchedule");
    add(tolerations, "node.kubernetes.io/unschedulable", "NoSchedule");
    if (Boolean.TRUE.equals(spec.getHostNetwork())) {
      add(tolerations, "node.kubernetes.io/network-unavailable", "NoSchedule");
    }
    spec.setTolerations(tolerations);
  }

  private static void add(List<Toleration> tolerations, String key, String effect) {
    Toleration toleration = new Toleration();
    toleration.setKey(key);
    toleration.setOperator("Exists");
    toleration.setEffect(effect);
    tolerations.removeIf(t -> key.equals(t.getKey()) && effect.equals(t.getEffect()));
    tolerations.add(toleration);
  }

  /**
   * Go's {@code ReplaceDaemonSetPodNodeNameNodeAffinity}: the required node affinity becomes one
   * term, {@code metadata.name In [node]}, in place of the template's terms.
   */
  static Affinity bindToNode(Affinity affinity, String nodeName) {
    NodeSelectorRequirement requirement = new NodeSelectorRequirement();
    requirement.setKey("metadata.name");
    requirement.setOperator("In");
    requirement.setValues(List.of(nodeName));
    NodeSelectorTerm term = new NodeSelectorTerm();
    term.setMatchFields(List.of(requirement));
    NodeSelector selector = new NodeSelector();
    selector.setNodeSelectorTerms(List.of(term));
    Affinity result = affinity == null ? new Affinity() : affinity;
    NodeAffinity nodeAffinity =
        result.getNodeAffinity() == null ? new NodeAffinity() : result.getNodeAffinity();
    nodeAffinity.setRequiredDuringSchedulingIgnoredDuringExecution(selector);
    result.setNodeAffinity(nodeAffinity);
    return result;
  }

  /**
   * Go's {@code GetTargetNodeName}: the pod's node, else the node its affinity names in {@code
   * metadata.name In [node]}.
   */
  static Optional<String> targetNode(Pod pod) {
    PodSpec spec = pod.getSpec();
    if (spec == null) {
      return Optional.empty();
    }
    if (spec.getNodeName() != null && !spec.getNodeName().isEmpty()) {
      return Optional.of(spec.getNodeName());
    }
    if (spec.getAffinity() == null
        || spec.getAffinity().getNodeAffinity() == null
        || spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
            == null) {
      return Optional.empty();
    }
    List<NodeSelectorTerm> terms =
        spec.getAffinity()
            .getNodeAffinity()
            .getRequiredDuringSchedulingIgnoredDuringExecution()
            .getNodeSelectorTerms();
    if (terms == null) {
      return Optional.empty();
    }
    for (NodeSelectorTerm term : terms) {
      if (term.getMatchFields() == null) {
        continue;
      }
      for (NodeSelectorRequirement requirement : term.getMatchFields()) {
        if ("metadata.name".equals(requirement.getKey())
            && "In".equals(requirement.getOperator())
            && requirement.getValues() != null
            && requirement.getValues().size() == 1) {
          return Optional.of(requirement.getValues().get(0));
        }
      }
    }
    return Optional.empty();
  }

  private static Map<String, String> labels(Node node) {
    return node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
  }
}
