package dev.machinery.cluster.tests.batch;

import static dev.machinery.cluster.tests.batch.BatchTesting.runPods;
import static dev.machinery.cluster.tests.batch.BatchTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The StatefulSet controller alone; the test runs the pods, as kubelets would. */
@EnableApiServer(
    controllers = {"statefulset-controller"},
    nodes = 0)
class StatefulSetControllerTest {
  KubernetesClient client;

  private StatefulSet create(String name, int replicas, String policy, boolean claims) {
    StatefulSetBuilder builder =
        new StatefulSetBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("default")
            .endMetadata()
            .withNewSpec()
            .withReplicas(replicas)
            .withServiceName(name)
            .withPodManagementPolicy(policy)
            .withNewSelector()
            .addToMatchLabels("app", name)
            .endSelector()
            .withNewTemplate()
            .withNewMetadata()
            .addToLabels("app", name)
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("main")
            .withImage("nginx:1")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec();
    if (claims) {
      PersistentVolumeClaim template =
          new PersistentVolumeClaimBuilder()
              .withNewMetadata()
              .withName("data")
              .endMetadata()
              .withNewSpec()
              .withAccessModes("ReadWriteOnce")
              .withNewResources()
              .addToRequests("storage", new Quantity("1Gi"))
              .endResources()
              .endSpec()
              .build();
      builder.editSpec().withVolumeClaimTemplates(template).endSpec();
    }
    return client.apps().statefulSets().inNamespace("default").resource(builder.build()).create();
  }

  private StatefulSet get(String name) {
    return client.apps().statefulSets().inNamespace("default").withName(name).get();
  }

  private List<String> podNames(String app) {
    return client.pods().inNamespace("default").withLabel("app", app).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .map(p -> p.getMetadata().getName())
        .sorted()
        .collect(Collectors.toList());
  }

  private Pod pod(String name) {
    return client.pods().inNamespace("default").withName(name).get();
  }

  @Test
  void orderedReadyPodsComeOneAtATimeWithTheirClaimsAndRollByRevision() {
    create("web", 3, "OrderedReady", true);
    until("web-0", () -> pod("web-0") != null, () -> podNames("web"));
    // web-1 waits for web-0 to be running and ready.
    assertNull(pod("web-1"));
    Pod first = pod("web-0");
    assertEquals(
        "web-0", first.getMetadata().getLabels().get("statefulset.kubernetes.io/pod-name"));
    assertEquals("0", first.getMetadata().getLabels().get("apps.kubernetes.io/pod-index"));
    assertEquals("web-0", first.getSpec().getHostname());
    assertEquals("web", first.getSpec().getSubdomain());
    assertEquals(
        "data-web-0",
        first.getSpec().getVolumes().stream()
            .filter(v -> "data".equals(v.getName()))
            .findFirst()
            .orElseThrow()
            .getPersistentVolumeClaim()
            .getClaimName());
    assertNotNull(
        client.persistentVolumeClaims().inNamespace("default").withName("data-web-0").get());
    until(
        "three ready",
        () -> {
          runPods(client, "app", "web");
          StatefulSet set = get("web");
          return set.getStatus() != null
              && Integer.valueOf(3).equals(set.getStatus().getReadyReplicas());
        },
        () -> get("web").getStatus());
    assertEquals(List.of("web-0", "web-1", "web-2"), podNames("web"));
    for (int i = 0; i < 3; i++) {
      assertNotNull(
          client.persistentVolumeClaims().inNamespace("default").withName("data-web-" + i).get());
    }
    StatefulSet set = get("web");
    String revision = set.getStatus().getUpdateRevision();
    assertEquals(revision, set.getStatus().getCurrentRevision());
    assertEquals(3, set.getStatus().getCurrentReplicas());
    assertEquals(3, set.getStatus().getUpdatedReplicas());
    assertEquals(3, set.getStatus().getAvailableReplicas());
    ControllerRevision history =
        client.apps().controllerRevisions().inNamespace("default").withName(revision).get();
    assertNotNull(history);
    assertEquals(1L, history.getRevision());
    assertEquals(revision, pod("web-2").getMetadata().getLabels().get("controller-revision-hash"));

    // A new template: the pods are replaced from the highest ordinal down.
    client
        .apps()
        .statefulSets()
        .inNamespace("default")
        .withName("web")
        .edit(
            s -> {
              s.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("nginx:2");
              return s;
            });
    until(
        "rolled",
        () -> {
          runPods(client, "app", "web");
          StatefulSet now = get("web");
          return !revision.equals(now.getStatus().getUpdateRevision())
              && now.getStatus().getUpdateRevision().equals(now.getStatus().getCurrentRevision())
              && Integer.valueOf(3).equals(now.getStatus().getReadyReplicas());
        },
        () -> get("web").getStatus());
    for (String name : podNames("web")) {
      assertEquals("nginx:2", pod(name).getSpec().getContainers().get(0).getImage());
    }

    // Scale down: the highest ordinals go; the claims stay.
    client.apps().statefulSets().inNamespace("default").withName("web").scale(1);
    until(
        "one left",
        () -> {
          runPods(client, "app", "web");
          return podNames("web").equals(List.of("web-0"))
              && Integer.valueOf(1).equals(get("web").getStatus().getReplicas());
        },
        () -> podNames("web"));
    assertNotNull(
        client.persistentVolumeClaims().inNamespace("default").withName("data-web-2").get());
  }

  @Test
  void parallelPodsComeAtOnceAndAPartitionHoldsTheLowerOrdinals() {
    create("par", 3, "Parallel", false);
    until("three pods without readiness", () -> podNames("par").size() == 3, () -> podNames("par"));
    until(
        "ready",
        () -> {
          runPods(client, "app", "par");
          return Integer.valueOf(3).equals(get("par").getStatus().getReadyReplicas());
        },
        () -> get("par").getStatus());
    String revision = get("par").getStatus().getUpdateRevision();
    client
        .apps()
        .statefulSets()
        .inNamespace("default")
        .withName("par")
        .edit(
            s -> {
              s.getSpec().getUpdateStrategy().getRollingUpdate().setPartition(2);
              s.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("nginx:2");
              return s;
            });
    until(
        "par-2 updated",
        () -> {
          runPods(client, "app", "par");
          Pod two = pod("par-2");
          StatefulSet now = get("par");
          return two != null
              && "nginx:2".equals(two.getSpec().getContainers().get(0).getImage())
              && Integer.valueOf(1).equals(now.getStatus().getUpdatedReplicas())
              && Integer.valueOf(3).equals(now.getStatus().getReadyReplicas());
        },
        () -> get("par").getStatus());
    StatefulSet now = get("par");
    assertEquals(revision, now.getStatus().getCurrentRevision());
    assertEquals(2, now.getStatus().getCurrentReplicas());
    assertEquals("nginx:1", pod("par-0").getSpec().getContainers().get(0).getImage());
    assertEquals("nginx:1", pod("par-1").getSpec().getContainers().get(0).getImage());
  }
}
