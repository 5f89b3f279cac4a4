package dev.machinery.cluster.tests.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl delete --cascade=background|foreground|orphan} with every kubectl build on the
 * machine, the garbage collector alone running: background deletes the owner at once and its
 * dependents after; foreground returns once the dependents and then the owner are gone (kubectl
 * waits for the owner); orphan keeps the dependents without their owner reference.
 */
@EnableApiServer(
    controllers = {"garbage-collector-controller"},
    nodes = 0)
class GarbageCollectorKubectlTest {
  private static final Duration DEADLINE = Duration.ofSeconds(120);

  KubernetesClient client;
  TestApiServer server;

  private ConfigMap owner(String ns) {
    return client
        .configMaps()
        .inNamespace(ns)
        .resource(new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
        .create();
  }

  private void dependents(String ns, ConfigMap owner, int count) {
    for (int i = 0; i < count; i++) {
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
                          .withController(true)
                          .build())
                  .endMetadata()
                  .build())
          .create();
    }
  }

  private List<String> names(String ns) {
    return client.configMaps().inNamespace(ns).list().getItems().stream()
        .map(m -> m.getMetadata().getName())
        .filter(n -> !n.equals("kube-root-ca.crt"))
        .sorted()
        .collect(Collectors.toList());
  }

  private void awaitNames(String ns, List<String> expected) throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < end) {
      if (names(ns).equals(expected)) {
        return;
      }
      Thread.sleep(20);
    }
    fail(
        "within "
            + DEADLINE
            + " the config maps of "
            + ns
            + " never were "
            + expected
            + "; last seen: "
            + names(ns));
  }

  @Test
  void deleteCascadesAsKubectlAsksWithEveryBuild() throws Exception {
    Map<String, Path> builds = Kubectl.requireInstalled("GarbageCollectorKubectlTest");
    int build = 0;
    for (Map.Entry<String, Path> entry : builds.entrySet()) {
      Kubectl kubectl = Kubectl.of(entry.getKey(), entry.getValue(), server.url().toString());
      build++;
      for (String cascade : List.of("background", "foreground", "orphan")) {
        String ns = "gc-kubectl-" + build + "-" + cascade;
        client
            .namespaces()
            .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
            .create();
        ConfigMap owner = owner(ns);
        dependents(ns, owner, 3);
        Kubectl.Result result =
            kubectl.run("delete", "configmap", "owner", "-n", ns, "--cascade=" + cascade);
        assertEquals(
            0, result.exitCode(), entry.getKey() + " --cascade=" + cascade + ": " + result.all());
        assertTrue(
            result.out().contains("configmap \"owner\" deleted"),
            entry.getKey() + ": " + result.all());
        switch (cascade) {
          case "foreground" -> {
            // kubectl waited for the owner, which goes only after its blocking dependents.
            assertEquals(List.of(), names(ns), entry.getKey() + " " + cascade);
          }
          case "background" -> awaitNames(ns, List.of());
          default -> {
            awaitNames(ns, List.of("dependent-0", "dependent-1", "dependent-2"));
            for (ConfigMap map : client.configMaps().inNamespace(ns).list().getItems()) {
              if (map.getMetadata().getName().startsWith("dependent-")) {
                assertTrue(
                    map.getMetadata().getOwnerReferences().isEmpty(),
                    entry.getKey() + ": " + map.getMetadata());
              }
            }
          }
        }
        assertNull(client.configMaps().inNamespace(ns).withName("owner").get());
      }
    }
  }
}
