package dev.machinery.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.Service;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scale run's objects are Kubernetes' kinds field for field, and repeatable from a seed. */
class ScalePodsTest {
  private final Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
  private final Codec json = CodecFactory.create(scheme).json();
  private final ScalePods objects = new ScalePods(36, 300);

  @Test
  void aPodItsStatusAndAServiceDecodeAsKubernetesKindsWithoutAWarning() {
    var pod = json.decode(objects.pod("scale-00000", 7).getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of(), pod.warnings());
    Pod decoded = (Pod) pod.object();
    assertEquals("pod-0000007", decoded.getMetadata().getName());
    assertEquals(2, decoded.getSpec().getContainers().size());
    String status = objects.status(7);
    var withStatus =
        json.decode(
            ("{\"apiVersion\":\"v1\",\"kind\":\"Pod\"," + status.substring(1))
                .getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of(), withStatus.warnings());
    assertEquals("Running", ((Pod) withStatus.object()).getStatus().getPhase());
    var service = json.decode(objects.service("scale-00000", 3).getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of(), service.warnings());
    assertEquals(2, ((Service) service.object()).getSpec().getPorts().size());
  }

  @Test
  void theSameSeedMakesTheSameObjectsAndAnotherSeedOthers() {
    assertEquals(objects.pod("ns", 5), new ScalePods(36, 300).pod("ns", 5));
    assertEquals(objects.status(5), new ScalePods(36, 300).status(5));
    assertNotEquals(objects.pod("ns", 5), new ScalePods(37, 300).pod("ns", 5));
    assertNotEquals(objects.pod("ns", 5), objects.pod("ns", 6));
  }
}
