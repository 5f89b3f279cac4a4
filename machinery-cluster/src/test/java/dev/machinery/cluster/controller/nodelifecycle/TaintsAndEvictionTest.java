package dev.machinery.cluster.controller.nodelifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.NodeCondition;
import dev.machinery.api.core.v1.NodeSpec;
import dev.machinery.api.core.v1.NodeStatus;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.api.core.v1.Toleration;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The node lifecycle controller's taints by condition (node_lifecycle_controller_test's {@code
 * TestTaintsNodeByCondition} and NoExecute tainting) and the taint manager's eviction times ({@code
 * TestGetMinTolerationTime}, {@code TestCreatePod}'s toleration cases).
 */
class TaintsAndEvictionTest {
  static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

  static Node node(String ready, boolean unschedulable, List<Taint> taints, String... pressure) {
    Node node = new Node();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("n");
    node.setMetadata(meta);
    NodeSpec spec = new NodeSpec();
    spec.setUnschedulable(unschedulable ? true : null);
    spec.setTaints(taints);
    node.setSpec(spec);
    NodeStatus status = new NodeStatus();
    List<NodeCondition> conditions = new ArrayList<>();
    if (ready != null) {
      conditions.add(condition("Ready", ready));
    }
    for (String type : pressure) {
      conditions.add(condition(type, "True"));
    }
    status.setConditions(conditions);
    node.setStatus(status);
    return node;
  }

  static NodeCondition condition(String type, String status) {
    NodeCondition c = new NodeCondition();
    c.setType(type);
    c.setStatus(status);
    return c;
  }

  static Taint taint(String key, String effect) {
    Taint t = new Taint();
    t.setKey(key);
    t.setEffect(effect);
    return t;
  }

  static List<String> names(List<Taint> taints) {
    return taints.stream().map(t -> t.getKey() + ":" + t.getEffect()).collect(Collectors.toList());
  }

  @Test
  void taintsFollowTheConditions() {
    assertEquals(List.of(), names(NodeLifecycleController.taints(node("True", false, null), NOW)));
    assertEquals(
        List.of(
            "node.kubernetes.io/not-ready:NoSchedule", "node.kubernetes.io/not-ready:NoExecute"),
        names(NodeLifecycleController.taints(node("False", false, null), NOW)));
    assertEquals(
        List.of(
            "node.kubernetes.io/unreachable:NoSchedule",
            "node.kubernetes.io/unreachable:NoExecute"),
        names(NodeLifecycleController.taints(node("Unknown", false, null), NOW)));
    assertEquals(
        List.of(
            "node.kubernetes.io/disk-pressure:NoSchedule",
            "node.kubernetes.io/memory-pressure:NoSchedule",
            "node.kubernetes.io/unschedulable:NoSchedule"),
        names(
            NodeLifecycleController.taints(
                node("True", true, null, "MemoryPressure", "DiskPressure"), NOW)));
    // Admission's not-ready taint goes once the kubelet posts Ready; others' taints stay.
    assertEquals(
        List.of("dedicated:NoSchedule"),
        names(
            NodeLifecycleController.taints(
                node(
                    "True",
                    false,
                    List.of(
                        taint("node.kubernetes.io/not-ready", "NoSchedule"),
                        taint("dedicated", "NoSchedule"))),
                NOW)));
    // Before any status, admission's taint stays.
    assertEquals(
        List.of("node.kubernetes.io/not-ready:NoSchedule"),
        names(
            NodeLifecycleController.taints(
                node(null, false, List.of(taint("node.kubernetes.io/not-ready", "NoSchedule"))),
                NOW)));
  }

  @Test
  void aNoExecuteTaintKeepsTheTimeItWasAdded() {
    Taint earlier = taint("node.kubernetes.io/unreachable", "NoExecute");
    earlier.setTimeAdded(new Time(NOW.minusSeconds(30)));
    List<Taint> taints =
        NodeLifecycleController.taints(node("Unknown", false, List.of(earlier)), NOW);
    assertEquals(new Time(NOW.minusSeconds(30)), taints.get(1).getTimeAdded());
    List<Taint> fresh = NodeLifecycleController.taints(node("Unknown", false, null), NOW);
    assertEquals(new Time(NOW), fresh.get(1).getTimeAdded());
  }

  static Toleration toleration(String key, String effect, Long seconds) {
    Toleration t = new Toleration();
    t.setKey(key);
    t.setOperator("Exists");
    t.setEffect(effect);
    t.setTolerationSeconds(seconds);
    return t;
  }

  @Test
  void evictionTimes() {
    Taint unreachable = taint("node.kubernetes.io/unreachable", "NoExecute");
    unreachable.setTimeAdded(new Time(NOW.minusSeconds(100)));
    List<Taint> taints = List.of(unreachable);
    // Not tolerated: now.
    assertEquals(Optional.of(NOW), TaintEvictionController.evictionTime(taints, List.of(), NOW));
    // Tolerated forever: never.
    assertEquals(
        Optional.empty(),
        TaintEvictionController.evictionTime(
            taints, List.of(toleration("node.kubernetes.io/unreachable", "NoExecute", null)), NOW));
    // The shortest toleration counts, from the time the taint was added.
    assertEquals(
        Optional.of(NOW.plusSeconds(200)),
        TaintEvictionController.evictionTime(
            taints,
            List.of(
                toleration("node.kubernetes.io/unreachable", "NoExecute", 300L),
                toleration("", null, 600L)),
            NOW));
    // A negative toleration means at once.
    assertEquals(
        Optional.of(NOW.minusSeconds(100)),
        TaintEvictionController.evictionTime(
            taints, List.of(toleration("node.kubernetes.io/unreachable", "NoExecute", -5L)), NOW));
    // One of two taints untolerated: now.
    assertEquals(
        Optional.of(NOW),
        TaintEvictionController.evictionTime(
            List.of(unreachable, taint("other", "NoExecute")),
            List.of(toleration("node.kubernetes.io/unreachable", "NoExecute", 300L)),
            NOW));
  }
}
