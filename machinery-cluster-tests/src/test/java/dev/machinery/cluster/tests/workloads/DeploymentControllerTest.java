package dev.machinery.cluster.tests.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Deployment and ReplicaSet controllers driven through fabric8, pods marked Ready through their
 * status (pkg/controller/deployment, test/e2e/apps/deployment.go).
 */
@EnableApiServer(
    controllers = {"deployment-controller", "replicaset-controller"},
    nodes = 0)
class DeploymentControllerTest {
  KubernetesClient client;

  private String namespace(String name) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  static Deployment deployment(String name, int replicas, String image) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewSelector()
        .withMatchLabels(Map.of("app", name))
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(Map.of("app", name))
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage(image)
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private Deployment get(String ns, String name) {
    return client.apps().deployments().inNamespace(ns).withName(name).get();
  }

  private List<ReplicaSet> replicaSets(String ns, String app) {
    return client
        .apps()
        .replicaSets()
        .inNamespace(ns)
        .withLabel("app", app)
        .list()
        .getItems()
        .stream()
        .sorted(Comparator.comparing(rs -> rs.getMetadata().getCreationTimestamp()))
        .collect(Collectors.toList());
  }

  static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  static boolean complete(Deployment d) {
    return d.getStatus() != null
        && d.getStatus().getObservedGeneration() != null
        && d.getStatus().getObservedGeneration() >= d.getMetadata().getGeneration()
        && orZero(d.getStatus().getUpdatedReplicas()) == d.getSpec().getReplicas()
        && orZero(d.getStatus().getReplicas()) == d.getSpec().getReplicas()
        && orZero(d.getStatus().getAvailableReplicas()) == d.getSpec().getReplicas();
  }

  /** Waits for a rollout to complete, marking the Deployment's pods Ready as a kubelet would. */
  private Deployment rolledOut(String ns, String name) throws InterruptedException {
    return Poll.until(
        "deployment " + name + " rolled out",
        () -> {
          Fabric8Pods.markReady(client, ns, "app", name);
          return get(ns, name);
        },
        DeploymentControllerTest::complete);
  }

  static DeploymentCondition condition(Deployment d, String type) {
    if (d.getStatus() == null || d.getStatus().getConditions() == null) {
      return null;
    }
    return d.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  private List<String> events(String ns, String reason) {
    return client.v1().events().inNamespace(ns).list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()))
        .map(e -> e.getMessage())
        .collect(Collectors.toList());
  }

  @Test
  void aDeploymentRollsOutThroughItsReplicaSet() throws Exception {
    String ns = namespace("deploy-create");
    client
        .apps()
        .deployments()
        .inNamespace(ns)
        .resource(deployment("web", 3, "nginx:1.26"))
        .create();
    Deployment d = rolledOut(ns, "web");
    List<ReplicaSet> rss = replicaSets(ns, "web");
    assertEquals(1, rss.size());
    ReplicaSet rs = rss.get(0);
    String hash = rs.getMetadata().getLabels().get("pod-template-hash");
    assertEquals("web-" + hash, rs.getMetadata().getName());
    assertTrue(hash.matches("[bcdfghjklmnpqrstvwxz2456789]+"), hash);
    assertEquals(hash, rs.getSpec().getSelector().getMatchLabels().get("pod-template-hash"));
    assertEquals(
        hash, rs.getSpec().getTemplate().getMetadata().getLabels().get("pod-template-hash"));
    assertEquals("1", rs.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
    assertEquals(
        "3", rs.getMetadata().getAnnotations().get("deployment.kubernetes.io/desired-replicas"));
    // maxSurge 25% of 3 rounds up to 1.
    assertEquals(
        "4", rs.getMetadata().getAnnotations().get("deployment.kubernetes.io/max-replicas"));
    assertEquals(d.getMetadata().getUid(), rs.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals("1", d.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
    for (Pod pod : client.pods().inNamespace(ns).withLabel("app", "web").list().getItems()) {
      assertEquals(hash, pod.getMetadata().getLabels().get("pod-template-hash"));
      assertEquals("nginx:1.26", pod.getSpec().getContainers().get(0).getImage());
      assertTrue(pod.getMetadata().getName().startsWith(rs.getMetadata().getName() + "-"));
    }
    Deployment available =
        Poll.until(
            "conditions",
            () -> get(ns, "web"),
            x ->
                condition(x, "Progressing") != null
                    && "NewReplicaSetAvailable".equals(condition(x, "Progressing").getReason()));
    DeploymentCondition progressing = condition(available, "Progressing");
    assertEquals("True", progressing.getStatus());
    assertEquals(
        "ReplicaSet \"" + rs.getMetadata().getName() + "\" has successfully progressed.",
        progressing.getMessage());
    DeploymentCondition avail = condition(available, "Available");
    assertEquals("True", avail.getStatus());
    assertEquals("MinimumReplicasAvailable", avail.getReason());
    assertEquals("Deployment has minimum availability.", avail.getMessage());
    assertEquals(0, orZero(available.getStatus().getUnavailableReplicas()));
    assertEquals(3, orZero(available.getStatus().getReadyReplicas()));
    Poll.until(
        "the scaling event",
        () -> events(ns, "ScalingReplicaSet"),
        l -> l.contains("Scaled up replica set " + rs.getMetadata().getName() + " from 0 to 3"));
  }

  @Test
  void anImageUpdateRollsToANewReplicaSetAndOldOnesAreScaledDown() throws Exception {
    String ns = namespace("deploy-update");
    client.apps().deployments().inNamespace(ns).resource(deployment("api", 4, "api:1")).create();
    rolledOut(ns, "api");
    ReplicaSet first = replicaSets(ns, "api").get(0);
    Edits.edit(
        client.apps().deployments().inNamespace(ns).withName("api"),
        d -> {
          d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("api:2");
          return d;
        });
    Deployment d = rolledOut(ns, "api");
    assertEquals("2", d.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
    List<ReplicaSet> rss = replicaSets(ns, "api");
    assertEquals(2, rss.size());
    ReplicaSet old =
        rss.stream()
            .filter(r -> r.getMetadata().getUid().equals(first.getMetadata().getUid()))
            .findFirst()
            .orElseThrow();
    ReplicaSet newer =
        rss.stream()
            .filter(r -> !r.getMetadata().getUid().equals(first.getMetadata().getUid()))
            .findFirst()
            .orElseThrow();
    assertEquals(0, old.getSpec().getReplicas());
    assertEquals(4, newer.getSpec().getReplicas());
    assertEquals(
        "2", newer.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
    assertNotEquals(
        old.getMetadata().getLabels().get("pod-template-hash"),
        newer.getMetadata().getLabels().get("pod-template-hash"));
    Poll.until(
        "old pods gone",
        () ->
            client.pods().inNamespace(ns).withLabel("app", "api").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .map(p -> p.getSpec().getContainers().get(0).getImage())
                .collect(Collectors.toList()),
        images -> images.size() == 4 && images.stream().allMatch("api:2"::equals));
    List<String> scaling = events(ns, "ScalingReplicaSet");
    assertTrue(
        scaling.stream()
            .anyMatch(
                n ->
                    n.startsWith(
                        "Scaled down replica set " + old.getMetadata().getName() + " from ")),
        scaling.toString());
    assertTrue(
        scaling.stream()
            .anyMatch(
                n ->
                    n.startsWith(
                        "Scaled up replica set " + newer.getMetadata().getName() + " from 0 to ")),
        scaling.toString());
  }

  @Test
  void scalingAndPauseResume() throws Exception {
    String ns = namespace("deploy-pause");
    client
        .apps()
        .deployments()
        .inNamespace(ns)
        .resource(deployment("cache", 2, "redis:7"))
        .create();
    rolledOut(ns, "cache");
    client.apps().deployments().inNamespace(ns).withName("cache").scale(5);
    rolledOut(ns, "cache");
    assertEquals(5, replicaSets(ns, "cache").get(0).getSpec().getReplicas());

    Edits.edit(
        client.apps().deployments().inNamespace(ns).withName("cache"),
        d -> {
          d.getSpec().setPaused(true);
          return d;
        });
    Deployment paused =
        Poll.until(
            "the paused condition",
            () -> get(ns, "cache"),
            d ->
                condition(d, "Progressing") != null
                    && "DeploymentPaused".equals(condition(d, "Progressing").getReason()));
    assertEquals("Unknown", condition(paused, "Progressing").getStatus());
    assertEquals("Deployment is paused", condition(paused, "Progressing").getMessage());
    Edits.edit(
        client.apps().deployments().inNamespace(ns).withName("cache"),
        d -> {
          d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("redis:8");
          return d;
        });
    Poll.until(
        "the paused template change observed",
        () -> get(ns, "cache"),
        d -> d.getStatus().getObservedGeneration() >= d.getMetadata().getGeneration());
    assertEquals(1, replicaSets(ns, "cache").size(), "no rollout while paused");

    Edits.edit(
        client.apps().deployments().inNamespace(ns).withName("cache"),
        d -> {
          d.getSpec().setPaused(false);
          return d;
        });
    Deployment resumed = rolledOut(ns, "cache");
    assertEquals(2, replicaSets(ns, "cache").size());
    assertEquals(
        "2", resumed.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
    Deployment done =
        Poll.until(
            "complete after resume",
            () -> get(ns, "cache"),
            d -> "NewReplicaSetAvailable".equals(condition(d, "Progressing").getReason()));
    assertEquals("True", condition(done, "Progressing").getStatus());
  }

  @Test
  void recreateScalesTheOldReplicaSetDownBeforeTheNewOneUp() throws Exception {
    String ns = namespace("deploy-recreate");
    Deployment spec = deployment("batch", 3, "worker:1");
    spec.getSpec()
        .setStrategy(
            new io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder()
                .withType("Recreate")
                .build());
    client.apps().deployments().inNamespace(ns).resource(spec).create();
    rolledOut(ns, "batch");
    String firstName = replicaSets(ns, "batch").get(0).getMetadata().getName();
    Edits.edit(
        client.apps().deployments().inNamespace(ns).withName("batch"),
        d -> {
          d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("worker:2");
          return d;
        });
    rolledOut(ns, "batch");
    List<String> scaling = events(ns, "ScalingReplicaSet");
    int down = scaling.indexOf("Scaled down replica set " + firstName + " from 3 to 0");
    String newName =
        replicaSets(ns, "batch").stream()
            .map(r -> r.getMetadata().getName())
            .filter(n -> !n.equals(firstName))
            .findFirst()
            .orElseThrow();
    int up = scaling.indexOf("Scaled up replica set " + newName + " from 0 to 3");
    assertTrue(down >= 0 && up >= 0, scaling.toString());
    ReplicaSet newRs = client.apps().replicaSets().inNamespace(ns).withName(newName).get();
    // The new ReplicaSet was created only once the old pods were gone.
    for (Pod pod : client.pods().inNamespace(ns).withLabel("app", "batch").list().getItems()) {
      assertEquals("worker:2", pod.getSpec().getContainers().get(0).getImage());
    }
    assertEquals(3, newRs.getSpec().getReplicas());
  }

  @Test
  void rollingBackReusesTheOldReplicaSetWithTheNextRevisionAndHistoryIsLimited() throws Exception {
    String ns = namespace("deploy-history");
    Deployment spec = deployment("app", 2, "app:1");
    spec.getSpec().setRevisionHistoryLimit(1);
    client.apps().deployments().inNamespace(ns).resource(spec).create();
    rolledOut(ns, "app");
    String rev1 = replicaSets(ns, "app").get(0).getMetadata().getName();
    for (String image : List.of("app:2", "app:3")) {
      Edits.edit(
          client.apps().deployments().inNamespace(ns).withName("app"),
          d -> {
            d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(image);
            return d;
          });
      rolledOut(ns, "app");
    }
    List<ReplicaSet> kept =
        Poll.until(
            "history limited to 1 old ReplicaSet",
            () -> replicaSets(ns, "app"),
            l -> l.size() == 2);
    assertFalse(
        kept.stream().anyMatch(r -> r.getMetadata().getName().equals(rev1)),
        "revision 1 cleaned up");
    ReplicaSet rev2 =
        kept.stream()
            .filter(
                r ->
                    "2"
                        .equals(
                            r.getMetadata()
                                .getAnnotations()
                                .get("deployment.kubernetes.io/revision")))
            .findFirst()
            .orElseThrow();
    // What kubectl rollout undo does: the template of revision 2, without its hash label.
    Edits.edit(
        client.apps().deployments().inNamespace(ns).withName("app"),
        d -> {
          d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("app:2");
          return d;
        });
    Deployment d = rolledOut(ns, "app");
    assertEquals("4", d.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
    ReplicaSet reused =
        client.apps().replicaSets().inNamespace(ns).withName(rev2.getMetadata().getName()).get();
    assertEquals(
        "4", reused.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
    assertEquals(
        "2",
        reused.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision-history"));
    assertEquals(2, reused.getSpec().getReplicas());
    assertEquals(2, replicaSets(ns, "app").size());
  }

  /** test/e2e/apps/deployment.go, testProportionalScalingDeployment: its numbers. */
  @Test
  void scalingDuringAStuckRolloutIsProportional() throws Exception {
    String ns = namespace("deploy-proportional");
    Deployment spec = deployment("webserver", 10, "httpd:2.4");
    spec.getSpec()
        .setStrategy(
            new io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder()
                .withType("RollingUpdate")
                .withNewRollingUpdate()
                .withMaxSurge(new io.fabric8.kubernetes.api.model.IntOrString(3))
                .withMaxUnavailable(new io.fabric8.kubernetes.api.model.IntOrString(2))
                .endRollingUpdate()
                .build());
    client.apps().deployments().inNamespace(ns).resource(spec).create();
    rolledOut(ns, "webserver");
    String firstHash =
        replicaSets(ns, "webserver").get(0).getMetadata().getLabels().get("pod-template-hash");
    // An image that never becomes ready: only the first ReplicaSet's pods are marked Ready.
    Edits.edit(
        client.apps().deployments().inNamespace(ns).withName("webserver"),
        d -> {
          d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("webserver:404");
          return d;
        });
    List<ReplicaSet> stuck =
        Poll.until(
            "the rollout stuck at 8 old and 5 new",
            () -> {
              Fabric8Pods.markReady(client, ns, "pod-template-hash", firstHash);
              return replicaSets(ns, "webserver");
            },
            l ->
                l.size() == 2
                    && l.get(0).getSpec().getReplicas() == 8
                    && l.get(1).getSpec().getReplicas() == 5);
    assertEquals(firstHash, stuck.get(0).getMetadata().getLabels().get("pod-template-hash"));
    client.apps().deployments().inNamespace(ns).withName("webserver").scale(30);
    List<ReplicaSet> scaled =
        Poll.until(
            "both ReplicaSets scaled in proportion: 20 and 13",
            () -> {
              Fabric8Pods.markReady(client, ns, "pod-template-hash", firstHash);
              return replicaSets(ns, "webserver");
            },
            l -> l.get(0).getSpec().getReplicas() == 20 && l.get(1).getSpec().getReplicas() == 13);
    assertEquals(
        "30",
        scaled
            .get(0)
            .getMetadata()
            .getAnnotations()
            .get("deployment.kubernetes.io/desired-replicas"));
    assertEquals(
        "33",
        scaled.get(1).getMetadata().getAnnotations().get("deployment.kubernetes.io/max-replicas"));
  }
}
