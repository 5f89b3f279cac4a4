package dev.machinery.cluster.tests.batch;

import static dev.machinery.cluster.tests.batch.BatchTesting.runPods;
import static dev.machinery.cluster.tests.batch.BatchTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The DaemonSet controller alone, over Nodes the test makes: {@code node-a} ({@code disk=ssd}),
 * {@code node-b} ({@code disk=hdd}), {@code node-c} (tainted {@code dedicated=infra:NoSchedule}),
 * {@code node-d} (tainted {@code node.kubernetes.io/not-ready:NoExecute}, which daemon pods
 * tolerate). The test runs the pods, as kubelets would.
 */
@EnableApiServer(
    controllers = {"daemonset-controller"},
    nodes = 0)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DaemonSetControllerTest {
  KubernetesClient client;

  @BeforeAll
  void nodes() {
    node("node-a", Map.of("disk", "ssd"), null);
    node("node-b", Map.of("disk", "hdd"), null);
    node(
        "node-c",
        Map.of(),
        new TaintBuilder()
            .withKey("dedicated")
            .withValue("infra")
            .withEffect("NoSchedule")
            .build());
    node(
        "node-d",
        Map.of(),
        new TaintBuilder().withKey("node.kubernetes.io/not-ready").withEffect("NoExecute").build());
  }

  /**
   * Makes a node with exactly the taint given: the API server taints a new node {@code
   * node.kubernetes.io/not-ready:NoSchedule} (kube's TaintNodesByCondition), which the node
   * lifecycle controller lifts once the node is Ready; the test lifts it at once.
   */
  private void node(String name, Map<String, String> labels, Taint taint) {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .build())
        .create();
    setTaints(name, taint == null ? List.of() : List.of(taint));
  }

  /** Replaces a node's taints (an update, so that the list is replaced, not merged). */
  private void setTaints(String name, List<Taint> taints) {
    io.fabric8.kubernetes.api.model.Node node = client.nodes().withName(name).get();
    node.getSpec().setTaints(new java.util.ArrayList<>(taints));
    client.nodes().resource(node).update();
  }

  private DaemonSetBuilder daemonSet(String name) {
    return new DaemonSetBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .withNewSelector()
        .addToMatchLabels("app", name)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .addToLabels("app", name)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("agent:1")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec();
  }

  private DaemonSet get(String name) {
    return client.apps().daemonSets().inNamespace("default").withName(name).get();
  }

  /** The set's live pods by the node their affinity names. */
  private Map<String, List<Pod>> podsByNode(String app) {
    Map<String, List<Pod>> byNode = new TreeMap<>();
    for (Pod pod : client.pods().inNamespace("default").withLabel("app", app).list().getItems()) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      NodeSelectorRequirement field =
          pod.getSpec()
              .getAffinity()
              .getNodeAffinity()
              .getRequiredDuringSchedulingIgnoredDuringExecution()
              .getNodeSelectorTerms()
              .get(0)
              .getMatchFields()
              .get(0);
      assertEquals("metadata.name", field.getKey());
      assertEquals("In", field.getOperator());
      byNode.computeIfAbsent(field.getValues().get(0), k -> new java.util.ArrayList<>()).add(pod);
    }
    return byNode;
  }

  @Test
  void onePodAnEligibleNodeBoundByAffinityWithKubesTolerations() {
    client.apps().daemonSets().inNamespace("default").resource(daemonSet("agent").build()).create();
    until(
        "pods on a, b and d",
        () -> podsByNode("agent").keySet().equals(Set.of("node-a", "node-b", "node-d")),
        () -> podsByNode("agent").keySet());
    Pod pod = podsByNode("agent").get("node-a").get(0);
    assertTrue(pod.getMetadata().getGenerateName().startsWith("agent-"));
    Set<String> tolerated =
        pod.getSpec().getTolerations().stream()
            .map(t -> t.getKey() + ":" + t.getEffect())
            .collect(Collectors.toSet());
    assertTrue(
        tolerated.containsAll(
            Set.of(
                "node.kubernetes.io/not-ready:NoExecute",
                "node.kubernetes.io/unreachable:NoExecute",
                "node.kubernetes.io/disk-pressure:NoSchedule",
                "node.kubernetes.io/memory-pressure:NoSchedule",
                "node.kubernetes.io/pid-pressure:NoSchedule",
                "node.kubernetes.io/unschedulable:NoSchedule")),
        tolerated.toString());
    for (Toleration toleration : pod.getSpec().getTolerations()) {
      assertEquals("Exists", toleration.getOperator());
    }
    String hash = pod.getMetadata().getLabels().get("controller-revision-hash");
    assertTrue(
        client.apps().controllerRevisions().inNamespace("default").withName("agent-" + hash).get()
            != null);
    until(
        "all ready",
        () -> {
          runPods(client, "app", "agent");
          DaemonSet set = get("agent");
          return set.getStatus() != null
              && Integer.valueOf(3).equals(set.getStatus().getNumberAvailable());
        },
        () -> get("agent").getStatus());
    DaemonSet set = get("agent");
    assertEquals(3, set.getStatus().getDesiredNumberScheduled());
    assertEquals(3, set.getStatus().getCurrentNumberScheduled());
    assertEquals(3, set.getStatus().getNumberReady());
    assertEquals(3, set.getStatus().getUpdatedNumberScheduled());
    assertEquals(0, set.getStatus().getNumberMisscheduled());
    assertEquals(set.getMetadata().getGeneration(), set.getStatus().getObservedGeneration());
  }

  @Test
  void aNodeSelectorChoosesNodesAndANewTaintLeavesAMisscheduledPod() {
    client
        .apps()
        .daemonSets()
        .inNamespace("default")
        .resource(
            daemonSet("ssd-only")
                .editSpec()
                .editTemplate()
                .editSpec()
                .withNodeSelector(Map.of("disk", "ssd"))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
    until(
        "a pod on node-a only",
        () -> podsByNode("ssd-only").keySet().equals(Set.of("node-a")),
        () -> podsByNode("ssd-only").keySet());
    // A NoSchedule taint stops new pods but leaves the running one: it is misscheduled.
    setTaints(
        "node-a",
        List.of(new TaintBuilder().withKey("maintenance").withEffect("NoSchedule").build()));
    try {
      until(
          "misscheduled",
          () -> {
            DaemonSet set = get("ssd-only");
            return set.getStatus() != null
                && Integer.valueOf(1).equals(set.getStatus().getNumberMisscheduled())
                && Integer.valueOf(0).equals(set.getStatus().getDesiredNumberScheduled());
          },
          () -> get("ssd-only").getStatus());
      assertEquals(Set.of("node-a"), podsByNode("ssd-only").keySet());
    } finally {
      setTaints("node-a", List.of());
    }
  }

  @Test
  void aRollingUpdateReplacesPodsMaxUnavailableAtATime() {
    client.apps().daemonSets().inNamespace("default").resource(daemonSet("roll").build()).create();
    until(
        "ready",
        () -> {
          runPods(client, "app", "roll");
          DaemonSet set = get("roll");
          return set.getStatus() != null
              && Integer.valueOf(3).equals(set.getStatus().getNumberAvailable());
        },
        () -> get("roll").getStatus());
    client
        .apps()
        .daemonSets()
        .inNamespace("default")
        .withName("roll")
        .edit(
            d -> {
              d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("agent:2");
              return d;
            });
    until(
        "rolled",
        () -> {
          runPods(client, "app", "roll");
          DaemonSet set = get("roll");
          Map<String, List<Pod>> byNode = podsByNode("roll");
          return Integer.valueOf(3).equals(set.getStatus().getUpdatedNumberScheduled())
              && Integer.valueOf(3).equals(set.getStatus().getNumberAvailable())
              && byNode.size() == 3
              && byNode.values().stream()
                  .allMatch(
                      l ->
                          l.size() == 1
                              && "agent:2"
                                  .equals(l.get(0).getSpec().getContainers().get(0).getImage()));
        },
        () -> get("roll").getStatus());
  }

  @Test
  void aSurgeStartsTheNewPodBesideTheOld() {
    client
        .apps()
        .daemonSets()
        .inNamespace("default")
        .resource(
            daemonSet("surge")
                .editSpec()
                .withNewUpdateStrategy()
                .withType("RollingUpdate")
                .withNewRollingUpdate()
                .withMaxSurge(new IntOrString(1))
                .withMaxUnavailable(new IntOrString(0))
                .endRollingUpdate()
                .endUpdateStrategy()
                .endSpec()
                .build())
        .create();
    until(
        "ready",
        () -> {
          runPods(client, "app", "surge");
          DaemonSet set = get("surge");
          return set.getStatus() != null
              && Integer.valueOf(3).equals(set.getStatus().getNumberAvailable());
        },
        () -> get("surge").getStatus());
    client
        .apps()
        .daemonSets()
        .inNamespace("default")
        .withName("surge")
        .edit(
            d -> {
              d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("agent:2");
              return d;
            });
    // Before anything runs, one node holds an old pod and a new one.
    until(
        "a surged node",
        () -> podsByNode("surge").values().stream().anyMatch(l -> l.size() == 2),
        () -> podsByNode("surge"));
    until(
        "rolled",
        () -> {
          runPods(client, "app", "surge");
          DaemonSet set = get("surge");
          Map<String, List<Pod>> byNode = podsByNode("surge");
          return Integer.valueOf(3).equals(set.getStatus().getUpdatedNumberScheduled())
              && byNode.values().stream()
                  .allMatch(
                      l ->
                          l.size() == 1
                              && "agent:2"
                                  .equals(l.get(0).getSpec().getContainers().get(0).getImage()));
        },
        () -> podsByNode("surge"));
  }
}
