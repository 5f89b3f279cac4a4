package dev.machinery.cluster.tests.workloads;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.function.UnaryOperator;

/**
 * Edits retried on a conflict, as Kubernetes' e2e tests update objects a controller writes too
 * ({@code UpdateDeploymentWithRetries}).
 */
final class Edits {
  private Edits() {}

  static <T extends HasMetadata> T edit(Resource<T> resource, UnaryOperator<T> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return resource.edit(change);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= 20) {
          throw e;
        }
      }
    }
  }
}
