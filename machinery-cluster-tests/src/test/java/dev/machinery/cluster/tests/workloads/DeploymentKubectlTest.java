package dev.machinery.cluster.tests.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every kubectl build on the machine rolls a Deployment out and back: {@code create deployment},
 * {@code rollout status}, {@code set image}, {@code rollout history}, {@code rollout undo}, {@code
 * scale}, {@code rollout pause/resume}. With no kubelet running, a thread of the test marks the
 * pods Running and Ready through their status, as Kubernetes' integration tests do.
 */
@EnableApiServer(
    controllers = {"deployment-controller", "replicaset-controller"},
    nodes = 0)
class DeploymentKubectlTest {
  static KubernetesClient client;
  static TestApiServer server;
  private static Thread marker;

  @BeforeAll
  static void startMarking() {
    marker =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                try {
                  List<Pod> pods =
                      client.pods().inAnyNamespace().list().getItems().stream()
                          .filter(p -> p.getMetadata().getNamespace().startsWith("kubectl-"))
                          .collect(Collectors.toList());
                  Fabric8Pods.markReady(client, pods);
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  return;
                } catch (RuntimeException e) {
                  // The server is going away, or a pod changed under us: try again.
                }
              }
            },
            "mark-pods-ready");
    marker.setDaemon(true);
    marker.start();
  }

  @AfterAll
  static void stopMarking() throws InterruptedException {
    marker.interrupt();
    marker.join();
  }

  @TestFactory
  Stream<DynamicTest> kubectlRollsADeploymentOutAndBack() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("the Deployment kubectl suite");
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> scenario(Kubectl.of(e.getKey(), e.getValue(), server.url().toString()))));
  }

  private static Kubectl.Result ok(Kubectl kubectl, String... args) throws Exception {
    Kubectl.Result result = kubectl.run(args);
    assertEquals(
        0, result.exitCode(), kubectl.name + " " + String.join(" ", args) + ": " + result.all());
    return result;
  }

  private static void scenario(Kubectl kubectl) throws Exception {
    String ns = "kubectl-" + kubectl.name.replace('.', '-');
    ok(kubectl, "create", "namespace", ns);
    ok(kubectl, "-n", ns, "create", "deployment", "web", "--image=nginx:1.26", "--replicas=2");
    Kubectl.Result status =
        ok(kubectl, "-n", ns, "rollout", "status", "deployment/web", "--timeout=50s");
    assertTrue(status.out().contains("deployment \"web\" successfully rolled out"), status.all());

    ok(kubectl, "-n", ns, "set", "image", "deployment/web", "nginx=nginx:1.27");
    status = ok(kubectl, "-n", ns, "rollout", "status", "deployment/web", "--timeout=50s");
    assertTrue(status.out().contains("successfully rolled out"), status.all());

    Kubectl.Result history = ok(kubectl, "-n", ns, "rollout", "history", "deployment/web");
    assertTrue(history.out().contains("REVISION"), history.all());
    List<String> revisions =
        history
            .out()
            .lines()
            .skip(2)
            .map(l -> l.split("\\s+")[0])
            .filter(s -> !s.isEmpty())
            .collect(Collectors.toList());
    assertEquals(List.of("1", "2"), revisions, history.all());

    Kubectl.Result undo = ok(kubectl, "-n", ns, "rollout", "undo", "deployment/web");
    assertTrue(undo.out().contains("deployment.apps/web rolled back"), undo.all());
    ok(kubectl, "-n", ns, "rollout", "status", "deployment/web", "--timeout=50s");
    Deployment d =
        Poll.until(
            "the undo observed",
            () -> client.apps().deployments().inNamespace(ns).withName("web").get(),
            x ->
                DeploymentControllerTest.complete(x)
                    && "3"
                        .equals(
                            x.getMetadata()
                                .getAnnotations()
                                .get("deployment.kubernetes.io/revision")));
    assertEquals(
        "nginx:1.26", d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    assertEquals(
        2,
        client.apps().replicaSets().inNamespace(ns).list().getItems().size(),
        "the undo reused revision 1's ReplicaSet");
    history = ok(kubectl, "-n", ns, "rollout", "history", "deployment/web");
    revisions =
        history
            .out()
            .lines()
            .skip(2)
            .map(l -> l.split("\\s+")[0])
            .filter(s -> !s.isEmpty())
            .collect(Collectors.toList());
    assertEquals(List.of("2", "3"), revisions, history.all());

    ok(kubectl, "-n", ns, "scale", "deployment/web", "--replicas=3");
    ok(kubectl, "-n", ns, "rollout", "status", "deployment/web", "--timeout=50s");
    assertEquals(
        3,
        client
            .apps()
            .deployments()
            .inNamespace(ns)
            .withName("web")
            .get()
            .getStatus()
            .getAvailableReplicas());

    Kubectl.Result pause = ok(kubectl, "-n", ns, "rollout", "pause", "deployment/web");
    assertTrue(pause.out().contains("deployment.apps/web paused"), pause.all());
    Poll.until(
        "the paused condition",
        () -> client.apps().deployments().inNamespace(ns).withName("web").get(),
        x ->
            DeploymentControllerTest.condition(x, "Progressing") != null
                && "DeploymentPaused"
                    .equals(DeploymentControllerTest.condition(x, "Progressing").getReason()));
    Kubectl.Result resume = ok(kubectl, "-n", ns, "rollout", "resume", "deployment/web");
    assertTrue(resume.out().contains("deployment.apps/web resumed"), resume.all());
    ok(kubectl, "-n", ns, "rollout", "status", "deployment/web", "--timeout=50s");
    Kubectl.Result events = ok(kubectl, "-n", ns, "get", "events");
    assertTrue(events.out().contains("ScalingReplicaSet"), events.all());
  }
}
