package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The test server's admission plugins read other objects from its watch caches, as kube-apiserver's
 * read their listers, and still see every write made just before through the server: a Pod's create
 * takes the default request of the LimitRange created just before it, and not of the one deleted
 * just before that. Every call goes through fabric8.
 */
@EnableApiServer
class AdmissionReadsFabric8Test {
  static KubernetesClient client;

  @Test
  void aPodsCreateSeesTheLimitRangeWrittenJustBefore() {
    for (int i = 1; i <= 5; i++) {
      client
          .limitRanges()
          .inNamespace("default")
          .resource(
              new LimitRangeBuilder()
                  .withNewMetadata()
                  .withName("cpu-" + i)
                  .endMetadata()
                  .withNewSpec()
                  .addNewLimit()
                  .withType("Container")
                  .withDefaultRequest(Map.of("cpu", new Quantity(i + "00m")))
                  .endLimit()
                  .endSpec()
                  .build())
          .create();
      Pod pod =
          client
              .pods()
              .inNamespace("default")
              .resource(
                  new PodBuilder()
                      .withNewMetadata()
                      .withName("pod-" + i)
                      .endMetadata()
                      .withNewSpec()
                      .addNewContainer()
                      .withName("c")
                      .withImage("nginx")
                      .endContainer()
                      .endSpec()
                      .build())
              .create();
      assertEquals(
          new Quantity(i + "00m"),
          pod.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"),
          "pod-" + i);
      client.limitRanges().inNamespace("default").withName("cpu-" + i).delete();
    }
  }
}
