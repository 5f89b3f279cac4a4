package dev.machinery.cluster.tests.nodes;

import static dev.machinery.cluster.tests.nodes.SimulatedNodesTest.condition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.controller.clock.FakeClock;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node whose kubelet dies: its heartbeats stop, the node lifecycle controller marks it {@code
 * Unknown} and taints it, its pods turn not ready and the taint eviction controller deletes them by
 * their tolerations; the kubelet's return clears it all. The pod garbage collector removes pods of
 * a node that is gone.
 */
@EnableApiServer(
    controllers = {
      "kubelet",
      "kube-scheduler",
      "node-lifecycle-controller",
      "taint-eviction-controller",
      "pod-garbage-collector-controller"
    },
    nodes = 3,
    fakeClock = true)
class NodeLifecycleTest {
  KubernetesClient client;
  TestApiServer server;

  private Node node(String name) {
    return client.nodes().withName(name).get();
  }

  private Pod pod(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  private static Pod pinned(String name, String node, List<Toleration> tolerations) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .withTolerations(tolerations)
        .addNewContainer()
        .withName("app")
        .withImage("nginx")
        .endContainer()
        .endSpec()
        .build();
  }

  private static Toleration unreachableFor(long seconds) {
    return new TolerationBuilder()
        .withKey("node.kubernetes.io/unreachable")
        .withOperator("Exists")
        .withEffect("NoExecute")
        .withTolerationSeconds(seconds)
        .build();
  }

  /** Moves the cluster clock in 10s steps, waiting for the live kubelets' leases each time. */
  private void advance(Duration total, List<String> live) {
    FakeClock clock = server.fakeClock();
    for (long done = 0; done < total.toSeconds(); done += 10) {
      clock.step(Duration.ofSeconds(Math.min(10, total.toSeconds() - done)));
      Instant now = clock.now().minusSeconds(10);
      for (String name : live) {
        Poll.until(
            name + "'s lease renewed",
            () -> client.leases().inNamespace("kube-node-lease").withName(name).get(),
            (Lease l) -> !l.getSpec().getRenewTime().toInstant().isBefore(now));
      }
    }
  }

  private boolean renewedInTheLastStep(String name) {
    Lease lease = client.leases().inNamespace("kube-node-lease").withName(name).get();
    // A renewal the last step caused carries the time the clock was moved to.
    Instant stepEnd = server.fakeClock().now().minusSeconds(1);
    return lease.getSpec().getRenewTime().toInstant().isAfter(stepEnd);
  }

  private void annotate(String node, String value) {
    client
        .nodes()
        .withName(node)
        .edit(
            n -> {
              if (value == null) {
                n.getMetadata().getAnnotations().remove("sim.machinery.dev/ready");
              } else {
                n.getMetadata().getAnnotations().put("sim.machinery.dev/ready", value);
              }
              return n;
            });
  }

  /** The node's Ready condition, taints, Lease renewal and the cluster's time, for failures. */
  private String summary(String name) {
    Node node = node(name);
    NodeCondition ready = condition(node, "Ready");
    Lease lease = client.leases().inNamespace("kube-node-lease").withName(name).get();
    return "Ready="
        + (ready == null ? "none" : ready.getStatus() + "/" + ready.getLastHeartbeatTime())
        + " taints="
        + (node.getSpec().getTaints() == null
            ? "[]"
            : node.getSpec().getTaints().stream()
                .map(t -> t.getKey() + ":" + t.getEffect())
                .collect(java.util.stream.Collectors.toList()))
        + " lease="
        + (lease == null ? "none" : lease.getSpec().getRenewTime())
        + " now="
        + server.fakeClock().now();
  }

  private static boolean hasTaint(Node node, String key, String effect) {
    return node.getSpec().getTaints() != null
        && node.getSpec().getTaints().stream()
            .anyMatch(t -> key.equals(t.getKey()) && effect.equals(t.getEffect()));
  }

  @Test
  void aDeadKubeletsNodeTurnsUnknownIsTaintedAndItsPodsAreEvicted() {
    Poll.until(
        "node-3 ready",
        () -> node("node-3"),
        n -> condition(n, "Ready") != null && "True".equals(condition(n, "Ready").getStatus()));
    client.pods().resource(pinned("stays", "node-3", List.of())).create();
    client.pods().resource(pinned("goes-now", "node-3", List.of(unreachableFor(0)))).create();
    client.pods().resource(pinned("goes-later", "node-3", List.of(unreachableFor(60)))).create();
    for (String name : List.of("stays", "goes-now", "goes-later")) {
      Poll.until(
          name + " ready",
          () -> pod(name),
          p -> condition(p, "Ready") != null && "True".equals(condition(p, "Ready").getStatus()));
    }
    Pod stays = pod("stays");
    assertTrue(
        stays.getSpec().getTolerations().stream()
            .anyMatch(
                t ->
                    "node.kubernetes.io/unreachable".equals(t.getKey())
                        && Long.valueOf(300).equals(t.getTolerationSeconds())),
        "DefaultTolerationSeconds gives 300s: " + stays.getSpec().getTolerations());

    annotate("node-3", "false");
    // The kubelet stops once its informer has the annotation: until then it may renew. Step until
    // a step passes without a renewal of node-3's Lease, then past the 40s grace (with room for
    // one renewal in flight).
    for (int i = 0; i < 20 && renewedInTheLastStep("node-3"); i++) {
      advance(Duration.ofSeconds(10), List.of("node-1", "node-2"));
    }
    advance(Duration.ofSeconds(60), List.of("node-1", "node-2"));
    Poll.until(
        "node-3 unknown and tainted",
        () -> summary("node-3"),
        text -> text.startsWith("Ready=Unknown") && text.contains("unreachable:NoExecute"));
    Node unknown = node("node-3");
    NodeCondition ready = condition(unknown, "Ready");
    assertEquals("NodeStatusUnknown", ready.getReason());
    assertEquals("Kubelet stopped posting node status.", ready.getMessage());
    assertEquals("Unknown", condition(unknown, "MemoryPressure").getStatus());
    assertTrue(hasTaint(unknown, "node.kubernetes.io/unreachable", "NoSchedule"));
    Taint noExecute =
        unknown.getSpec().getTaints().stream()
            .filter(t -> "NoExecute".equals(t.getEffect()))
            .findFirst()
            .get();
    assertNotNull(noExecute.getTimeAdded());
    assertEquals("True", condition(node("node-1"), "Ready").getStatus());

    // Evicted: deleted, and (its kubelet being dead, as on a real cluster) left terminating with
    // its grace period until the node comes back or goes.
    Poll.until("goes-now evicted", () -> evicted("goes-now"), x -> true);
    Pod notReady =
        Poll.until(
            "stays not ready",
            () -> pod("stays"),
            p -> "False".equals(condition(p, "Ready").getStatus()));
    assertEquals("Running", notReady.getStatus().getPhase());
    assertNotNull(pod("goes-later"));

    advance(Duration.ofSeconds(60), List.of("node-1", "node-2"));
    Poll.until("goes-later evicted", () -> evicted("goes-later"), x -> true);
    assertNotNull(pod("stays"));

    annotate("node-3", null);
    Node back =
        Poll.until(
            "node-3 ready again and untainted",
            () -> node("node-3"),
            n ->
                "True".equals(condition(n, "Ready").getStatus())
                    && (n.getSpec().getTaints() == null || n.getSpec().getTaints().isEmpty()));
    assertEquals("KubeletReady", condition(back, "Ready").getReason());
    Poll.until(
        "stays ready again",
        () -> pod("stays"),
        p -> "True".equals(condition(p, "Ready").getStatus()));
  }

  /** "evicted" once the pod is gone or being deleted, else null. */
  private String evicted(String name) {
    Pod pod = pod(name);
    return pod == null || pod.getMetadata().getDeletionTimestamp() != null ? "evicted" : null;
  }

  @Test
  void podsOfANodeThatIsGoneAreCollected() {
    Pod orphan = pinned("orphan", "ghost-node", List.of());
    orphan.getMetadata().setFinalizers(new ArrayList<>(List.of("example.com/hold")));
    client.pods().resource(orphan).create();
    advance(Duration.ofSeconds(20), List.of("node-1", "node-2"));
    Pod marked =
        Poll.until(
            "orphan marked and deleted",
            () -> pod("orphan"),
            p -> p.getMetadata().getDeletionTimestamp() != null);
    var disruption =
        marked.getStatus().getConditions().stream()
            .filter(c -> "DisruptionTarget".equals(c.getType()))
            .findFirst()
            .orElseThrow();
    assertEquals("True", disruption.getStatus());
    assertEquals("DeletionByPodGC", disruption.getReason());
    assertEquals("PodGC: node no longer exists", disruption.getMessage());
    assertEquals("Failed", marked.getStatus().getPhase());
    marked.getMetadata().setFinalizers(List.of());
    client.pods().resource(marked).update();
    Poll.until("orphan gone", () -> pod("orphan") == null ? "gone" : null, x -> true);
    assertNull(pod("orphan"));
  }
}
