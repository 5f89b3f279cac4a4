package dev.machinery.cluster.tests.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A Deployment rolls out with every controller on by default ({@code *}) and the test server's
 * simulated nodes; where no kubelet runs, the test marks the pods Ready itself.
 */
@EnableApiServer
class WorkloadsWithEverythingTest {
  KubernetesClient client;

  @Test
  void aDeploymentRollsOutWithEveryControllerOn() throws Exception {
    client
        .apps()
        .deployments()
        .inNamespace("default")
        .resource(DeploymentControllerTest.deployment("everything", 3, "nginx:1.27"))
        .create();
    Deployment d =
        Poll.until(
            "rolled out",
            () -> {
              Fabric8Pods.markReady(client, "default", "app", "everything");
              return client
                  .apps()
                  .deployments()
                  .inNamespace("default")
                  .withName("everything")
                  .get();
            },
            DeploymentControllerTest::complete);
    assertEquals(3, d.getStatus().getAvailableReplicas());
    List<Pod> pods =
        client
            .pods()
            .inNamespace("default")
            .withLabel("app", "everything")
            .list()
            .getItems()
            .stream()
            .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
            .collect(Collectors.toList());
    assertEquals(3, pods.size());
    for (Pod pod : pods) {
      // The pods carry the Deployment's template.
      assertEquals("nginx:1.27", pod.getSpec().getContainers().get(0).getImage());
      assertEquals("main", pod.getSpec().getContainers().get(0).getName());
      assertEquals("everything", pod.getMetadata().getLabels().get("app"));
    }
  }
}
