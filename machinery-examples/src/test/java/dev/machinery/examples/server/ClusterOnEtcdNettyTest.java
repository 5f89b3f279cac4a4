package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.cluster.ControllerManager;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The sample server as its {@code main} runs it by default — every controller, three simulated
 * nodes — on etcd (its unary calls over gRPC, as {@code main} makes them) and on the Netty binding:
 * a Deployment rolls out to running pods (fabric8, and {@code kubectl rollout status} with every
 * kubectl build), its pods admitted by kube-apiserver's default admission plugins, a foreground
 * deletion takes its ReplicaSet and pods first, and a deleted namespace goes once its content is
 * gone.
 */
class ClusterOnEtcdNettyTest {
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @Test
  void aDeploymentRollsOutAndGoesAndANamespaceTerminates() throws Exception {
    Map<String, Path> kubectls = Kubectl.requireInstalled("ClusterOnEtcdNettyTest");
    try (EtcdProcess etcd = EtcdProcess.start()) {
      SampleServerFlags flags = SampleServerFlags.parse();
      ApiServer server =
          flags
              .admission()
              .install(
                  SampleServer.builder(
                      Enablement.all(),
                      Duration.ofMinutes(1),
                      null,
                      EtcdStorage.builder(etcd.endpoint()).grpc(true).prefix("/cluster/").build(),
                      ApiServer.DEFAULT_WATCH_CACHE_SIZE))
              .namespaceContentCleanup(false)
              .build();
      SampleServer.loadSamples(server);
      try (HttpBinding binding =
              SampleServer.serve(
                  server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "netty");
          ControllerManager controllers = SampleServer.startControllers(server, flags)) {
        assertTrue(controllers.enabledControllers().contains("garbage-collector-controller"));
        Config config =
            new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + binding.port())
                .withNamespace("default")
                .build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
          client
              .apps()
              .deployments()
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
          await(
              () ->
                  "three running pods; seen: "
                      + client.pods().withLabel("app", "web").list().getItems().stream()
                          .map(
                              p ->
                                  p.getMetadata().getName()
                                      + " "
                                      + p.getSpec().getNodeName()
                                      + " "
                                      + p.getStatus())
                          .toList()
                      + "; nodes: "
                      + client.nodes().list().getItems().stream()
                          .map(
                              n ->
                                  n.getMetadata().getName()
                                      + " "
                                      + n.getSpec().getTaints()
                                      + " "
                                      + n.getStatus().getAllocatable()
                                      + " "
                                      + n.getStatus().getCapacity())
                          .toList()
                      + "; replica sets: "
                      + client
                          .apps()
                          .replicaSets()
                          .withLabel("app", "web")
                          .list()
                          .getItems()
                          .stream()
                          .map(r -> r.getMetadata().getName() + " " + r.getStatus())
                          .toList(),
              () -> {
                List<Pod> pods = client.pods().withLabel("app", "web").list().getItems();
                return pods.size() == 3
                    && pods.stream()
                        .allMatch(
                            p ->
                                "Running".equals(p.getStatus().getPhase())
                                    && p.getStatus().getPodIP() != null);
              });
          // kube-apiserver's default admission, as main runs it: the ServiceAccount plugin's
          // account and token volume, DefaultTolerationSeconds' tolerations.
          for (Pod pod : client.pods().withLabel("app", "web").list().getItems()) {
            String name = pod.getMetadata().getName();
            assertEquals("default", pod.getSpec().getServiceAccountName(), name);
            assertTrue(
                pod.getSpec().getVolumes().stream()
                    .anyMatch(v -> v.getName().startsWith("kube-api-access-")),
                name + ": " + pod.getSpec().getVolumes());
            assertTrue(
                pod.getSpec().getTolerations().stream()
                    .anyMatch(
                        t ->
                            "node.kubernetes.io/not-ready".equals(t.getKey())
                                && Long.valueOf(300).equals(t.getTolerationSeconds())),
                name + ": " + pod.getSpec().getTolerations());
          }
          for (Map.Entry<String, Path> build : kubectls.entrySet()) {
            Kubectl kubectl = Kubectl.of(build.getKey(), build.getValue(), binding.port());
            Kubectl.Result status =
                kubectl.run(
                    "rollout", "status", "deployment/web", "-n", "default", "--timeout=60s");
            assertEquals(0, status.exitCode(), build.getKey() + ": " + status.all());
            assertTrue(
                status.out().contains("deployment \"web\" successfully rolled out"),
                build.getKey() + ": " + status.all());
          }

          client
              .apps()
              .deployments()
              .withName("web")
              .withPropagationPolicy(DeletionPropagation.FOREGROUND)
              .delete();
          await(
              "the Deployment, its ReplicaSet and its pods gone",
              () ->
                  client.apps().deployments().withName("web").get() == null
                      && client
                          .apps()
                          .replicaSets()
                          .withLabel("app", "web")
                          .list()
                          .getItems()
                          .isEmpty()
                      && client.pods().withLabel("app", "web").list().getItems().isEmpty());

          client
              .namespaces()
              .resource(
                  new NamespaceBuilder().withNewMetadata().withName("demo").endMetadata().build())
              .create();
          client
              .configMaps()
              .inNamespace("demo")
              .resource(
                  new ConfigMapBuilder()
                      .withNewMetadata()
                      .withName("settings")
                      .endMetadata()
                      .addToData("colour", "blue")
                      .build())
              .create();
          client.namespaces().withName("demo").delete();
          await(
              "the namespace Terminating",
              () -> {
                var ns = client.namespaces().withName("demo").get();
                return ns == null || "Terminating".equals(ns.getStatus().getPhase());
              });
          await("the namespace gone", () -> client.namespaces().withName("demo").get() == null);
        }
      } finally {
        server.close();
      }
    }
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    await(() -> what, condition);
  }

  private static void await(Supplier<String> what, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never happened: " + what.get());
      }
      Thread.sleep(100);
    }
  }
}
