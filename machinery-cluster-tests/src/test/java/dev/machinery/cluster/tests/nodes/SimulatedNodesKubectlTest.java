package dev.machinery.cluster.tests.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every kubectl build on the machine against the simulated nodes, with every controller on ({@code
 * *}): {@code get nodes}, {@code run} to a Running pod with an IP, {@code wait
 * --for=condition=Ready}, {@code cordon}/{@code uncordon}, {@code taint} and its removal, {@code
 * delete pod}.
 */
@EnableApiServer(nodes = 3)
class SimulatedNodesKubectlTest {
  TestApiServer server;

  @TestFactory
  Stream<DynamicTest> kubectlDrivesTheSimulatedNodes() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SimulatedNodesKubectlTest");
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, Path> entry : installed.entrySet()) {
      tests.add(
          DynamicTest.dynamicTest(
              entry.getKey(),
              () ->
                  scenario(
                      Kubectl.of(entry.getKey(), entry.getValue(), server.url().toString()),
                      entry.getKey().replace('.', '-'))));
    }
    return tests.stream();
  }

  private static Kubectl.Result ok(Kubectl kubectl, String... args) throws Exception {
    Kubectl.Result result = kubectl.run(args);
    assertEquals(
        0, result.exitCode(), kubectl.name + " " + String.join(" ", args) + ": " + result.all());
    return result;
  }

  private static String until(Kubectl kubectl, String what, String expected, String... args) {
    return Poll.until(
        kubectl.name + ": " + what,
        Duration.ofSeconds(30),
        () -> {
          try {
            return kubectl.run(args).out();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        out -> out.contains(expected));
  }

  private void scenario(Kubectl kubectl, String suffix) throws Exception {
    String nodes = until(kubectl, "three Ready nodes", "node-3", "get", "nodes", "-o", "wide");
    assertTrue(nodes.contains("Ready"), nodes);
    assertTrue(nodes.contains("v1.33.0"), nodes);
    assertTrue(nodes.contains("172.18.0."), nodes);

    String web = "web-" + suffix;
    ok(kubectl, "run", web, "--image=nginx:1.27");
    ok(kubectl, "wait", "--for=condition=Ready", "pod/" + web, "--timeout=60s");
    String ip = ok(kubectl, "get", "pod", web, "-o", "jsonpath={.status.podIP}").out();
    assertTrue(ip.startsWith("10.244."), ip);
    String listed = ok(kubectl, "get", "pod", web).out();
    assertTrue(listed.contains("Running"), listed);
    assertTrue(listed.contains("1/1"), listed);

    ok(kubectl, "cordon", "node-1");
    until(kubectl, "node-1 cordoned", "SchedulingDisabled", "get", "node", "node-1");
    until(
        kubectl,
        "node-1's unschedulable taint",
        "node.kubernetes.io/unschedulable",
        "get",
        "node",
        "node-1",
        "-o",
        "jsonpath={.spec.taints}");
    ok(kubectl, "uncordon", "node-1");

    ok(kubectl, "taint", "nodes", "node-2", "dedicated=db:NoSchedule");
    String pinned = "pinned-" + suffix;
    ok(
        kubectl,
        "run",
        pinned,
        "--image=nginx",
        "--overrides={\"spec\":{\"nodeSelector\":{\"kubernetes.io/hostname\":\"node-2\"}}}");
    String message =
        until(
            kubectl,
            "pinned pod unschedulable",
            "untolerated taint",
            "get",
            "pod",
            pinned,
            "-o",
            "jsonpath={.status.conditions[?(@.type==\"PodScheduled\")].message}");
    assertTrue(
        message.contains("1 node(s) had untolerated taint {dedicated: db}")
            && message.contains("2 node(s) didn't match Pod's node affinity/selector"),
        message);
    ok(kubectl, "taint", "nodes", "node-2", "dedicated=db:NoSchedule-");
    ok(kubectl, "wait", "--for=condition=Ready", "pod/" + pinned, "--timeout=60s");
    assertEquals(
        "node-2", ok(kubectl, "get", "pod", pinned, "-o", "jsonpath={.spec.nodeName}").out());

    ok(kubectl, "delete", "pod", web, pinned, "--wait=true", "--timeout=60s");
    String left = kubectl.run("get", "pod", web).all();
    assertTrue(left.contains("NotFound") || left.contains("not found"), left);
  }
}
