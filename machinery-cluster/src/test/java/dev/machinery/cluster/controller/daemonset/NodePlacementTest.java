package dev.machinery.cluster.controller.daemonset;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.api.core.v1.Affinity;
import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.NodeAffinity;
import dev.machinery.api.core.v1.NodeSelector;
import dev.machinery.api.core.v1.NodeSelectorRequirement;
import dev.machinery.api.core.v1.NodeSelectorTerm;
import dev.machinery.api.core.v1.NodeSpec;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.api.core.v1.Toleration;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where daemon pods run, with the facts of Kubernetes' {@code Toleration.ToleratesTaint} tests
 * (k8s.io/api core/v1 {@code toleration_test.go}), {@code ReplaceDaemonSetPodNodeNameNodeAffinity}
 * and {@code GetTargetNodeName} (pkg/controller/daemon/util).
 */
class NodePlacementTest {
  private static Taint taint(String key, String value, String effect) {
    Taint taint = new Taint();
    taint.setKey(key);
    taint.setValue(value);
    taint.setEffect(effect);
    return taint;
  }

  private static Toleration toleration(String key, String operator, String value, String effect) {
    Toleration toleration = new Toleration();
    toleration.setKey(key);
    toleration.setOperator(operator);
    toleration.setValue(value);
    toleration.setEffect(effect);
    return toleration;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "null",
      value = {
        // description | toleration key, operator, value, effect | taint key, value, effect | want
        "same key, value and effect|foo|Equal|bar|NoSchedule|foo|bar|NoSchedule|true",
        "empty operator means Equal|foo|null|bar|NoSchedule|foo|bar|NoSchedule|true",
        "different value|foo|Equal|baz|NoSchedule|foo|bar|NoSchedule|false",
        "different key|bar|Equal|bar|NoSchedule|foo|bar|NoSchedule|false",
        "different effect|foo|Equal|bar|NoExecute|foo|bar|NoSchedule|false",
        "empty effect tolerates every effect|foo|Equal|bar|null|foo|bar|NoExecute|true",
        "Exists ignores the value|foo|Exists|null|NoSchedule|foo|bar|NoSchedule|true",
        "Exists with no key tolerates every key|null|Exists|null|NoSchedule|any|x|NoSchedule|true",
        "Exists with no key and no effect tolerates everything|null|Exists|null|null|any|x|NoExecute|true",
        "an unknown operator tolerates nothing|foo|Lt|bar|NoSchedule|foo|bar|NoSchedule|false",
      })
  void toleratesTaint(
      String description,
      String key,
      String operator,
      String value,
      String effect,
      String taintKey,
      String taintValue,
      String taintEffect,
      boolean want) {
    assertEquals(
        want,
        NodePlacement.tolerated(
            taint(taintKey, taintValue, taintEffect),
            List.of(toleration(key, operator, value, effect))),
        description);
  }

  private static Node node(String name, Map<String, String> labels, Taint... taints) {
    Node node = new Node();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setLabels(labels);
    node.setMetadata(meta);
    NodeSpec spec = new NodeSpec();
    spec.setTaints(List.of(taints));
    node.setSpec(spec);
    return node;
  }

  @Test
  void daemonTolerationsCoverNotReadyButNotAnArbitraryTaint() {
    PodSpec spec = new PodSpec();
    NodePlacement.addDaemonTolerations(spec);
    assertEquals(6, spec.getTolerations().size());
    assertEquals(
        new NodePlacement.Decision(true, true),
        NodePlacement.decide(
            node("n", Map.of(), taint("node.kubernetes.io/not-ready", null, "NoExecute")), spec));
    assertEquals(
        new NodePlacement.Decision(false, true),
        NodePlacement.decide(node("n", Map.of(), taint("dedicated", "infra", "NoSchedule")), spec));
    assertEquals(
        new NodePlacement.Decision(false, false),
        NodePlacement.decide(node("n", Map.of(), taint("dedicated", "infra", "NoExecute")), spec));
    // The not-ready NoSchedule taint of a new node is not among them.
    assertEquals(
        new NodePlacement.Decision(false, true),
        NodePlacement.decide(
            node("n", Map.of(), taint("node.kubernetes.io/not-ready", null, "NoSchedule")), spec));
    spec.setHostNetwork(true);
    NodePlacement.addDaemonTolerations(spec);
    assertEquals(7, spec.getTolerations().size());
  }

  @Test
  void selectorsAndAffinityChooseNodes() {
    PodSpec spec = new PodSpec();
    spec.setNodeSelector(Map.of("disk", "ssd"));
    assertEquals(true, NodePlacement.decide(node("a", Map.of("disk", "ssd")), spec).shouldRun());
    assertEquals(false, NodePlacement.decide(node("b", Map.of("disk", "hdd")), spec).shouldRun());
    PodSpec byAffinity = new PodSpec();
    byAffinity.setAffinity(affinity(requirement("zone", "In", "a", "b"), null));
    assertEquals(
        true,
        NodePlacement.affinityMatches(node("x", Map.of("zone", "b")), byAffinity.getAffinity()));
    assertEquals(
        false,
        NodePlacement.affinityMatches(node("x", Map.of("zone", "c")), byAffinity.getAffinity()));
    assertEquals(
        true,
        NodePlacement.affinityMatches(
            node("x", Map.of("cpu", "8")), affinity(requirement("cpu", "Gt", "4"), null)));
    assertEquals(
        false,
        NodePlacement.affinityMatches(
            node("x", Map.of()), affinity(requirement("cpu", "Exists"), null)));
    assertEquals(
        true,
        NodePlacement.affinityMatches(
            node("x", Map.of()), affinity(requirement("cpu", "DoesNotExist"), null)));
    assertEquals(
        true,
        NodePlacement.affinityMatches(
            node("node-1", Map.of()),
            affinity(null, requirement("metadata.name", "In", "node-1"))));
  }

  @Test
  void replaceDaemonSetPodNodeNameNodeAffinity() {
    // No affinity: one is made.
    Affinity made = NodePlacement.bindToNode(null, "host-1");
    assertEquals(Optional.of("host-1"), NodePlacement.targetNode(pod(made)));
    // Terms of the template are replaced by the one term on the node's name.
    Affinity template =
        affinity(requirement("zone", "In", "a"), requirement("metadata.name", "In", "host-2"));
    Affinity replaced = NodePlacement.bindToNode(template, "host-1");
    List<NodeSelectorTerm> terms =
        replaced
            .getNodeAffinity()
            .getRequiredDuringSchedulingIgnoredDuringExecution()
            .getNodeSelectorTerms();
    assertEquals(1, terms.size());
    assertEquals(null, terms.get(0).getMatchExpressions());
    assertEquals(List.of("host-1"), terms.get(0).getMatchFields().get(0).getValues());
    // GetTargetNodeName: spec.nodeName first.
    Pod bound = pod(made);
    bound.getSpec().setNodeName("host-9");
    assertEquals(Optional.of("host-9"), NodePlacement.targetNode(bound));
    assertEquals(Optional.empty(), NodePlacement.targetNode(pod(null)));
  }

  private static Pod pod(Affinity affinity) {
    Pod pod = new Pod();
    PodSpec spec = new PodSpec();
    spec.setAffinity(affinity);
    pod.setSpec(spec);
    return pod;
  }

  private static NodeSelectorRequirement requirement(
      String key, String operator, String... values) {
    NodeSelectorRequirement requirement = new NodeSelectorRequirement();
    requirement.setKey(key);
    requirement.setOperator(operator);
    requirement.setValues(values.length == 0 ? null : List.of(values));
    return requirement;
  }

  private static Affinity affinity(
      NodeSelectorRequirement expression, NodeSelectorRequirement field) {
    NodeSelectorTerm term = new NodeSelectorTerm();
    if (expression != null) {
      term.setMatchExpressions(List.of(expression));
    }
    if (field != null) {
      term.setMatchFields(List.of(field));
    }
    NodeSelector selector = new NodeSelector();
    selector.setNodeSelectorTerms(List.of(term));
    NodeAffinity nodeAffinity = new NodeAffinity();
    nodeAffinity.setRequiredDuringSchedulingIgnoredDuringExecution(selector);
    Affinity affinity = new Affinity();
    affinity.setNodeAffinity(nodeAffinity);
    return affinity;
  }
}
