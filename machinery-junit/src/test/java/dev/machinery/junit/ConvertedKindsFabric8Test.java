package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v1.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * Kinds the test server holds in more than one shape, through fabric8's own models: an {@code
 * autoscaling/v1} HorizontalPodAutoscaler read as {@code autoscaling/v2}, and an {@code
 * events.k8s.io/v1} Event read as a core Event. Every call goes through fabric8.
 */
@EnableApiServer
class ConvertedKindsFabric8Test {
  static KubernetesClient client;

  @Test
  void anAutoscalingV1ObjectIsReadAsV2() {
    HorizontalPodAutoscaler v1 =
        new HorizontalPodAutoscalerBuilder()
            .withNewMetadata()
            .withName("web")
            .endMetadata()
            .withNewSpec()
            .withNewScaleTargetRef()
            .withApiVersion("apps/v1")
            .withKind("Deployment")
            .withName("web")
            .endScaleTargetRef()
            .withMaxReplicas(4)
            .withTargetCPUUtilizationPercentage(65)
            .endSpec()
            .build();
    client
        .autoscaling()
        .v1()
        .horizontalPodAutoscalers()
        .inNamespace("default")
        .resource(v1)
        .create();
    io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler v2 =
        client
            .autoscaling()
            .v2()
            .horizontalPodAutoscalers()
            .inNamespace("default")
            .withName("web")
            .get();
    assertEquals(1, v2.getSpec().getMinReplicas());
    assertEquals("cpu", v2.getSpec().getMetrics().get(0).getResource().getName());
    assertEquals(
        65, v2.getSpec().getMetrics().get(0).getResource().getTarget().getAverageUtilization());
  }

  @Test
  void anEventsGroupEventIsReadAsACoreEvent() {
    client
        .events()
        .v1()
        .events()
        .inNamespace("default")
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withName("pod.scheduled")
                .endMetadata()
                .withEventTime(new MicroTime("2026-11-30T01:00:00.000000Z"))
                .withReportingController("default-scheduler")
                .withReportingInstance("default-scheduler-1")
                .withAction("Binding")
                .withReason("Scheduled")
                .withRegarding(
                    new ObjectReferenceBuilder()
                        .withKind("Pod")
                        .withNamespace("default")
                        .withName("pod")
                        .build())
                .withNote("Successfully assigned default/pod to node-1")
                .withType("Normal")
                .build())
        .create();
    io.fabric8.kubernetes.api.model.Event core =
        client.v1().events().inNamespace("default").withName("pod.scheduled").get();
    assertEquals("Successfully assigned default/pod to node-1", core.getMessage());
    assertEquals("pod", core.getInvolvedObject().getName());
    assertEquals("default-scheduler", core.getReportingComponent());
    assertTrue(
        client
            .v1()
            .events()
            .inNamespace("default")
            .withField("involvedObject.name", "pod")
            .list()
            .getItems()
            .stream()
            .anyMatch(e -> e.getMetadata().getName().equals("pod.scheduled")));
  }
}
