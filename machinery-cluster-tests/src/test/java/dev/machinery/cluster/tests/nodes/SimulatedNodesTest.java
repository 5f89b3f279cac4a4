package dev.machinery.cluster.tests.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Simulated nodes and their kubelets, with the scheduler and node lifecycle, through fabric8. */
@EnableApiServer(
    controllers = {"kubelet", "kube-scheduler", "node-lifecycle-controller"},
    nodes = 3)
class SimulatedNodesTest {
  KubernetesClient client;

  static PodCondition condition(Pod pod, String type) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  static NodeCondition condition(Node node, String type) {
    if (node.getStatus() == null || node.getStatus().getConditions() == null) {
      return null;
    }
    return node.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("app")
        .withImage("nginx:1.27")
        .endContainer()
        .endSpec()
        .build();
  }

  @Test
  void nodesRegisterWithKubeletStatusAndLeases() {
    List<Node> nodes =
        Poll.until(
            "three ready nodes",
            () -> client.nodes().list().getItems(),
            list ->
                list.size() == 3
                    && list.stream()
                        .allMatch(
                            n ->
                                condition(n, "Ready") != null
                                    && "True".equals(condition(n, "Ready").getStatus())
                                    && (n.getSpec().getTaints() == null
                                        || n.getSpec().getTaints().isEmpty())));
    Node node =
        nodes.stream().filter(n -> n.getMetadata().getName().equals("node-1")).findFirst().get();
    assertEquals("node-1", node.getMetadata().getLabels().get("kubernetes.io/hostname"));
    assertEquals("linux", node.getMetadata().getLabels().get("kubernetes.io/os"));
    assertEquals("amd64", node.getMetadata().getLabels().get("kubernetes.io/arch"));
    assertEquals("10.244.1.0/24", node.getSpec().getPodCIDR());
    assertEquals("32", node.getStatus().getCapacity().get("cpu").toString());
    assertEquals(node.getStatus().getCapacity(), node.getStatus().getAllocatable());
    assertEquals("110", node.getStatus().getAllocatable().get("pods").toString());
    NodeCondition ready = condition(node, "Ready");
    assertEquals("KubeletReady", ready.getReason());
    assertEquals("kubelet is posting ready status", ready.getMessage());
    assertEquals("KubeletHasSufficientMemory", condition(node, "MemoryPressure").getReason());
    assertEquals("False", condition(node, "DiskPressure").getStatus());
    assertEquals("KubeletHasSufficientPID", condition(node, "PIDPressure").getReason());
    assertTrue(node.getStatus().getNodeInfo().getKubeletVersion().startsWith("v1.33."));
    assertEquals("InternalIP", node.getStatus().getAddresses().get(0).getType());
    Lease lease =
        Poll.until(
            "node-1's lease",
            () -> client.leases().inNamespace("kube-node-lease").withName("node-1").get(),
            l -> l.getSpec().getRenewTime() != null);
    assertEquals("node-1", lease.getSpec().getHolderIdentity());
    assertEquals(40, lease.getSpec().getLeaseDurationSeconds());
    assertEquals("Node", lease.getMetadata().getOwnerReferences().get(0).getKind());
  }

  @Test
  void aPodIsScheduledAndRunsWithAnIpFromItsNodesCidr() {
    client.pods().inNamespace("default").resource(pod("web-1")).create();
    Pod running =
        Poll.until(
            "web-1 running and ready",
            () -> client.pods().inNamespace("default").withName("web-1").get(),
            p ->
                "Running".equals(p.getStatus().getPhase())
                    && condition(p, "Ready") != null
                    && "True".equals(condition(p, "Ready").getStatus()));
    String node = running.getSpec().getNodeName();
    assertNotNull(node);
    int index = Integer.parseInt(node.substring("node-".length()));
    assertTrue(
        running.getStatus().getPodIP().startsWith("10.244." + index + "."),
        running.getStatus().getPodIP());
    assertEquals(running.getStatus().getPodIP(), running.getStatus().getPodIPs().get(0).getIp());
    assertNotNull(running.getStatus().getHostIP());
    assertEquals("True", condition(running, "PodScheduled").getStatus());
    assertEquals("True", condition(running, "Initialized").getStatus());
    assertEquals("True", condition(running, "ContainersReady").getStatus());
    assertEquals("True", condition(running, "PodReadyToStartContainers").getStatus());
    var status = running.getStatus().getContainerStatuses().get(0);
    assertEquals("app", status.getName());
    assertTrue(status.getReady());
    assertTrue(status.getStarted());
    assertEquals(0, status.getRestartCount());
    assertEquals("docker.io/library/nginx:1.27", status.getImage());
    assertTrue(status.getContainerID().startsWith("containerd://"), status.getContainerID());
    assertTrue(
        status.getImageID().startsWith("docker.io/library/nginx@sha256:"), status.getImageID());
    assertNotNull(status.getState().getRunning().getStartedAt());
    assertEquals("BestEffort", running.getStatus().getQosClass());
  }

  @Test
  void podsSpreadAndGetDistinctIps() {
    Set<String> nodes = new HashSet<>();
    Set<String> ips = new HashSet<>();
    for (int i = 0; i < 9; i++) {
      client.pods().inNamespace("default").resource(pod("spread-" + i)).create();
    }
    for (int i = 0; i < 9; i++) {
      String name = "spread-" + i;
      Pod p =
          Poll.until(
              name + " running",
              () -> client.pods().inNamespace("default").withName(name).get(),
              x -> "Running".equals(x.getStatus().getPhase()));
      nodes.add(p.getSpec().getNodeName());
      ips.add(p.getStatus().getPodIP());
    }
    assertEquals(9, ips.size(), "IPs: " + ips);
    assertTrue(nodes.size() >= 2, "nodes: " + nodes);
  }

  @Test
  void aPodNoNodeFitsIsUnschedulableWithKubesMessage() {
    Pod big = pod("too-big");
    big.getSpec()
        .getContainers()
        .get(0)
        .setResources(
            new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("64"))
                .build());
    client.pods().inNamespace("default").resource(big).create();
    Pod pending =
        Poll.until(
            "too-big unschedulable",
            () -> client.pods().inNamespace("default").withName("too-big").get(),
            p -> condition(p, "PodScheduled") != null);
    PodCondition scheduled = condition(pending, "PodScheduled");
    assertEquals("False", scheduled.getStatus());
    assertEquals("Unschedulable", scheduled.getReason());
    assertEquals(
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No"
            + " preemption victims found for incoming pod.",
        scheduled.getMessage());
    assertEquals("Pending", pending.getStatus().getPhase());
    Poll.until(
        "a FailedScheduling event",
        () -> client.v1().events().inNamespace("default").list().getItems(),
        events ->
            events.stream()
                .anyMatch(
                    e ->
                        "FailedScheduling".equals(e.getReason())
                            && "Warning".equals(e.getType())
                            && "too-big".equals(e.getInvolvedObject().getName())
                            && e.getMessage().contains("Insufficient cpu")));
    assertFalse(pending.getSpec().getNodeName() != null);
  }
}
