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
