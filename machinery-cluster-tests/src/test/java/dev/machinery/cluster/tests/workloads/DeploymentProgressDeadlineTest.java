package dev.machinery.cluster.tests.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A rollout whose pods never become Ready times out once the cluster's (fake) clock passes its
 * {@code progressDeadlineSeconds} (progress_test.go, e2e "deployment should not be progressing
 * after its deadline").
 */
@EnableApiServer(
    controllers = {"deployment-controller", "replicaset-controller"},
    nodes = 0,
    fakeClock = true)
class DeploymentProgressDeadlineTest {
  KubernetesClient client;
  TestApiServer server;

  @Test
  void aStuckRolloutReportsProgressDeadlineExceeded() throws Exception {
    Deployment spec = DeploymentControllerTest.deployment("stuck", 2, "never:ready");
    spec.getSpec().setProgressDeadlineSeconds(30);
    client.apps().deployments().inNamespace("default").resource(spec).create();
    Deployment progressing =
        Poll.until(
            "the new ReplicaSet's Progressing condition",
            () -> client.apps().deployments().inNamespace("default").withName("stuck").get(),
            d -> {
              DeploymentCondition c = DeploymentControllerTest.condition(d, "Progressing");
              return c != null
                  && "True".equals(c.getStatus())
                  && d.getStatus().getObservedGeneration() >= d.getMetadata().getGeneration();
            });
    ReplicaSet rs =
        client
            .apps()
            .replicaSets()
            .inNamespace("default")
            .withLabel("app", "stuck")
            .list()
            .getItems()
            .get(0);
    DeploymentCondition available = DeploymentControllerTest.condition(progressing, "Available");
    assertEquals("False", available.getStatus());
    assertEquals("MinimumReplicasUnavailable", available.getReason());
    assertEquals("Deployment does not have minimum availability.", available.getMessage());

    Deployment timedOut =
        Poll.until(
            "ProgressDeadlineExceeded after the clock moved past the deadline",
            () -> {
              server.fakeClock().step(Duration.ofSeconds(20));
              return client.apps().deployments().inNamespace("default").withName("stuck").get();
            },
            d ->
                "ProgressDeadlineExceeded"
                    .equals(DeploymentControllerTest.condition(d, "Progressing").getReason()));
    DeploymentCondition condition = DeploymentControllerTest.condition(timedOut, "Progressing");
    assertEquals("False", condition.getStatus());
    assertEquals(
        "ReplicaSet \"" + rs.getMetadata().getName() + "\" has timed out progressing.",
        condition.getMessage());
  }
}
