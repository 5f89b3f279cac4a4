package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The test server writes built-in objects' quantities, times and bytes as kube-apiserver writes
 * them, seen through fabric8's own models: quantities come back in their canonical form, a Lease's
 * micro time as fabric8 wrote it, and base64 without its padding is refused. Every call goes
 * through fabric8.
 */
@EnableApiServer
class CanonicalValuesFabric8Test {
  static KubernetesClient client;

  @Test
  void aPodsQuantitiesComeBackCanonical() {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("sized")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage("nginx:1.27")
            .withNewResources()
            .withRequests(Map.of("cpu", new Quantity("0.5"), "memory", new Quantity("1.5", "Gi")))
            .endResources()
            .endContainer()
            .endSpec()
            .build();
    client.pods().inNamespace("default").resource(pod).create();
    Map<String, Quantity> requests =
        client
            .pods()
            .inNamespace("default")
            .withName("sized")
            .get()
            .getSpec()
            .getContainers()
            .get(0)
            .getResources()
            .getRequests();
    assertEquals("500", requests.get("cpu").getAmount());
    assertEquals("m", requests.get("cpu").getFormat());
    assertEquals("1536", requests.get("memory").getAmount());
    assertEquals("Mi", requests.get("memory").getFormat());
    // The same amounts, as fabric8 compares them.
    assertEquals(new Quantity("0.5"), requests.get("cpu"));
  }

  @Test
  void aLeasesMicroTimeAsFabric8WritesItIsKept() {
    ZonedDateTime renewed = ZonedDateTime.of(2026, 11, 30, 5, 30, 0, 123_456_000, ZoneOffset.UTC);
    Lease lease =
        new LeaseBuilder()
            .withNewMetadata()
            .withName("leader")
            .endMetadata()
            .withNewSpec()
            .withHolderIdentity("me")
            .withRenewTime(renewed)
            .endSpec()
            .build();
    client.leases().inNamespace("default").resource(lease).create();
    assertEquals(
        renewed.toInstant(),
        client
            .leases()
            .inNamespace("default")
            .withName("leader")
            .get()
            .getSpec()
            .getRenewTime()
            .toInstant());
  }

  @Test
  void unpaddedBase64IsRefusedNamingItsKey() {
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .secrets()
                    .inNamespace("default")
                    .resource(
                        new SecretBuilder()
                            .withNewMetadata()
                            .withName("unpadded")
                            .endMetadata()
                            .withData(Map.of("token", "aGVsbG8"))
                            .build())
                    .create());
    assertEquals(400, refused.getCode());
    assertTrue(
        refused.getMessage().contains("data[token]: illegal base64 data at input byte 4"),
        refused.getMessage());
  }
}
