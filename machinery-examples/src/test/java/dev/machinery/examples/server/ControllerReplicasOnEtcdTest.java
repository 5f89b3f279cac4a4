package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.cluster.ControllerManager;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Two sample servers on one etcd, each started as its {@code main} starts it with {@code
 * --leader-elect}: exactly one runs the controllers (the one holding {@code
 * kube-system/kube-controller-manager}); when it goes, the other takes over, and no object is
 * processed twice in a way a user could see — one ReplicaSet a template, never a pod too many.
 */
class ControllerReplicasOnEtcdTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Test
  void oneReplicaRunsTheControllersAndTheOtherTakesOver() throws Exception {
    SampleServerFlags flags =
        SampleServerFlags.parse(
            "--controllers=deployment-controller,replicaset-controller",
            "--nodes=0",
            "--leader-elect",
            "--leader-elect-lease-duration=3s");
    try (EtcdProcess etcd = EtcdProcess.start()) {
      ApiServer first = server(etcd);
      ApiServer second = server(etcd);
      ControllerManager leader = null;
      ControllerManager standby = null;
      JdkHttpBinding binding =
          second.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      Config config =
          new ConfigBuilder()
              .withMasterUrl("http://127.0.0.1:" + binding.port())
              .withNamespace("default")
              .build();
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        SampleServer.loadSamples(first);
        leader = SampleServer.startControllers(first, flags);
        ControllerManager a = leader;
        await("the first replica leading", a::isLeading);
        standby = SampleServer.startControllers(second, flags);
        assertFalse(standby.isLeading());

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
        await("three pods", () -> pods(client) == 3);
        assertEquals(1, replicaSets(client).size());
        assertFalse(standby.isLeading(), "only one replica runs the controllers");

        // The leader goes: its server first, so that it cannot release the Lease.
        first.close();
        leader.close();
        leader = null;
        ControllerManager b = standby;
        await("the second replica leading", b::isLeading);

        client.apps().deployments().withName("web").scale(5);
        await("five pods", () -> pods(client) == 5);
        List<ReplicaSet> sets = replicaSets(client);
        assertEquals(1, sets.size(), "one ReplicaSet for the template: " + sets);
        assertEquals(5, sets.get(0).getSpec().getReplicas());
        Thread.sleep(500);
        assertEquals(5, pods(client), "no pod too many once the other replica took over");
        String holder =
            client
                .leases()
                .inNamespace("kube-system")
                .withName(ControllerManager.LEASE_NAME)
                .get()
                .getSpec()
                .getHolderIdentity();
        assertTrue(holder.startsWith("sample-server-"), holder);
        assertTrue(
            client.apps().replicaSets().withLabel("app", "web").list().getItems().stream()
                .allMatch(rs -> rs.getMetadata().getName().startsWith("web-")));
      } finally {
        if (leader != null) {
          leader.close();
        }
        if (standby != null) {
          standby.close();
        }
        binding.close();
        second.close();
        first.close();
      }
    }
  }

  private static ApiServer server(EtcdProcess etcd) {
    return SampleServer.builder(
            Enablement.all(),
            Duration.ofMinutes(1),
            null,
            EtcdStorage.builder(etcd.endpoint()).prefix("/replicas/").build(),
            ApiServer.DEFAULT_WATCH_CACHE_SIZE)
        .namespaceContentCleanup(false)
        .build();
  }

  private static int pods(KubernetesClient client) {
    return client.pods().withLabel("app", "web").list().getItems().size();
  }

  private static List<ReplicaSet> replicaSets(KubernetesClient client) {
    return client.apps().replicaSets().withLabel("app", "web").list().getItems();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never happened: " + what);
      }
      Thread.sleep(50);
    }
  }
}
