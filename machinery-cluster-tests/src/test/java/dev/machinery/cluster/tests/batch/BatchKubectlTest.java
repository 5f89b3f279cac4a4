package dev.machinery.cluster.tests.batch;

import static dev.machinery.cluster.tests.batch.BatchTesting.activePodsOf;
import static dev.machinery.cluster.tests.batch.BatchTesting.finish;
import static dev.machinery.cluster.tests.batch.BatchTesting.podsOf;
import static dev.machinery.cluster.tests.batch.BatchTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The batch and apps controllers driven by every kubectl build on the machine. */
@EnableApiServer(
    controllers = {"*"},
    nodes = 0)
class BatchKubectlTest {
  KubernetesClient client;
  TestApiServer server;

  @TestFactory
  Stream<DynamicTest> kubectlCreatesAJobAndWaitsForItToComplete() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("the batch kubectl suite");
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () ->
                        createAndWait(
                            Kubectl.of(e.getKey(), e.getValue(), server.url().toString()))));
  }

  @TestFactory
  Stream<DynamicTest> kubectlCreatesACronJob() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("the batch kubectl suite");
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> {
                      Kubectl kubectl =
                          Kubectl.of(e.getKey(), e.getValue(), server.url().toString());
                      String name = "cron-" + kubectl.name.replace("kubectl", "k").replace(".", "");
                      Kubectl.Result created =
                          kubectl.run(
                              "create",
                              "cronjob",
                              name,
                              "--image=busybox",
                              "--schedule=*/5 * * * *");
                      assertEquals(0, created.exitCode(), created.all());
                      assertTrue(
                          created.out().contains("cronjob.batch/" + name + " created"),
                          created.all());
                      Kubectl.Result schedule =
                          kubectl.run("get", "cronjob", name, "-o", "jsonpath={.spec.schedule}");
                      assertEquals("*/5 * * * *", schedule.out(), schedule.all());
                    }));
  }

  @TestFactory
  Stream<DynamicTest> kubectlRolloutStatusFollowsStatefulSetsAndDaemonSets() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("the batch kubectl suite");
    if (client.nodes().withName("kubectl-node").get() == null) {
      client
          .nodes()
          .resource(
              new io.fabric8.kubernetes.api.model.NodeBuilder()
                  .withNewMetadata()
                  .withName("kubectl-node")
                  .endMetadata()
                  .build())
          .create();
      // Lift the not-ready taint the API server gives a new node, as its lifecycle controller
      // would.
      io.fabric8.kubernetes.api.model.Node node = client.nodes().withName("kubectl-node").get();
      node.getSpec().setTaints(new java.util.ArrayList<>());
      client.nodes().resource(node).update();
    }
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> rollouts(Kubectl.of(e.getKey(), e.getValue(), server.url().toString()))));
  }

  private void rollouts(Kubectl kubectl) throws Exception {
    String suffix = kubectl.name.replace("kubectl", "k").replace(".", "");
    String sts = "sts-" + suffix;
    String ds = "ds-" + suffix;
    String manifest =
        String.join(
            "\n",
            "apiVersion: apps/v1",
            "kind: StatefulSet",
            "metadata: {name: " + sts + ", namespace: default}",
            "spec:",
            "  replicas: 2",
            "  serviceName: " + sts,
            "  selector: {matchLabels: {app: " + sts + "}}",
            "  template:",
            "    metadata: {labels: {app: " + sts + "}}",
            "    spec: {containers: [{name: main, image: nginx}]}",
            "---",
            "apiVersion: apps/v1",
            "kind: DaemonSet",
            "metadata: {name: " + ds + ", namespace: default}",
            "spec:",
            "  selector: {matchLabels: {app: " + ds + "}}",
            "  template:",
            "    metadata: {labels: {app: " + ds + "}}",
            "    spec: {containers: [{name: main, image: agent}]}",
            "");
    Kubectl.Result applied = kubectl.run(Map.of(), manifest, "apply", "-f", "-");
    assertEquals(0, applied.exitCode(), applied.all());
    String stsOut = followRollout(kubectl, "statefulset/" + sts, sts);
    assertTrue(
        stsOut.contains("partitioned roll out complete: 2 new pods have been updated..."), stsOut);
    String dsOut = followRollout(kubectl, "daemonset/" + ds, ds);
    assertTrue(dsOut.contains("daemon set \"" + ds + "\" successfully rolled out"), dsOut);
  }

  /** Runs {@code kubectl rollout status} while running the pods it waits for, as kubelets would. */
  private String followRollout(Kubectl kubectl, String resource, String app) throws Exception {
    Process rollout = kubectl.start("rollout", "status", resource, "--timeout=60s");
    try {
      long deadline = System.nanoTime() + 90_000_000_000L;
      while (rollout.isAlive() && System.nanoTime() < deadline) {
        BatchTesting.runPods(client, "app", app);
        Thread.sleep(100);
      }
      assertTrue(rollout.waitFor(5, TimeUnit.SECONDS), "kubectl rollout status did not end");
      String out = new String(rollout.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, rollout.exitValue(), out);
      return out;
    } finally {
      rollout.destroyForcibly();
    }
  }

  private void createAndWait(Kubectl kubectl) throws Exception {
    String name = "job-" + kubectl.name.replace("kubectl", "k").replace(".", "");
    Kubectl.Result created = kubectl.run("create", "job", name, "--image=busybox");
    assertEquals(0, created.exitCode(), created.all());
    assertTrue(created.out().contains("job.batch/" + name + " created"), created.all());
    Process wait =
        kubectl.start("wait", "--for=condition=complete", "job/" + name, "--timeout=60s");
    try {
      until("a pod", () -> activePodsOf(client, name).size() == 1, () -> podsOf(client, name));
      finish(client, activePodsOf(client, name).get(0), 0, Instant.now());
      assertTrue(wait.waitFor(90, TimeUnit.SECONDS), "kubectl wait did not end");
      String out = new String(wait.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, wait.exitValue(), out);
      assertTrue(out.contains("job.batch/" + name + " condition met"), out);
    } finally {
      wait.destroyForcibly();
    }
  }
}
