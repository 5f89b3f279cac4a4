package dev.machinery.cluster.tests.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The garbage collector and the namespace controller with every controller on ({@code *}, the test
 * server's default) and simulated nodes: an owner deleted in the foreground takes its dependents,
 * and a namespace deleted goes with its content.
 */
@EnableApiServer
class GarbageCollectionWithEveryControllerTest {
  private static final Duration DEADLINE = Duration.ofSeconds(90);

  KubernetesClient client;
  TestApiServer server;

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < end) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(50);
    }
    fail("within " + DEADLINE + " never: " + what);
  }

  @Test
  void foregroundDeletionAndNamespaceDeletionWithEverythingOn() throws Exception {
    assertTrue(
        server.controllerManager().enabledControllers().contains("garbage-collector-controller"));
    assertTrue(server.controllerManager().enabledControllers().contains("namespace-controller"));
    String ns = "everything-on";
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    ConfigMap owner =
        client
            .configMaps()
            .inNamespace(ns)
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
            .create();
    for (int i = 0; i < 3; i++) {
      client
          .configMaps()
          .inNamespace(ns)
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("dependent-" + i)
                  .withOwnerReferences(
                      new OwnerReferenceBuilder()
                          .withApiVersion("v1")
                          .withKind("ConfigMap")
                          .withName("owner")
                          .withUid(owner.getMetadata().getUid())
                          .withBlockOwnerDeletion(true)
                          .build())
                  .endMetadata()
                  .build())
          .create();
    }
    client
        .configMaps()
        .inNamespace(ns)
        .withName("owner")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    await(
        "the owner and its dependents deleted",
        () ->
            client.configMaps().inNamespace(ns).list().getItems().stream()
                .noneMatch(
                    m ->
                        m.getMetadata().getName().equals("owner")
                            || m.getMetadata().getName().startsWith("dependent-")));
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder().withNewMetadata().withName("content").endMetadata().build())
        .create();
    client.namespaces().withName(ns).delete();
    await("the namespace removed", () -> client.namespaces().withName(ns).get() == null);
    assertEquals(0, client.configMaps().inNamespace(ns).list().getItems().size());
  }
}
