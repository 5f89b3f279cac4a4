package dev.machinery.cluster.tests.workloads;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Marks pods Running and Ready through their status, as Kubernetes' integration tests do ({@code
 * markAllPodsReady}) where no kubelet runs.
 */
final class Fabric8Pods {
  private Fabric8Pods() {}

  static int markReady(KubernetesClient client, String namespace, String labelKey, String value) {
    return markReady(
        client, client.pods().inNamespace(namespace).withLabel(labelKey, value).list().getItems());
  }

  static int markReady(KubernetesClient client, List<Pod> pods) {
    int marked = 0;
    for (Pod pod : pods) {
      String namespace = pod.getMetadata().getNamespace();
      if (pod.getMetadata().getDeletionTimestamp() != null || isReady(pod)) {
        continue;
      }
      PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
      status.setPhase("Running");
      List<PodCondition> conditions = new ArrayList<>();
      conditions.add(
          new PodConditionBuilder()
              .withType("Ready")
              .withStatus("True")
              .withLastTransitionTime(Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"))
              .build());
      status.setConditions(conditions);
      pod.setStatus(status);
      try {
        client.pods().inNamespace(namespace).resource(pod).updateStatus();
        marked++;
      } catch (RuntimeException e) {
        // A conflict or a pod just deleted: the next round sees it again.
      }
    }
    return marked;
  }

  static boolean isReady(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
