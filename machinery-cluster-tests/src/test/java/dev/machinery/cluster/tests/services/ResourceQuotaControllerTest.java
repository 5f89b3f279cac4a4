package dev.machinery.cluster.tests.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The resource quota controller with the server's ResourceQuota admission, driven through fabric8:
 * a quota's {@code status.hard} follows its spec, {@code status.used} is computed from the objects
 * already there and follows creates, deletes and finished pods, and a pod refused at the limit is
 * admitted once another is deleted.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@EnableApiServer(
    controllers = {"resourcequota-controller"},
    nodes = 0)
class ResourceQuotaControllerTest {
  KubernetesClient client;
  TestApiServer server;

  private void namespace(String name) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private Pod pod(String namespace, String name) {
    return client
        .pods()
        .inNamespace(namespace)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("nginx")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  private void quota(String namespace, Map<String, String> hard) {
    ResourceQuotaBuilder quota =
        new ResourceQuotaBuilder()
            .withNewMetadata()
            .withName("q")
            .endMetadata()
            .withNewSpec()
            .endSpec();
    hard.forEach((k, v) -> quota.editSpec().addToHard(k, new Quantity(v)).endSpec());
    client.resourceQuotas().inNamespace(namespace).resource(quota.build()).create();
  }

  private static Map<String, String> strings(Map<String, Quantity> list) {
    Map<String, String> out = new TreeMap<>();
    if (list != null) {
      list.forEach((k, v) -> out.put(k, v.toString()));
    }
    return out;
  }

  /** Waits until the quota's status reads {@code hard} and {@code used}. */
  private ResourceQuota status(String namespace, Map<String, String> hard, Map<String, String> used)
      throws InterruptedException {
    return Poll.until(
        "quota q in " + namespace + " with hard " + hard + " and used " + used,
        () -> client.resourceQuotas().inNamespace(namespace).withName("q").get(),
        q ->
            q != null
                && q.getStatus() != null
                && strings(q.getStatus().getHard()).equals(new TreeMap<>(hard))
                && strings(q.getStatus().getUsed()).equals(new TreeMap<>(used)));
  }

  @Test
  void aPodRefusedAtTheLimitIsAdmittedAfterAnotherIsDeleted() throws Exception {
    namespace("rq-limit");
    quota("rq-limit", Map.of("pods", "2", "configmaps", "5"));
    status(
        "rq-limit", Map.of("pods", "2", "configmaps", "5"), Map.of("pods", "0", "configmaps", "0"));
    pod("rq-limit", "a");
    pod("rq-limit", "b");
    status(
        "rq-limit", Map.of("pods", "2", "configmaps", "5"), Map.of("pods", "2", "configmaps", "0"));
    KubernetesClientException refused =
        assertThrows(KubernetesClientException.class, () -> pod("rq-limit", "c"));
    assertEquals(403, refused.getCode());
    assertEquals(
        "pods \"c\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited:"
            + " pods=2",
        refused.getStatus().getMessage());
    client.pods().inNamespace("rq-limit").withName("a").withGracePeriod(0).delete();
    status(
        "rq-limit", Map.of("pods", "2", "configmaps", "5"), Map.of("pods", "1", "configmaps", "0"));
    pod("rq-limit", "c");
    client
        .configMaps()
        .inNamespace("rq-limit")
        .resource(new ConfigMapBuilder().withNewMetadata().withName("m").endMetadata().build())
        .create();
    status(
        "rq-limit", Map.of("pods", "2", "configmaps", "5"), Map.of("pods", "2", "configmaps", "1"));
    // A changed spec reaches the status.
    client
        .resourceQuotas()
        .inNamespace("rq-limit")
        .withName("q")
        .edit(
            q ->
                new ResourceQuotaBuilder(q)
                    .editSpec()
                    .addToHard("pods", new Quantity("3"))
                    .endSpec()
                    .build());
    status(
        "rq-limit", Map.of("pods", "3", "configmaps", "5"), Map.of("pods", "2", "configmaps", "1"));
  }

  @Test
  void usageIsComputedFromTheObjectsThereAndFollowsFinishedPods() throws Exception {
    namespace("rq-count");
    pod("rq-count", "a");
    pod("rq-count", "b");
    client
        .apps()
        .deployments()
        .inNamespace("rq-count")
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName("d")
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .addToMatchLabels("app", "d")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "d")
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
    Map<String, String> hard =
        Map.of("pods", "10", "count/pods", "10", "count/deployments.apps", "2");
    quota("rq-count", hard);
    status("rq-count", hard, Map.of("pods", "2", "count/pods", "2", "count/deployments.apps", "1"));
    // A pod that finished no longer counts in pods; it is still an object in count/pods.
    Pod a = client.pods().inNamespace("rq-count").withName("a").get();
    a.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Succeeded").build());
    client.pods().inNamespace("rq-count").resource(a).updateStatus();
    status("rq-count", hard, Map.of("pods", "1", "count/pods", "2", "count/deployments.apps", "1"));
    client.pods().inNamespace("rq-count").withName("b").withGracePeriod(0).delete();
    status("rq-count", hard, Map.of("pods", "0", "count/pods", "1", "count/deployments.apps", "1"));
    // A resource counted by name replenishes on delete too.
    client.apps().deployments().inNamespace("rq-count").withName("d").delete();
    status("rq-count", hard, Map.of("pods", "0", "count/pods", "1", "count/deployments.apps", "0"));
  }
}
