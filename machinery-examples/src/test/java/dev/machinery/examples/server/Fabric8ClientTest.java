package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A second real client, fabric8's {@code KubernetesClient} with its own model classes, against the
 * sample server: create, get, list with selectors, update with a conflict, the three patch types,
 * {@code rolling().restart()}, and a {@code SharedIndexInformer} (list, watch with bookmarks) that
 * sees every change made by the client and by kubectl (the informer's test fails, saying what to
 * install, where no kubectl is). Every call the test makes of the client goes through the client.
 */
class Fabric8ClientTest {
  /** The binding under test: {@code jdk} here, {@code netty} in the subclass. */
  String httpBinding() {
    return "jdk";
  }

  private ApiServer server;
  private HttpBinding binding;
  private KubernetesClient client;

  @BeforeEach
  void start() throws Exception {
    server = SampleServer.build(Enablement.all(), Duration.ofMillis(500));
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), httpBinding());
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + binding.port())
            .withNamespace("default")
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterEach
  void stop() {
    client.close();
    binding.close();
    server.storage().close();
  }

  private static ConfigMap configMap(String name, Map<String, String> labels) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(labels)
        .endMetadata()
        .withData(Map.of("k", "v"))
        .build();
  }

  @Test
  void createGetListUpdateAndConflicts() {
    ConfigMap created = client.configMaps().resource(configMap("f8", Map.of("app", "f8"))).create();
    assertNotNull(created.getMetadata().getUid());
    assertNotNull(created.getMetadata().getResourceVersion());
    ConfigMap got = client.configMaps().withName("f8").get();
    assertEquals("v", got.getData().get("k"));
    assertEquals(
        List.of("f8"),
        client.configMaps().withLabel("app", "f8").list().getItems().stream()
            .map(c -> c.getMetadata().getName())
            .toList());
    assertEquals(
        List.of("greeting"),
        client.configMaps().withLabelIn("app", "hello", "other").list().getItems().stream()
            .map(c -> c.getMetadata().getName())
            .toList());
    ConfigMap stale = client.configMaps().withName("f8").get();
    got.getData().put("k", "first");
    client.configMaps().resource(got).update();
    stale.getData().put("k", "second");
    KubernetesClientException conflict =
        assertThrows(
            KubernetesClientException.class, () -> client.configMaps().resource(stale).update());
    assertEquals(409, conflict.getCode());
    assertEquals("first", client.configMaps().withName("f8").get().getData().get("k"));
    KubernetesClientException missing =
        assertThrows(
            KubernetesClientException.class,
            () -> client.configMaps().resource(configMap("f8", Map.of())).create());
    assertEquals(409, missing.getCode());
    assertEquals(null, client.configMaps().withName("absent").get());
  }

  @Test
  void theThreePatchTypesAndARollingRestart() {
    client.configMaps().resource(configMap("patched", Map.of())).create();
    client
        .configMaps()
        .withName("patched")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"merge\":\"1\"}}");
    client
        .configMaps()
        .withName("patched")
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"add\",\"path\":\"/data/json\",\"value\":\"2\"}]");
    client
        .configMaps()
        .withName("patched")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"data\":{\"strategic\":\"3\"}}");
    client
        .configMaps()
        .withName("patched")
        .edit(
            c -> {
              c.getData().put("edited", "4");
              return c;
            });
    assertEquals(
        Map.of("k", "v", "merge", "1", "json", "2", "strategic", "3", "edited", "4"),
        client.configMaps().withName("patched").get().getData());
    Deployment restarted = client.apps().deployments().withName("hello").rolling().restart();
    assertNotNull(
        restarted
            .getSpec()
            .getTemplate()
            .getMetadata()
            .getAnnotations()
            .get("kubectl.kubernetes.io/restartedAt"));
    assertEquals(2L, restarted.getMetadata().getGeneration());
  }

  @Test
  void anInformerSeesEveryChangeFromKubectlAndTheClient() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    SharedIndexInformer<ConfigMap> informer =
        client
            .configMaps()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(ConfigMap obj) {
                    seen.add("add " + obj.getMetadata().getName());
                  }

                  @Override
                  public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
                    if (!oldObj
                        .getMetadata()
                        .getResourceVersion()
                        .equals(newObj.getMetadata().getResourceVersion())) {
                      seen.add("update " + newObj.getMetadata().getName());
                    }
                  }

                  @Override
                  public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
                    seen.add("delete " + obj.getMetadata().getName());
                  }
                },
                0);
    try {
      informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
      waitFor(seen, "add greeting");
      client.configMaps().resource(configMap("from-client", Map.of())).create();
      client
          .configMaps()
          .withName("from-client")
          .edit(
              c -> {
                c.getMetadata().setLabels(Map.of("x", "1"));
                return c;
              });
      assertEquals(1, client.configMaps().withName("from-client").delete().size());
      waitFor(seen, "delete from-client");
      assertTrue(
          seen.containsAll(List.of("add from-client", "update from-client", "delete from-client")),
          seen.toString());
      Map<String, Path> kubectls =
          Kubectl.requireInstalled(
              "Fabric8ClientTest.anInformerSeesEveryChangeFromKubectlAndTheClient");
      Map.Entry<String, Path> first = kubectls.entrySet().iterator().next();
      Kubectl kubectl = Kubectl.of(first.getKey(), first.getValue(), binding.port());
      assertEquals(
          0,
          kubectl
              .run("create", "configmap", "from-kubectl", "-n", "default", "--from-literal=a=b")
              .exitCode());
      assertEquals(
          0, kubectl.run("label", "configmap", "from-kubectl", "-n", "default", "x=1").exitCode());
      assertEquals(
          0, kubectl.run("delete", "configmap", "from-kubectl", "-n", "default").exitCode());
      waitFor(seen, "delete from-kubectl");
      Thread.sleep(1500);
      assertTrue(
          seen.containsAll(
              List.of("add from-kubectl", "update from-kubectl", "delete from-kubectl")),
          seen.toString());
      assertNotNull(informer.lastSyncResourceVersion());
      long synced = Long.parseLong(informer.lastSyncResourceVersion());
      assertEquals(
          server.storage().currentRevision(),
          synced,
          "bookmarks carried the informer to the latest revision");
    } finally {
      informer.close();
    }
  }

  /**
   * fabric8's ordinary delete sends {@code {"apiVersion":"v1","kind":"DeleteOptions",...}}; the
   * options kinds are read in {@code meta.k8s.io/v1}, {@code v1} and every served group version
   * (issue 21).
   */
  @Test
  void deletesThroughTheClientWithItsDeleteOptions_issue21() {
    client.configMaps().resource(configMap("doomed", Map.of())).create();
    client.configMaps().resource(configMap("doomed-too", Map.of())).create();
    client.configMaps().resource(configMap("doomed-three", Map.of())).create();
    assertEquals(1, client.configMaps().withName("doomed").delete().size());
    assertEquals(null, client.configMaps().withName("doomed").get());
    assertEquals(
        1,
        client
            .configMaps()
            .withName("doomed-too")
            .withPropagationPolicy(DeletionPropagation.FOREGROUND)
            .withGracePeriod(0)
            .delete()
            .size());
    // A foreground delete keeps the object, marked deleted with the foregroundDeletion finalizer,
    // until a garbage collector has deleted its dependents and removes it (this server runs none).
    ConfigMap held = client.configMaps().withName("doomed-too").get();
    assertEquals(List.of("foregroundDeletion"), held.getMetadata().getFinalizers());
    assertNotNull(held.getMetadata().getDeletionTimestamp());
    assertEquals(
        1,
        client
            .apps()
            .deployments()
            .withName("hello")
            .withPropagationPolicy(DeletionPropagation.BACKGROUND)
            .delete()
            .size());
    assertEquals(null, client.apps().deployments().withName("hello").get());
    assertEquals(List.of(), client.configMaps().withName("absent").delete());
    client.configMaps().withName("doomed-three").delete();
    assertEquals(null, client.configMaps().withName("doomed-three").get());
  }

  private static void waitFor(List<String> seen, String event) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!seen.contains(event) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(seen.contains(event), "waited for " + event + ", saw " + seen);
  }
}
