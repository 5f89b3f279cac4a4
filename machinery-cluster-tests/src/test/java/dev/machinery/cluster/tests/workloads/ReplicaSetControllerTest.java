package dev.machinery.cluster.tests.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The ReplicaSet controller driven through fabric8 (pkg/controller/replicaset, e2e replica_set).
 */
@EnableApiServer(
    controllers = {"replicaset-controller", "replicationcontroller-controller"},
    nodes = 0)
class ReplicaSetControllerTest {
  KubernetesClient client;

  private String namespace(String name) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  private static ReplicaSet replicaSet(String name, int replicas, Map<String, String> labels) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewSelector()
        .withMatchLabels(labels)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .withAnnotations(Map.of("note", "from the template"))
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("web")
        .withImage("nginx:1.27")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private List<Pod> activePods(String ns, String app) {
    return client.pods().inNamespace(ns).withLabel("app", app).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .collect(Collectors.toList());
  }

  @Test
  void createsPodsFromItsTemplateAndReportsStatus() throws Exception {
    String ns = namespace("rs-create");
    ReplicaSet rs =
        client
            .apps()
            .replicaSets()
            .inNamespace(ns)
            .resource(replicaSet("web", 3, Map.of("app", "web")))
            .create();
    List<Pod> pods = Poll.until("3 pods", () -> activePods(ns, "web"), l -> l.size() == 3);
    for (Pod pod : pods) {
      assertTrue(pod.getMetadata().getName().startsWith("web-"), pod.getMetadata().getName());
      assertEquals("web-".length() + 5, pod.getMetadata().getName().length());
      assertEquals("from the template", pod.getMetadata().getAnnotations().get("note"));
      assertEquals("nginx:1.27", pod.getSpec().getContainers().get(0).getImage());
      OwnerReference ref = pod.getMetadata().getOwnerReferences().get(0);
      assertEquals("ReplicaSet", ref.getKind());
      assertEquals("apps/v1", ref.getApiVersion());
      assertEquals(rs.getMetadata().getUid(), ref.getUid());
      assertTrue(ref.getController());
      assertTrue(ref.getBlockOwnerDeletion());
    }
    ReplicaSet seen =
        Poll.until(
            "status replicas 3",
            () -> client.apps().replicaSets().inNamespace(ns).withName("web").get(),
            r ->
                r.getStatus() != null
                    && Integer.valueOf(3).equals(r.getStatus().getReplicas())
                    && Integer.valueOf(3).equals(r.getStatus().getFullyLabeledReplicas())
                    && Long.valueOf(1).equals(r.getStatus().getObservedGeneration()));
    assertEquals(0, orZero(seen.getStatus().getReadyReplicas()));

    Fabric8Pods.markReady(client, ns, "app", "web");
    Poll.until(
        "ready and available 3",
        () -> client.apps().replicaSets().inNamespace(ns).withName("web").get(),
        r ->
            orZero(r.getStatus().getReadyReplicas()) == 3
                && orZero(r.getStatus().getAvailableReplicas()) == 3);

    List<String> notes =
        Poll.until(
            "three SuccessfulCreate events",
            () ->
                client.v1().events().inNamespace(ns).list().getItems().stream()
                    .filter(e -> "SuccessfulCreate".equals(e.getReason()))
                    .map(e -> e.getMessage())
                    .collect(Collectors.toList()),
            l -> l.size() == 3);
    for (Pod pod : pods) {
      assertTrue(notes.contains("Created pod: " + pod.getMetadata().getName()), notes.toString());
    }
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  @Test
  void scalesDownDeletingPodsAndRecordingIt() throws Exception {
    String ns = namespace("rs-scale");
    client
        .apps()
        .replicaSets()
        .inNamespace(ns)
        .resource(replicaSet("api", 4, Map.of("app", "api")))
        .create();
    Poll.until("4 pods", () -> activePods(ns, "api"), l -> l.size() == 4);
    client.apps().replicaSets().inNamespace(ns).withName("api").scale(1);
    Poll.until("1 pod", () -> activePods(ns, "api"), l -> l.size() == 1);
    Poll.until(
        "status replicas 1",
        () -> client.apps().replicaSets().inNamespace(ns).withName("api").get(),
        r ->
            orZero(r.getStatus().getReplicas()) == 1
                && Long.valueOf(2).equals(r.getStatus().getObservedGeneration()));
    Poll.until(
        "three SuccessfulDelete events",
        () ->
            client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "SuccessfulDelete".equals(e.getReason()))
                .filter(e -> e.getMessage().startsWith("Deleted pod: api-"))
                .count(),
        n -> n == 3);
  }

  @Test
  void adoptsMatchingOrphansAndReleasesPodsThatStopMatching() throws Exception {
    String ns = namespace("rs-adopt");
    Pod orphan =
        client
            .pods()
            .inNamespace(ns)
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("orphan")
                    .withLabels(Map.of("app", "db"))
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName("node-a")
                    .addNewContainer()
                    .withName("db")
                    .withImage("postgres:16")
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    // Running and ready on a node before the ReplicaSet exists, as kube's e2e test waits for its
    // orphan to run: the controller may create both replicas before its informer sees the orphan,
    // adopt it and scale down by one, and it deletes an unscheduled pending pod before this one.
    assertEquals(1, Fabric8Pods.markReady(client, List.of(orphan)));
    ReplicaSet rs =
        client
            .apps()
            .replicaSets()
            .inNamespace(ns)
            .resource(replicaSet("db", 2, Map.of("app", "db")))
            .create();
    Pod adopted =
        Poll.until(
            "the orphan adopted",
            () -> client.pods().inNamespace(ns).withName("orphan").get(),
            p -> !p.getMetadata().getOwnerReferences().isEmpty());
    assertEquals(
        rs.getMetadata().getUid(), adopted.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals(orphan.getMetadata().getUid(), adopted.getMetadata().getUid());
    Poll.until("2 pods", () -> activePods(ns, "db"), l -> l.size() == 2);

    Edits.edit(
        client.pods().inNamespace(ns).withName("orphan"),
        p -> {
          p.getMetadata().setLabels(Map.of("app", "elsewhere"));
          return p;
        });
    Pod released =
        Poll.until(
            "the pod released",
            () -> client.pods().inNamespace(ns).withName("orphan").get(),
            p -> p.getMetadata().getOwnerReferences().isEmpty());
    assertEquals("elsewhere", released.getMetadata().getLabels().get("app"));
    Poll.until("a replacement", () -> activePods(ns, "db"), l -> l.size() == 2);
  }

  @Test
  void aReplicationControllerIsRunByTheSameControllerConverted() throws Exception {
    String ns = namespace("rc-legacy");
    io.fabric8.kubernetes.api.model.ReplicationController rc =
        client
            .replicationControllers()
            .inNamespace(ns)
            .resource(
                new io.fabric8.kubernetes.api.model.ReplicationControllerBuilder()
                    .withNewMetadata()
                    .withName("legacy")
                    .endMetadata()
                    .withNewSpec()
                    .withReplicas(2)
                    .withSelector(Map.of("app", "legacy"))
                    .withNewTemplate()
                    .withNewMetadata()
                    .withLabels(Map.of("app", "legacy"))
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("main")
                    .withImage("legacy:1")
                    .endContainer()
                    .endSpec()
                    .endTemplate()
                    .endSpec()
                    .build())
            .create();
    List<Pod> pods = Poll.until("2 pods", () -> activePods(ns, "legacy"), l -> l.size() == 2);
    for (Pod pod : pods) {
      OwnerReference ref = pod.getMetadata().getOwnerReferences().get(0);
      assertEquals("ReplicationController", ref.getKind());
      assertEquals("v1", ref.getApiVersion());
      assertEquals(rc.getMetadata().getUid(), ref.getUid());
      assertTrue(pod.getMetadata().getName().startsWith("legacy-"));
    }
    Fabric8Pods.markReady(client, ns, "app", "legacy");
    Poll.until(
        "the RC's status",
        () -> client.replicationControllers().inNamespace(ns).withName("legacy").get(),
        r ->
            r.getStatus() != null
                && orZero(r.getStatus().getReplicas()) == 2
                && orZero(r.getStatus().getReadyReplicas()) == 2
                && orZero(r.getStatus().getAvailableReplicas()) == 2
                && Long.valueOf(1).equals(r.getStatus().getObservedGeneration()));
    client.replicationControllers().inNamespace(ns).withName("legacy").scale(0);
    Poll.until("no pods", () -> activePods(ns, "legacy"), List::isEmpty);
    Poll.until(
        "SuccessfulDelete events on the RC",
        () ->
            client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "SuccessfulDelete".equals(e.getReason()))
                .filter(e -> "ReplicationController".equals(e.getInvolvedObject().getKind()))
                .count(),
        n -> n == 2);
  }
}
