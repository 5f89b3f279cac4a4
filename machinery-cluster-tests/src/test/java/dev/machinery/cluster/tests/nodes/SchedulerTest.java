package dev.machinery.cluster.tests.nodes;

import static dev.machinery.cluster.tests.nodes.SimulatedNodesTest.condition;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The scheduler through fabric8: requests against what bound pods already use (and a waiting pod
 * scheduled once room is freed), required node affinity on a field, and {@code PreferNoSchedule} as
 * a preference.
 */
@EnableApiServer(
    controllers = {"kubelet", "kube-scheduler", "node-lifecycle-controller"},
    nodes = 3)
class SchedulerTest {
  KubernetesClient client;

  private static Pod pod(String name, String cpu) {
    PodBuilder builder =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("default")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage("nginx")
            .withNewResources()
            .withRequests(cpu == null ? Map.of() : Map.of("cpu", new Quantity(cpu)))
            .endResources()
            .endContainer()
            .endSpec();
    return builder.build();
  }

  private Pod get(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  private Pod scheduled(String name) {
    return Poll.until(
        name + " bound",
        () -> get(name),
        p -> p.getSpec().getNodeName() != null && "Running".equals(p.getStatus().getPhase()));
  }

  @Test
  void requestsAreCountedAgainstAllocatableAndAWaitingPodIsRetried() {
    Set<String> nodes = new TreeSet<>();
    for (int i = 1; i <= 3; i++) {
      client.pods().resource(pod("big-" + i, "20")).create();
    }
    for (int i = 1; i <= 3; i++) {
      nodes.add(scheduled("big-" + i).getSpec().getNodeName());
    }
    assertEquals(Set.of("node-1", "node-2", "node-3"), nodes);
    client.pods().resource(pod("big-4", "20")).create();
    Pod waiting =
        Poll.until(
            "big-4 unschedulable", () -> get("big-4"), p -> condition(p, "PodScheduled") != null);
    assertEquals(
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No"
            + " preemption victims found for incoming pod.",
        condition(waiting, "PodScheduled").getMessage());
    String freed = get("big-2").getSpec().getNodeName();
    client.pods().inNamespace("default").withName("big-2").withGracePeriod(0).delete();
    Pod bound = scheduled("big-4");
    assertEquals(freed, bound.getSpec().getNodeName());
    assertEquals("True", condition(bound, "PodScheduled").getStatus());
    for (String name : List.of("big-1", "big-3", "big-4")) {
      client.pods().inNamespace("default").withName(name).withGracePeriod(0).delete();
    }
  }

  @Test
  void requiredNodeAffinityOnTheNodesName() {
    Pod pod = pod("by-name", null);
    pod.getSpec()
        .setAffinity(
            new io.fabric8.kubernetes.api.model.AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .withMatchFields(
                    new NodeSelectorRequirementBuilder()
                        .withKey("metadata.name")
                        .withOperator("In")
                        .withValues("node-2")
                        .build())
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .build());
    client.pods().resource(pod).create();
    assertEquals("node-2", scheduled("by-name").getSpec().getNodeName());
  }

  @Test
  void preferNoScheduleTaintsAreAvoidedWhenAnotherNodeFits() {
    for (String node : List.of("node-1", "node-2")) {
      client
          .nodes()
          .withName(node)
          .edit(
              n -> {
                n.getSpec()
                    .getTaints()
                    .add(
                        new TaintBuilder()
                            .withKey("example.com/soft")
                            .withEffect("PreferNoSchedule")
                            .build());
                return n;
              });
    }
    try {
      for (int i = 0; i < 4; i++) {
        client.pods().resource(pod("soft-" + i, null)).create();
      }
      for (int i = 0; i < 4; i++) {
        assertEquals("node-3", scheduled("soft-" + i).getSpec().getNodeName());
      }
    } finally {
      for (String node : List.of("node-1", "node-2")) {
        client
            .nodes()
            .withName(node)
            .edit(
                n -> {
                  n.getSpec().getTaints().removeIf(t -> "example.com/soft".equals(t.getKey()));
                  return n;
                });
      }
    }
  }
}
