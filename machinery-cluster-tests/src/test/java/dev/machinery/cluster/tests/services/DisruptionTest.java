package dev.machinery.cluster.tests.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The disruption controller's PodDisruptionBudget status and the eviction API ({@code
 * pods/eviction}) that spends it, through fabric8, plain HTTP (kube's exact refusal) and {@code
 * kubectl drain} with every kubectl build. Pods are made by hand with an owner, an IP, a node and a
 * readiness, as their controller and kubelet would leave them.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@EnableApiServer(
    controllers = {"disruption"},
    nodes = 0)
class DisruptionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  KubernetesClient client;
  TestApiServer server;

  private void namespace(String name) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private ReplicaSet replicaSet(String ns, String name, int replicas) {
    return client
        .apps()
        .replicaSets()
        .inNamespace(ns)
        .resource(
            new ReplicaSetBuilder()
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
                .withName("c")
                .withImage("nginx")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
  }

  private Pod pod(String ns, String name, ReplicaSet owner, String node, boolean ready) {
    PodBuilder builder =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(Map.of("app", owner == null ? "loose" : owner.getMetadata().getName()))
            .endMetadata()
            .withNewSpec()
            .withNodeName(node)
            .addNewContainer()
            .withName("c")
            .withImage("nginx")
            .endContainer()
            .endSpec();
    if (owner != null) {
      OwnerReference reference =
          new OwnerReferenceBuilder()
              .withApiVersion("apps/v1")
              .withKind("ReplicaSet")
              .withName(owner.getMetadata().getName())
              .withUid(owner.getMetadata().getUid())
              .withController(true)
              .build();
      builder.editMetadata().withOwnerReferences(reference).endMetadata();
    }
    Pod created = client.pods().inNamespace(ns).resource(builder.build()).create();
    created.setStatus(
        new PodStatusBuilder()
            .withPhase("Running")
            .withPodIP("10.244.9." + (Math.abs(name.hashCode()) % 250 + 1))
            .addNewCondition()
            .withType("Ready")
            .withStatus(ready ? "True" : "False")
            .endCondition()
            .build());
    return client.pods().inNamespace(ns).resource(created).updateStatus();
  }

  private PodDisruptionBudget budget(
      String ns, String name, String app, IntOrString minAvailable, IntOrString maxUnavailable) {
    return client
        .policy()
        .v1()
        .podDisruptionBudget()
        .inNamespace(ns)
        .resource(
            new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withMinAvailable(minAvailable)
                .withMaxUnavailable(maxUnavailable)
                .withNewSelector()
                .withMatchLabels(Map.of("app", app))
                .endSelector()
                .endSpec()
                .build())
        .create();
  }

  private PodDisruptionBudget status(String ns, String name, String what, int allowed)
      throws InterruptedException {
    return Poll.until(
        what,
        () -> client.policy().v1().podDisruptionBudget().inNamespace(ns).withName(name).get(),
        p ->
            p.getStatus() != null
                && p.getStatus().getObservedGeneration() != null
                && p.getStatus().getObservedGeneration() >= p.getMetadata().getGeneration()
                && p.getStatus().getDisruptionsAllowed() != null
                && p.getStatus().getDisruptionsAllowed() == allowed);
  }

  private static Condition condition(PodDisruptionBudget pdb) {
    return pdb.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals("DisruptionAllowed"))
        .findFirst()
        .orElseThrow();
  }

  private HttpResponse<String> evict(String ns, String pod) throws Exception {
    String body =
        "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\""
            + pod
            + "\",\"namespace\":\""
            + ns
            + "\"}}";
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.url() + "/api/v1/namespaces/" + ns + "/pods/" + pod + "/eviction"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void statusFollowsMinAvailableAndEvictionSpendsIt() throws Exception {
    namespace("pdb-one");
    ReplicaSet rs = replicaSet("pdb-one", "web", 3);
    pod("pdb-one", "web-a", rs, null, true);
    pod("pdb-one", "web-b", rs, null, true);
    pod("pdb-one", "web-c", rs, null, true);
    budget("pdb-one", "web", "web", new IntOrString(2), null);
    PodDisruptionBudget pdb = status("pdb-one", "web", "one disruption allowed", 1);
    assertEquals(3, pdb.getStatus().getExpectedPods());
    assertEquals(2, pdb.getStatus().getDesiredHealthy());
    assertEquals(3, pdb.getStatus().getCurrentHealthy());
    assertEquals("True", condition(pdb).getStatus());
    assertEquals("SufficientPods", condition(pdb).getReason());
    assertEquals(pdb.getMetadata().getGeneration(), condition(pdb).getObservedGeneration());

    // The eviction is allowed: the pod goes, the budget is spent at once.
    HttpResponse<String> allowed = evict("pdb-one", "web-a");
    assertEquals(201, allowed.statusCode(), allowed.body());
    JsonNode success = JSON.readTree(allowed.body());
    assertEquals("Success", success.path("status").asText());
    assertNull(client.pods().inNamespace("pdb-one").withName("web-a").get());
    PodDisruptionBudget spent =
        client.policy().v1().podDisruptionBudget().inNamespace("pdb-one").withName("web").get();
    assertEquals(0, spent.getStatus().getDisruptionsAllowed());
    // The controller then drops the deleted pod from disruptedPods and counts 2 healthy.
    PodDisruptionBudget settled =
        Poll.until(
            "two healthy, none allowed",
            () ->
                client
                    .policy()
                    .v1()
                    .podDisruptionBudget()
                    .inNamespace("pdb-one")
                    .withName("web")
                    .get(),
            p ->
                p.getStatus().getCurrentHealthy() == 2
                    && (p.getStatus().getDisruptedPods() == null
                        || p.getStatus().getDisruptedPods().isEmpty()));
    assertEquals(0, settled.getStatus().getDisruptionsAllowed());
    assertEquals("False", condition(settled).getStatus());
    assertEquals("InsufficientPods", condition(settled).getReason());

    // The next is refused in kube's words.
    HttpResponse<String> refused = evict("pdb-one", "web-b");
    assertEquals(429, refused.statusCode(), refused.body());
    JsonNode status = JSON.readTree(refused.body());
    assertEquals("Status", status.path("kind").asText());
    assertEquals("Failure", status.path("status").asText());
    assertEquals("TooManyRequests", status.path("reason").asText());
    assertEquals(429, status.path("code").asInt());
    assertEquals(
        "Cannot evict pod as it would violate the pod's disruption budget.",
        status.path("message").asText());
    JsonNode cause = status.path("details").path("causes").get(0);
    assertEquals("DisruptionBudget", cause.path("reason").asText());
    assertEquals(
        "The disruption budget web needs 2 healthy pods and has 2 currently",
        cause.path("message").asText());
    assertNotNull(client.pods().inNamespace("pdb-one").withName("web-b").get());
    // fabric8's evict() reports the refusal as false.
    assertFalse(client.pods().inNamespace("pdb-one").withName("web-b").evict());

    // A name that is not the pod's is refused.
    HttpResponse<String> mismatch =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(server.url() + "/api/v1/namespaces/pdb-one/pods/web-b/eviction"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\","
                                + "\"metadata\":{\"name\":\"web-c\"}}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(400, mismatch.statusCode(), mismatch.body());
    assertEquals(
        "name in URL does not match name in Eviction object",
        JSON.readTree(mismatch.body()).path("message").asText());
  }

  @Test
  void maxUnavailablePercentReadsTheControllersScale() throws Exception {
    namespace("pdb-two");
    // The ReplicaSet asks for 4; only 3 pods exist, 2 of them ready.
    ReplicaSet rs = replicaSet("pdb-two", "api", 4);
    pod("pdb-two", "api-a", rs, null, true);
    pod("pdb-two", "api-b", rs, null, true);
    pod("pdb-two", "api-c", rs, null, false);
    budget("pdb-two", "api", "api", null, new IntOrString("50%"));
    PodDisruptionBudget pdb = status("pdb-two", "api", "no disruption allowed", 0);
    Poll.until(
        "expected 4",
        () ->
            client.policy().v1().podDisruptionBudget().inNamespace("pdb-two").withName("api").get(),
        p -> p.getStatus().getExpectedPods() != null && p.getStatus().getExpectedPods() == 4);
    pdb = client.policy().v1().podDisruptionBudget().inNamespace("pdb-two").withName("api").get();
    assertEquals(4, pdb.getStatus().getExpectedPods());
    assertEquals(2, pdb.getStatus().getDesiredHealthy());
    assertEquals(2, pdb.getStatus().getCurrentHealthy());

    // An unready pod may go with the default IfHealthyBudget: 2 healthy >= 2 desired.
    HttpResponse<String> unready = evict("pdb-two", "api-c");
    assertEquals(201, unready.statusCode(), unready.body());
    // A ready one may not.
    assertEquals(429, evict("pdb-two", "api-a").statusCode());

    // A scale of 2 on the ReplicaSet: 50% of 2 is 1 unavailable, 1 desired, 1 allowed.
    rs = client.apps().replicaSets().inNamespace("pdb-two").withName("api").get();
    rs.getSpec().setReplicas(2);
    client.apps().replicaSets().inNamespace("pdb-two").resource(rs).update();
    status("pdb-two", "api", "one allowed after the scale", 1);

    // A pod with no controller under a percentage is left out of the scale, with a warning.
    pod("pdb-two", "api-orphan", null, null, true);
    PodDisruptionBudget orphan = budget("pdb-two", "loose", "loose", new IntOrString("50%"), null);
    Poll.until(
        "the UnmanagedPods warning",
        () -> client.v1().events().inNamespace("pdb-two").list().getItems(),
        events ->
            events.stream()
                .anyMatch(
                    e ->
                        "UnmanagedPods".equals(e.getReason())
                            && "Warning".equals(e.getType())
                            && orphan
                                .getMetadata()
                                .getName()
                                .equals(e.getInvolvedObject().getName())));
    PodDisruptionBudget loose = status("pdb-two", "loose", "the loose budget synced", 0);
    assertEquals(0, loose.getStatus().getExpectedPods());
    assertEquals(1, loose.getStatus().getCurrentHealthy());
  }

  @Test
  void aBudgetWhoseControllerIsGoneFailsSafe() throws Exception {
    namespace("pdb-three");
    ReplicaSet rs = replicaSet("pdb-three", "gone", 2);
    pod("pdb-three", "gone-a", rs, null, true);
    client.apps().replicaSets().inNamespace("pdb-three").withName("gone").delete();
    Poll.gone(
        "the ReplicaSet gone",
        () -> client.apps().replicaSets().inNamespace("pdb-three").withName("gone").get());
    budget("pdb-three", "gone", "gone", null, new IntOrString(1));
    PodDisruptionBudget pdb =
        Poll.until(
            "SyncFailed",
            () ->
                client
                    .policy()
                    .v1()
                    .podDisruptionBudget()
                    .inNamespace("pdb-three")
                    .withName("gone")
                    .get(),
            p ->
                p.getStatus() != null
                    && p.getStatus().getConditions() != null
                    && p.getStatus().getConditions().stream()
                        .anyMatch(c -> "SyncFailed".equals(c.getReason())));
    assertEquals(0, pdb.getStatus().getDisruptionsAllowed());
    assertEquals("found no controllers for pod \"gone-a\"", condition(pdb).getMessage());
    // The eviction is refused while the budget has not been processed.
    HttpResponse<String> refused = evict("pdb-three", "gone-a");
    assertEquals(429, refused.statusCode(), refused.body());
    assertEquals(
        "The disruption budget gone is still being processed by the server.",
        JSON.readTree(refused.body())
            .path("details")
            .path("causes")
            .get(0)
            .path("message")
            .asText());
  }

  @TestFactory
  Stream<DynamicTest> kubectlDrainCordonsAndEvicts() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("DisruptionTest (kubectl drain)");
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> drain(Kubectl.of(e.getKey(), e.getValue(), server.url().toString()))));
  }

  private void drain(Kubectl kubectl) throws Exception {
    String ns = "drain-" + kubectl.name.replace('.', '-');
    String nodeA = ns + "-a";
    String nodeB = ns + "-b";
    namespace(ns);
    for (String node : List.of(nodeA, nodeB)) {
      client
          .nodes()
          .resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build())
          .create();
    }
    ReplicaSet rs = replicaSet(ns, "app", 4);
    pod(ns, "app-1", rs, nodeA, true);
    pod(ns, "app-2", rs, nodeA, true);
    pod(ns, "app-3", rs, nodeB, true);
    pod(ns, "app-4", rs, nodeB, true);
    budget(ns, "app", "app", new IntOrString(2), null);
    status(ns, "app", "two allowed", 2);

    // --grace-period=0: these hand-made nodes have no kubelet to finish a graceful deletion, so
    // the evictions ask for an immediate one (sent in the Eviction's deleteOptions).
    Kubectl.Result result =
        kubectl.run("drain", nodeA, "--ignore-daemonsets", "--grace-period=0", "--timeout=60s");
    assertEquals(0, result.exitCode(), result.all());
    assertTrue(result.all().contains("node/" + nodeA + " cordoned"), result.all());
    assertTrue(result.all().contains("evicting pod " + ns + "/app-1"), result.all());
    assertTrue(result.all().contains("node/" + nodeA + " drained"), result.all());
    assertTrue(client.nodes().withName(nodeA).get().getSpec().getUnschedulable());
    assertNull(client.pods().inNamespace(ns).withName("app-1").get());
    assertNull(client.pods().inNamespace(ns).withName("app-2").get());
    status(ns, "app", "none allowed after the drain", 0);

    // Draining the other node now would violate the budget: kubectl retries until its timeout.
    Kubectl.Result blocked =
        kubectl.run("drain", nodeB, "--ignore-daemonsets", "--grace-period=0", "--timeout=3s");
    assertTrue(blocked.exitCode() != 0, blocked.all());
    assertTrue(
        blocked.all().contains("Cannot evict pod as it would violate the pod's disruption budget."),
        blocked.all());
    assertNotNull(client.pods().inNamespace(ns).withName("app-3").get());
  }
}
