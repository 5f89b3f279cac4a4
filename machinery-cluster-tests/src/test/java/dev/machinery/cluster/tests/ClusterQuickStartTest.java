package dev.machinery.cluster.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's cluster in a test: the test server with its defaults (every controller, three
 * simulated nodes), driven by fabric8 alone.
 */
@EnableApiServer
class ClusterQuickStartTest {
  KubernetesClient client; // fabric8's client for this class's server

  @Test
  void aDeploymentRollsOutToRunningPods() {
    client
        .apps()
        .deployments()
        .inNamespace("default")
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName("web")
                .endMetadata()
                .withNewSpec()
                .withReplicas(3)
                .withNewSelector()
                .addToMatchLabels("app", "web")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "web")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("nginx")
                .withImage("nginx:1.27")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
    Deployment web =
        client
            .apps()
            .deployments()
            .inNamespace("default")
            .withName("web")
            .waitUntilCondition(
                d ->
                    d.getStatus() != null
                        && Integer.valueOf(3).equals(d.getStatus().getAvailableReplicas()),
                60,
                TimeUnit.SECONDS);
    assertEquals(3, web.getStatus().getReadyReplicas());
    List<Pod> pods = client.pods().inNamespace("default").withLabel("app", "web").list().getItems();
    assertEquals(3, pods.size());
    for (Pod pod : pods) {
      assertEquals("Running", pod.getStatus().getPhase());
      assertTrue(pod.getSpec().getNodeName().startsWith("node-"), pod.getSpec().getNodeName());
      assertTrue(pod.getStatus().getPodIP().startsWith("10.244."), pod.getStatus().getPodIP());
      assertEquals("default", pod.getSpec().getServiceAccountName());
    }
  }
}
