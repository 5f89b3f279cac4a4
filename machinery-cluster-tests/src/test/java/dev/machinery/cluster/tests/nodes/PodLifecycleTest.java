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
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulated kubelet running pods to completion, restarting them, honouring readiness gates,
 * admission and deletion, against a cluster clock the test moves.
 */
@EnableApiServer(
    controllers = {"kubelet", "kube-scheduler", "node-lifecycle-controller"},
    nodes = 3,
    fakeClock = true)
class PodLifecycleTest {
  KubernetesClient client;
  TestApiServer server;

  private static Pod pod(String name, String restartPolicy, Map<String, String> annotations) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .withAnnotations(annotations)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy(restartPolicy)
        .addNewInitContainer()
        .withName("setup")
        .withImage("busybox")
        .endInitContainer()
        .addNewContainer()
        .withName("main")
        .withImage("registry.k8s.io/pause:3.10")
        .endContainer()
        .endSpec()
        .build();
  }

  private Pod get(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  private Pod until(String name, String what, java.util.function.Predicate<Pod> done) {
    return Poll.until(name + " " + what, () -> get(name), done);
  }

  private Pod running(String name) {
    return until(name, "running", p -> "Running".equals(p.getStatus().getPhase()));
  }

  private void step(Duration duration) {
    FakeClock clock = server.fakeClock();
    clock.step(duration);
  }

  @Test
  void aNeverPodSucceedsAfterItsRunTime() {
    client
        .pods()
        .resource(
            pod(
                "job-ok",
                "Never",
                Map.of("sim.machinery.dev/run-for", "2s", "sim.machinery.dev/exit-code", "0")))
        .create();
    Pod running = running("job-ok");
    ContainerStatus init = running.getStatus().getInitContainerStatuses().get(0);
    assertEquals("Completed", init.getState().getTerminated().getReason());
    assertEquals(0, init.getState().getTerminated().getExitCode());
    assertEquals("True", condition(running, "Initialized").getStatus());
    step(Duration.ofSeconds(3));
    Pod done = until("job-ok", "succeeded", p -> "Succeeded".equals(p.getStatus().getPhase()));
    ContainerStatus main = done.getStatus().getContainerStatuses().get(0);
    assertEquals(0, main.getState().getTerminated().getExitCode());
    assertEquals("Completed", main.getState().getTerminated().getReason());
    assertEquals(false, main.getReady());
    PodCondition ready = condition(done, "Ready");
    assertEquals("False", ready.getStatus());
    assertEquals("PodCompleted", ready.getReason());
  }

  @Test
  void aNeverPodWithAnExitCodeFails() {
    client
        .pods()
        .resource(
            pod(
                "job-bad",
                "Never",
                Map.of("sim.machinery.dev/run-for", "1s", "sim.machinery.dev/exit-code", "3")))
        .create();
    running("job-bad");
    step(Duration.ofSeconds(2));
    Pod failed = until("job-bad", "failed", p -> "Failed".equals(p.getStatus().getPhase()));
    ContainerStatus main = failed.getStatus().getContainerStatuses().get(0);
    assertEquals(3, main.getState().getTerminated().getExitCode());
    assertEquals("Error", main.getState().getTerminated().getReason());
    assertEquals(0, main.getRestartCount());
  }

  @Test
  void anOnFailurePodRestartsAfterBackOff() {
    client
        .pods()
        .resource(
            pod(
                "retry",
                "OnFailure",
                Map.of("sim.machinery.dev/run-for", "1s", "sim.machinery.dev/exit-code", "1")))
        .create();
    running("retry");
    step(Duration.ofSeconds(1));
    Pod waiting =
        until(
            "retry",
            "in back-off",
            p -> p.getStatus().getContainerStatuses().get(0).getState().getWaiting() != null);
    ContainerStatus status = waiting.getStatus().getContainerStatuses().get(0);
    assertEquals("CrashLoopBackOff", status.getState().getWaiting().getReason());
    assertTrue(
        status.getState().getWaiting().getMessage().startsWith("back-off 10s restarting failed"),
        status.getState().getWaiting().getMessage());
    assertEquals(1, status.getLastState().getTerminated().getExitCode());
    assertEquals("Running", waiting.getStatus().getPhase());
    assertEquals("False", condition(waiting, "Ready").getStatus());
    step(Duration.ofSeconds(10));
    Pod again =
        until(
            "retry",
            "restarted",
            p -> p.getStatus().getContainerStatuses().get(0).getRestartCount() == 1);
    ContainerStatus restarted = again.getStatus().getContainerStatuses().get(0);
    assertNotNull(restarted.getState().getRunning());
    assertEquals(1, restarted.getLastState().getTerminated().getExitCode());
  }

  @Test
  void readinessGatesHoldReadyUntilTheirConditionIsTrue() {
    Pod gated = pod("gated", "Always", Map.of());
    gated
        .getSpec()
        .setReadinessGates(
            java.util.List.of(
                new io.fabric8.kubernetes.api.model.PodReadinessGate("example.com/lb")));
    client.pods().resource(gated).create();
    Pod running =
        until(
            "gated",
            "running, not ready",
            p -> "Running".equals(p.getStatus().getPhase()) && condition(p, "Ready") != null);
    PodCondition ready = condition(running, "Ready");
    assertEquals("False", ready.getStatus());
    assertEquals("ReadinessGatesNotReady", ready.getReason());
    assertEquals(
        "corresponding condition of pod readiness gate \"example.com/lb\" does not exist.",
        ready.getMessage());
    assertEquals("True", condition(running, "ContainersReady").getStatus());
    running
        .getStatus()
        .getConditions()
        .add(new PodConditionBuilder().withType("example.com/lb").withStatus("True").build());
    client.pods().resource(running).updateStatus();
    until("gated", "ready", p -> "True".equals(condition(p, "Ready").getStatus()));
  }

  @Test
  void aHostNetworkPodHasItsNodesIp() {
    Pod host = pod("host-net", "Always", Map.of());
    host.getSpec().setHostNetwork(true);
    client.pods().resource(host).create();
    Pod running = running("host-net");
    assertEquals(running.getStatus().getHostIP(), running.getStatus().getPodIP());
    assertTrue(
        running.getStatus().getPodIP().startsWith("172.18.0."), running.getStatus().getPodIP());
    assertEquals(running.getStatus().getHostIP(), running.getStatus().getHostIPs().get(0).getIp());
  }

  @Test
  void aPodBoundToANodeItDoesNotMatchIsRejected() {
    Pod pinned = pod("pinned", "Always", Map.of());
    pinned.getSpec().setNodeName("node-2");
    pinned.getSpec().setNodeSelector(Map.of("disktype", "ssd"));
    client.pods().resource(pinned).create();
    Pod failed = until("pinned", "rejected", p -> "Failed".equals(p.getStatus().getPhase()));
    assertEquals("NodeAffinity", failed.getStatus().getReason());
    assertEquals(
        "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node"
            + " affinity/selector",
        failed.getStatus().getMessage());
  }

  @Test
  void aDeletedPodsContainersStopBeforeItIsRemoved() {
    Pod held = pod("held", "Always", Map.of());
    held.getMetadata().setFinalizers(java.util.List.of("example.com/hold"));
    client.pods().resource(held).create();
    running("held");
    client.pods().inNamespace("default").withName("held").withGracePeriod(0).delete();
    step(Duration.ofSeconds(2));
    Pod stopped =
        until(
            "held",
            "stopped",
            p ->
                p.getMetadata().getDeletionTimestamp() != null
                    && p.getStatus().getContainerStatuses().get(0).getState().getTerminated()
                        != null);
    assertEquals("Succeeded", stopped.getStatus().getPhase());
    stopped.getMetadata().setFinalizers(java.util.List.of());
    client.pods().resource(stopped).update();
    Poll.until("held gone", () -> get("held") == null ? "gone" : null, x -> true);
    assertNull(get("held"));
  }
}
