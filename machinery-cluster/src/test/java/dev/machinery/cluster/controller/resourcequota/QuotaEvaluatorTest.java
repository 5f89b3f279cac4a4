package dev.machinery.cluster.controller.resourcequota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.schema.GroupResource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The controller's copy of the quota usage rules, on the cases of Kubernetes' evaluator tests
 * ({@code pkg/quota/v1/evaluator/core}) that machinery-builtins' {@code QuotaEvaluatorTest} holds
 * for the admission plugin's copy: the two must count alike.
 */
class QuotaEvaluatorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  private static String usage(GroupResource resource, String json) throws Exception {
    Map<String, Object> object = JSON.readValue(json, new TypeReference<>() {});
    StringBuilder out = new StringBuilder();
    QuotaEvaluator.of(resource)
        .usage(object, NOW)
        .forEach((k, v) -> out.append(out.isEmpty() ? "" : " ").append(k).append('=').append(v));
    return out.toString();
  }

  @Test
  void pods() throws Exception {
    GroupResource pods = GroupResource.of("", "pods");
    assertEquals(
        "count/pods=1 cpu=3 pods=1 requests.cpu=3",
        usage(
            pods,
            "{\"spec\":{\"initContainers\":[{\"restartPolicy\":\"Always\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"1\"}}},{\"resources\":{\"requests\":{\"cpu\":\"2\"}}}],"
                + "\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}"));
    assertEquals(
        "count/pods=1 cpu=2 limits.cpu=3 memory=100Mi pods=1 requests.cpu=2"
            + " requests.memory=100Mi",
        usage(
            pods,
            "{\"spec\":{\"overhead\":{\"cpu\":\"1\",\"memory\":\"100Mi\"},\"containers\":"
                + "[{\"resources\":{\"requests\":{\"cpu\":\"1\"},\"limits\":{\"cpu\":\"2\"}}}]}}"));
    assertEquals(
        "count/pods=1 hugepages-2Mi=100Mi pods=1 requests.example.com/dongle=3"
            + " requests.hugepages-2Mi=100Mi",
        usage(
            pods,
            "{\"spec\":{\"containers\":[{\"resources\":{\"requests\":{\"hugepages-2Mi\":"
                + "\"100Mi\",\"example.com/dongle\":\"3\"}}}]}}"));
    assertEquals(
        "count/pods=1",
        usage(pods, "{\"spec\":{\"containers\":[{}]},\"status\":{\"phase\":\"Failed\"}}"));
    assertEquals(
        "count/pods=1",
        usage(
            pods,
            "{\"metadata\":{\"deletionTimestamp\":\"2026-01-01T11:59:00Z\","
                + "\"deletionGracePeriodSeconds\":30},\"spec\":{\"containers\":[{}]}}"));
  }

  @Test
  void servicesClaimsAndCounts() throws Exception {
    assertEquals(
        "count/services=1 services=1 services.loadbalancers=1 services.nodeports=1",
        usage(
            GroupResource.of("", "services"),
            "{\"spec\":{\"type\":\"LoadBalancer\",\"allocateLoadBalancerNodePorts\":false,"
                + "\"ports\":[{\"port\":27443,\"nodePort\":32001},{\"port\":27444}]}}"));
    assertEquals(
        "count/persistentvolumeclaims=1 gold.storageclass.storage.k8s.io/"
            + "persistentvolumeclaims=1 gold.storageclass.storage.k8s.io/requests.storage=2"
            + " persistentvolumeclaims=1 requests.storage=2",
        usage(
            GroupResource.of("", "persistentvolumeclaims"),
            "{\"spec\":{\"storageClassName\":\"gold\",\"resources\":{\"requests\":{\"storage\":"
                + "\"1500m\"}}}}"));
    assertEquals(
        "configmaps=1 count/configmaps=1", usage(GroupResource.of("", "configmaps"), "{}"));
    assertEquals("count/deployments.apps=1", usage(GroupResource.of("apps", "deployments"), "{}"));
  }

  @Test
  void scopes() {
    QuotaEvaluator pods = QuotaEvaluator.of(GroupResource.of("", "pods"));
    Map<String, Object> bestEffort = Map.of("spec", Map.of("containers", List.of(Map.of())));
    assertTrue(pods.matchesScope(Map.of("scopeName", "BestEffort"), bestEffort));
    assertFalse(pods.matchesScope(Map.of("scopeName", "NotBestEffort"), bestEffort));
    assertTrue(
        pods.matchesScope(
            Map.of("scopeName", "PriorityClass", "operator", "DoesNotExist"), bestEffort));
    // A quota with a scope selects no object of another kind.
    assertFalse(
        QuotaEvaluator.of(GroupResource.of("", "services"))
            .matchesScope(Map.of("scopeName", "BestEffort"), Map.of()));
  }
}
