package dev.machinery.cluster.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.api.core.v1.Affinity;
import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.NodeAffinity;
import dev.machinery.api.core.v1.NodeSelector;
import dev.machinery.api.core.v1.NodeSelectorRequirement;
import dev.machinery.api.core.v1.NodeSelectorTerm;
import dev.machinery.api.core.v1.NodeSpec;
import dev.machinery.api.core.v1.NodeStatus;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.ResourceRequirements;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.api.core.v1.Toleration;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.resource.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scheduler's filters as tables carried over from Kubernetes: {@code ToleratesTaint}
 * (toleration_test.go), node selector requirements (nodeaffinity and labels selector tests), the
 * resource requests of a pod (noderesources fit tests: init containers, sidecars, overhead), the
 * fit reasons and the {@code FitError} message.
 */
class NodeFitTest {
  static Toleration toleration(String key, String operator, String value, String effect) {
    Toleration t = new Toleration();
    t.setKey(key);
    t.setOperator(operator);
    t.setValue(value);
    t.setEffect(effect);
    return t;
  }

  static Taint taint(String key, String value, String effect) {
    Taint t = new Taint();
    t.setKey(key);
    t.setValue(value);
    t.setEffect(effect);
    return t;
  }

  static Stream<Arguments> tolerations() {
    return Stream.of(
        Arguments.of(
            "same key and effect, Exists, taint without value",
            toleration("foo", "Exists", null, "NoExecute"),
            taint("foo", null, "NoExecute"),
            true),
        Arguments.of(
            "same key and effect, Exists, taint with a value",
            toleration("foo", "Exists", null, "NoExecute"),
            taint("foo", "bar", "NoExecute"),
            true),
        Arguments.of(
            "same effect, empty key and Exists: every key",
            toleration("", "Exists", null, "NoExecute"),
            taint("foo", "bar", "NoExecute"),
            true),
        Arguments.of(
            "same key, effect and value, Equal",
            toleration("foo", "Equal", "bar", "NoExecute"),
            taint("foo", "bar", "NoExecute"),
            true),
        Arguments.of(
            "no operator means Equal",
            toleration("foo", null, "bar", "NoSchedule"),
            taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.of(
            "same key and effect, Equal, other value",
            toleration("foo", "Equal", "value1", "NoExecute"),
            taint("foo", "value2", "NoExecute"),
            false),
        Arguments.of(
            "same key and value, other effect",
            toleration("foo", "Equal", "bar", "NoExecute"),
            taint("foo", "bar", "NoSchedule"),
            false),
        Arguments.of(
            "empty effect tolerates every effect",
            toleration("foo", "Exists", null, ""),
            taint("foo", "bar", "PreferNoSchedule"),
            true),
        Arguments.of(
            "other key",
            toleration("foo", "Exists", null, "NoSchedule"),
            taint("baz", null, "NoSchedule"),
            false),
        Arguments.of(
            "an unknown operator tolerates nothing",
            toleration("foo", "Like", "bar", "NoSchedule"),
            taint("foo", "bar", "NoSchedule"),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tolerations")
  void toleratesTaint(String name, Toleration toleration, Taint taint, boolean expected) {
    assertEquals(expected, NodeFit.tolerates(toleration, taint));
  }

  static NodeSelectorRequirement requirement(String key, String operator, String... values) {
    NodeSelectorRequirement r = new NodeSelectorRequirement();
    r.setKey(key);
    r.setOperator(operator);
    r.setValues(values.length == 0 ? null : List.of(values));
    return r;
  }

  static Stream<Arguments> requirements() {
    Map<String, String> labels = Map.of("zone", "a", "gpus", "4", "name", "x");
    return Stream.of(
        Arguments.of(requirement("zone", "In", "a", "b"), labels, true),
        Arguments.of(requirement("zone", "In", "b"), labels, false),
        Arguments.of(requirement("missing", "In", "a"), labels, false),
        Arguments.of(requirement("zone", "NotIn", "b"), labels, true),
        Arguments.of(requirement("zone", "NotIn", "a"), labels, false),
        Arguments.of(requirement("missing", "NotIn", "a"), labels, true),
        Arguments.of(requirement("zone", "Exists"), labels, true),
        Arguments.of(requirement("missing", "Exists"), labels, false),
        Arguments.of(requirement("missing", "DoesNotExist"), labels, true),
        Arguments.of(requirement("zone", "DoesNotExist"), labels, false),
        Arguments.of(requirement("gpus", "Gt", "3"), labels, true),
        Arguments.of(requirement("gpus", "Gt", "4"), labels, false),
        Arguments.of(requirement("gpus", "Lt", "5"), labels, true),
        Arguments.of(requirement("gpus", "Lt", "4"), labels, false),
        Arguments.of(requirement("name", "Gt", "1"), labels, false),
        Arguments.of(requirement("gpus", "Gt", "x"), labels, false),
        Arguments.of(requirement("missing", "Lt", "9"), labels, false));
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("requirements")
  void nodeSelectorRequirements(
      NodeSelectorRequirement requirement, Map<String, String> labels, boolean expected) {
    assertEquals(expected, NodeFit.matches(requirement, labels));
  }

  static Node node(String name, Map<String, String> labels) {
    Node node = new Node();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setLabels(labels);
    node.setMetadata(meta);
    node.setSpec(new NodeSpec());
    return node;
  }

  static Pod pod() {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("p");
    meta.setNamespace("default");
    pod.setMetadata(meta);
    PodSpec spec = new PodSpec();
    spec.setContainers(new ArrayList<>());
    pod.setSpec(spec);
    return pod;
  }

  static Pod withAffinity(NodeSelectorTerm... terms) {
    Pod pod = pod();
    NodeSelector selector = new NodeSelector();
    selector.setNodeSelectorTerms(List.of(terms));
    NodeAffinity nodeAffinity = new NodeAffinity();
    nodeAffinity.setRequiredDuringSchedulingIgnoredDuringExecution(selector);
    Affinity affinity = new Affinity();
    affinity.setNodeAffinity(nodeAffinity);
    pod.getSpec().setAffinity(affinity);
    return pod;
  }

  static NodeSelectorTerm term(
      List<NodeSelectorRequirement> expressions, List<NodeSelectorRequirement> fields) {
    NodeSelectorTerm term = new NodeSelectorTerm();
    term.setMatchExpressions(expressions);
    term.setMatchFields(fields);
    return term;
  }

  @Test
  void nodeSelectorAndRequiredAffinityBothHaveToMatch() {
    Node node = node("node-1", Map.of("disktype", "ssd", "zone", "a"));
    Pod selector = pod();
    selector.getSpec().setNodeSelector(Map.of("disktype", "ssd"));
    assertEquals(true, NodeFit.matchesNodeSelectorAndAffinity(selector, node));
    selector.getSpec().setNodeSelector(Map.of("disktype", "hdd"));
    assertEquals(false, NodeFit.matchesNodeSelectorAndAffinity(selector, node));

    // Terms are ORed, requirements within a term ANDed.
    Pod terms =
        withAffinity(
            term(List.of(requirement("zone", "In", "b")), null),
            term(List.of(requirement("zone", "In", "a"), requirement("disktype", "Exists")), null));
    assertEquals(true, NodeFit.matchesNodeSelectorAndAffinity(terms, node));
    Pod anded =
        withAffinity(
            term(
                List.of(requirement("zone", "In", "a"), requirement("disktype", "DoesNotExist")),
                null));
    assertEquals(false, NodeFit.matchesNodeSelectorAndAffinity(anded, node));
    // An empty term matches nothing.
    assertEquals(
        false, NodeFit.matchesNodeSelectorAndAffinity(withAffinity(term(null, null)), node));
    // matchFields knows metadata.name.
    Pod byName = withAffinity(term(null, List.of(requirement("metadata.name", "In", "node-1"))));
    assertEquals(true, NodeFit.matchesNodeSelectorAndAffinity(byName, node));
    assertEquals(
        false, NodeFit.matchesNodeSelectorAndAffinity(byName, node("node-2", Map.of("zone", "a"))));
    Pod notName =
        withAffinity(term(null, List.of(requirement("metadata.name", "NotIn", "node-1"))));
    assertEquals(false, NodeFit.matchesNodeSelectorAndAffinity(notName, node));
  }

  static Container container(String name, String cpu, String memory, String restartPolicy) {
    Container c = new Container();
    c.setName(name);
    c.setRestartPolicy(restartPolicy);
    Map<String, Quantity> requests = new LinkedHashMap<>();
    if (cpu != null) {
      requests.put("cpu", Quantity.parse(cpu));
    }
    if (memory != null) {
      requests.put("memory", Quantity.parse(memory));
    }
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(requests);
    c.setResources(resources);
    return c;
  }

  @Test
  void requestsSumContainersTakeTheLargestInitContainerAndAddOverhead() {
    Pod pod = pod();
    pod.getSpec().getContainers().add(container("a", "1", "1Gi", null));
    pod.getSpec().getContainers().add(container("b", "500m", "1Gi", null));
    assertEquals(Map.of("cpu", 1500L, "memory", 2L << 30), NodeFit.requests(pod));
    pod.getSpec().setInitContainers(List.of(container("init", "3", "1Gi", null)));
    assertEquals(Map.of("cpu", 3000L, "memory", 2L << 30), NodeFit.requests(pod));
    pod.getSpec().setOverhead(Map.of("cpu", Quantity.parse("250m")));
    assertEquals(Map.of("cpu", 3250L, "memory", 2L << 30), NodeFit.requests(pod));
  }

  @Test
  void sidecarsAddToTheContainersAndToLaterInitContainers() {
    Pod pod = pod();
    pod.getSpec().getContainers().add(container("app", "1", null, null));
    pod.getSpec()
        .setInitContainers(
            List.of(container("sidecar", "1", null, "Always"), container("init", "2", null, null)));
    // Sidecar and app run together (2); the init container ran beside the sidecar (3).
    assertEquals(Map.of("cpu", 3000L), NodeFit.requests(pod));
  }

  @Test
  void aPodWithoutRequestsCountsKubesDefaultsForScoring() {
    Pod pod = pod();
    pod.getSpec().getContainers().add(container("a", null, null, null));
    long[] nonZero = NodeFit.nonZeroRequests(pod);
    assertEquals(100, nonZero[0]);
    assertEquals(200L * 1024 * 1024, nonZero[1]);
  }

  @Test
  void insufficientResourcesAndTooManyPods() {
    Map<String, Long> allocatable = Map.of("cpu", 4000L, "memory", 8L << 30, "pods", 2L);
    assertEquals(
        List.of(),
        NodeFit.insufficient(Map.of("cpu", 1000L), allocatable, Map.of("cpu", 3000L, "pods", 1L)));
    assertEquals(
        List.of("Insufficient cpu"),
        NodeFit.insufficient(Map.of("cpu", 1001L), allocatable, Map.of("cpu", 3000L, "pods", 1L)));
    assertEquals(
        List.of("Too many pods", "Insufficient cpu", "Insufficient memory"),
        NodeFit.insufficient(
            Map.of("cpu", 5000L, "memory", 9L << 30), allocatable, Map.of("pods", 2L)));
    assertEquals(
        List.of("Insufficient example.com/gpu"),
        NodeFit.insufficient(Map.of("example.com/gpu", 1L), allocatable, Map.of()));
  }

  @Test
  void leastAllocatedPrefersTheEmptierNode() {
    Map<String, Long> allocatable = Map.of("cpu", 4000L, "memory", 4000L);
    assertEquals(
        75, NodeFit.leastAllocatedScore(allocatable, new long[] {0, 0}, new long[] {1000, 1000}));
    assertEquals(
        25,
        NodeFit.leastAllocatedScore(allocatable, new long[] {2000, 2000}, new long[] {1000, 1000}));
    assertEquals(
        0,
        NodeFit.leastAllocatedScore(allocatable, new long[] {4000, 4000}, new long[] {1000, 1000}));
  }

  @Test
  void fitErrorMessagesAsKubeSchedulerWritesThem() {
    assertEquals(
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No"
            + " preemption victims found for incoming pod.",
        NodeFit.fitErrorMessage(
            3,
            List.of(
                List.of("Insufficient cpu"),
                List.of("Insufficient cpu"),
                List.of("Insufficient cpu")),
            List.of(false, false, false)));
    assertEquals(
        "0/3 nodes are available: 1 node(s) had untolerated taint"
            + " {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu, 2 Insufficient"
            + " memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for"
            + " scheduling, 2 No preemption victims found for incoming pod.",
        NodeFit.fitErrorMessage(
            3,
            List.of(
                List.of(
                    NodeFit.untoleratedTaintReason(
                        taint("node-role.kubernetes.io/control-plane", null, "NoSchedule"))),
                List.of("Insufficient cpu", "Insufficient memory"),
                List.of("Insufficient cpu", "Insufficient memory")),
            List.of(true, false, false)));
    assertEquals(
        "no nodes available to schedule pods", NodeFit.fitErrorMessage(0, List.of(), List.of()));
  }

  @Test
  void untoleratedTaintsOfTheFilterAndPreferNoScheduleOfTheScore() {
    Node node = node("n", Map.of());
    node.getSpec()
        .setTaints(
            List.of(
                taint("soft", null, "PreferNoSchedule"), taint("dedicated", "db", "NoSchedule")));
    Pod pod = pod();
    assertEquals(Optional.of("dedicated"), NodeFit.untoleratedTaint(node, pod).map(Taint::getKey));
    assertEquals(1, NodeFit.intolerablePreferNoSchedule(node, pod));
    pod.getSpec()
        .setTolerations(
            List.of(
                toleration("dedicated", "Equal", "db", "NoSchedule"),
                toleration("soft", "Exists", null, "PreferNoSchedule")));
    assertEquals(Optional.empty(), NodeFit.untoleratedTaint(node, pod));
    assertEquals(0, NodeFit.intolerablePreferNoSchedule(node, pod));
  }

  @Test
  void allocatableFallsBackToCapacity() {
    Node node = node("n", Map.of());
    NodeStatus status = new NodeStatus();
    status.setCapacity(Map.of("cpu", Quantity.parse("2"), "pods", Quantity.parse("110")));
    node.setStatus(status);
    assertEquals(Map.of("cpu", 2000L, "pods", 110L), NodeFit.allocatable(node));
  }
}
