package dev.machinery.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.resource.Quantity;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The quota evaluators' usage, matching and constraints, as the tables of Kubernetes' {@code
 * pkg/quota/v1/evaluator/core} tests ({@code pods_test.go}, {@code services_test.go}, {@code
 * persistent_volume_claims_test.go}) and the generic object count give them.
 */
class QuotaEvaluatorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  private static Map<String, Object> tree(String json) {
    try {
      return JSON.readValue(json, new TypeReference<>() {});
    } catch (Exception e) {
      throw new IllegalArgumentException(json, e);
    }
  }

  private static String usage(QuotaEvaluator evaluator, String object) {
    StringBuilder out = new StringBuilder();
    evaluator
        .usage(tree(object), NOW)
        .forEach((k, v) -> out.append(out.isEmpty() ? "" : " ").append(k).append('=').append(v));
    return out.toString();
  }

  static Stream<Arguments> podUsage() {
    return Stream.of(
        Arguments.of(
            "init container CPU",
            "{\"spec\":{\"initContainers\":[{\"resources\":{\"requests\":{\"cpu\":\"1m\"},"
                + "\"limits\":{\"cpu\":\"2m\"}}}]}}",
            "count/pods=1 cpu=1m limits.cpu=2m pods=1 requests.cpu=1m"),
        Arguments.of(
            "init container hugepages",
            "{\"spec\":{\"initContainers\":[{\"resources\":{\"requests\":{\"hugepages-2Mi\":"
                + "\"100Mi\"}}}]}}",
            "count/pods=1 hugepages-2Mi=100Mi pods=1 requests.hugepages-2Mi=100Mi"),
        Arguments.of(
            "init container extended resources",
            "{\"spec\":{\"initContainers\":[{\"resources\":{\"requests\":{\"example.com/dongle\":"
                + "\"3\"},\"limits\":{\"example.com/dongle\":\"3\"}}}]}}",
            "count/pods=1 pods=1 requests.example.com/dongle=3"),
        Arguments.of(
            "the larger of the containers' sum and an init container",
            "{\"spec\":{\"initContainers\":[{\"resources\":{\"requests\":{\"memory\":\"1Gi\"}}}],"
                + "\"containers\":[{\"resources\":{\"requests\":{\"memory\":\"300Mi\",\"cpu\":"
                + "\"100m\"}}},{\"resources\":{\"requests\":{\"memory\":\"400Mi\"}}}]}}",
            "count/pods=1 cpu=100m memory=1Gi pods=1 requests.cpu=100m requests.memory=1Gi"),
        Arguments.of(
            "sidecars run beside later init containers and the containers",
            "{\"spec\":{\"initContainers\":[{\"restartPolicy\":\"Always\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"1\"}}},{\"resources\":{\"requests\":{\"cpu\":\"2\"}}}],"
                + "\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}",
            "count/pods=1 cpu=3 pods=1 requests.cpu=3"),
        Arguments.of(
            "overhead is added to requests and to limits that are set",
            "{\"spec\":{\"overhead\":{\"cpu\":\"1\",\"memory\":\"100Mi\"},\"containers\":"
                + "[{\"resources\":{\"requests\":{\"cpu\":\"1\"},\"limits\":{\"cpu\":\"2\"}}}]}}",
            "count/pods=1 cpu=2 limits.cpu=3 memory=100Mi pods=1 requests.cpu=2"
                + " requests.memory=100Mi"),
        Arguments.of(
            "ephemeral storage",
            "{\"spec\":{\"containers\":[{\"resources\":{\"requests\":{\"ephemeral-storage\":"
                + "\"32Mi\"},\"limits\":{\"ephemeral-storage\":\"64Mi\"}}}]}}",
            "count/pods=1 ephemeral-storage=32Mi limits.ephemeral-storage=64Mi pods=1"
                + " requests.ephemeral-storage=32Mi"),
        Arguments.of(
            "terminated generic count still appears",
            "{\"spec\":{\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},"
                + "\"status\":{\"phase\":\"Succeeded\"}}",
            "count/pods=1"),
        Arguments.of(
            "deletion grace period passed",
            "{\"metadata\":{\"deletionTimestamp\":\"2026-01-01T11:59:00Z\","
                + "\"deletionGracePeriodSeconds\":30},\"spec\":{\"containers\":[{}]}}",
            "count/pods=1"),
        Arguments.of(
            "deletion grace period not yet passed",
            "{\"metadata\":{\"deletionTimestamp\":\"2026-01-01T11:59:50Z\","
                + "\"deletionGracePeriodSeconds\":30},\"spec\":{\"containers\":[{}]}}",
            "count/pods=1 pods=1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void podUsage(String name, String pod, String expected) {
    assertEquals(expected, usage(QuotaEvaluator.of(GroupResource.of("", "pods")), pod));
  }

  @Test
  void podMatchingResources() {
    assertEquals(
        List.of(
            "pods",
            "count/pods",
            "requests.cpu",
            "hugepages-2Mi",
            "requests.hugepages-2Mi",
            "requests.example.com/dongle"),
        QuotaEvaluator.of(GroupResource.of("", "pods"))
            .matchingResources(
                List.of(
                    "pods",
                    "count/pods",
                    "requests.cpu",
                    "services",
                    "hugepages-2Mi",
                    "requests.hugepages-2Mi",
                    "requests.example.com/dongle",
                    "example.com/dongle",
                    "requests.storage")));
  }

  @Test
  void podConstraints() {
    QuotaEvaluator pods = QuotaEvaluator.of(GroupResource.of("", "pods"));
    String pod =
        "{\"spec\":{\"initContainers\":[{\"name\":\"i\",\"resources\":{\"requests\":{\"cpu\":"
            + "\"1m\",\"memory\":\"1Mi\"},\"limits\":{\"cpu\":\"2m\"}}}],\"containers\":[{\"name\":"
            + "\"a\",\"resources\":{\"requests\":{\"cpu\":\"1m\"}}},{\"name\":\"b\"}]}}";
    assertEquals(
        Optional.of(
            "must specify limits.cpu for: a,b; limits.memory for: a,b,i; requests.memory for: a,b"),
        pods.constraints(
            List.of("requests.memory", "limits.memory", "limits.cpu", "pods"), tree(pod)));
    // Only cpu and memory oblige containers; other resources never do.
    assertEquals(
        Optional.empty(),
        pods.constraints(List.of("requests.ephemeral-storage", "pods"), tree(pod)));
  }

  @Test
  void podScopes() {
    QuotaEvaluator pods = QuotaEvaluator.of(GroupResource.of("", "pods"));
    Map<String, Object> bestEffort = tree("{\"spec\":{\"containers\":[{}]}}");
    Map<String, Object> burstable =
        tree(
            "{\"spec\":{\"priorityClassName\":\"high\",\"activeDeadlineSeconds\":10,\"containers\":"
                + "[{\"resources\":{\"requests\":{\"memory\":\"1Mi\"}}}]}}");
    Map<String, Object> exists = Map.of("scopeName", "BestEffort", "operator", "Exists");
    assertTrue(pods.matchesScope(exists, bestEffort));
    assertFalse(pods.matchesScope(exists, burstable));
    assertTrue(pods.matchesScope(Map.of("scopeName", "Terminating"), burstable));
    assertFalse(pods.matchesScope(Map.of("scopeName", "NotTerminating"), burstable));
    Map<String, Object> in =
        Map.of("scopeName", "PriorityClass", "operator", "In", "values", List.of("high"));
    Map<String, Object> notIn =
        Map.of("scopeName", "PriorityClass", "operator", "NotIn", "values", List.of("high"));
    assertTrue(pods.matchesScope(in, burstable));
    assertFalse(pods.matchesScope(in, bestEffort));
    assertFalse(pods.matchesScope(notIn, burstable));
    assertTrue(pods.matchesScope(notIn, bestEffort));
    assertTrue(
        pods.matchesScope(
            Map.of("scopeName", "CrossNamespacePodAffinity"),
            tree(
                "{\"spec\":{\"affinity\":{\"podAntiAffinity\":{\"preferredDuringScheduling"
                    + "IgnoredDuringExecution\":[{\"weight\":1,\"podAffinityTerm\":"
                    + "{\"namespaceSelector\":{}}}]}}}}")));
    assertFalse(pods.matchesScope(Map.of("scopeName", "CrossNamespacePodAffinity"), burstable));
    Map<String, Object> none = Map.of("scopeName", "PriorityClass", "operator", "DoesNotExist");
    assertTrue(pods.matchesScope(none, bestEffort));
    assertFalse(pods.matchesScope(none, burstable));
    // A quota with a scope selects no object of another kind.
    assertFalse(
        QuotaEvaluator.of(GroupResource.of("", "services"))
            .matchesScope(Map.of("scopeName", "BestEffort"), Map.of()));
  }

  @Test
  void aQuotaMatchesWhenItTracksTheKindAndEachScopeSelectsTheObject() {
    QuotaEvaluator pods = QuotaEvaluator.of(GroupResource.of("", "pods"));
    Map<String, Object> bestEffort = tree("{\"spec\":{\"containers\":[{}]}}");
    Map<String, Quantity> podsHard = ResourceLists.of(tree("{\"pods\":\"3\"}"));
    Map<String, Quantity> servicesHard = ResourceLists.of(tree("{\"services\":\"3\"}"));
    Map<String, Object> scope = Map.of("scopeName", "BestEffort");
    Map<String, Object> notScope = Map.of("scopeName", "NotBestEffort");
    assertTrue(pods.matches(podsHard, List.of(), bestEffort));
    assertTrue(pods.matches(podsHard, List.of(scope), bestEffort));
    assertFalse(pods.matches(podsHard, List.of(scope, notScope), bestEffort));
    assertFalse(pods.matches(servicesHard, List.of(), bestEffort));
  }

  @Test
  void whichWritesAreCharged() {
    for (String resource : List.of("pods", "configmaps")) {
      QuotaEvaluator evaluator = QuotaEvaluator.of(GroupResource.of("", resource));
      assertTrue(evaluator.handles("CREATE"), resource);
      assertFalse(evaluator.handles("UPDATE"), resource);
      assertFalse(evaluator.handles("DELETE"), resource);
    }
    for (String resource : List.of("services", "persistentvolumeclaims")) {
      QuotaEvaluator evaluator = QuotaEvaluator.of(GroupResource.of("", resource));
      assertTrue(evaluator.handles("CREATE"), resource);
      assertTrue(evaluator.handles("UPDATE"), resource);
      assertFalse(evaluator.handles("DELETE"), resource);
    }
    assertEquals(
        GroupResource.of("apps", "deployments"),
        QuotaEvaluator.of(GroupResource.of("apps", "deployments")).groupResource());
  }

  static Stream<Arguments> serviceUsage() {
    return Stream.of(
        Arguments.of(
            "{\"spec\":{\"type\":\"ClusterIP\"}}",
            "count/services=1 services=1 services.loadbalancers=0 services.nodeports=0"),
        Arguments.of(
            "{\"spec\":{\"type\":\"NodePort\",\"ports\":[{\"port\":27443}]}}",
            "count/services=1 services=1 services.loadbalancers=0 services.nodeports=1"),
        Arguments.of(
            "{\"spec\":{\"type\":\"LoadBalancer\",\"ports\":[{\"port\":27443},{\"port\":27444}]}}",
            "count/services=1 services=1 services.loadbalancers=1 services.nodeports=2"),
        Arguments.of(
            "{\"spec\":{\"type\":\"LoadBalancer\",\"allocateLoadBalancerNodePorts\":false,"
                + "\"ports\":[{\"port\":27443,\"nodePort\":32001},{\"port\":27444}]}}",
            "count/services=1 services=1 services.loadbalancers=1 services.nodeports=1"));
  }

  @ParameterizedTest
  @MethodSource
  void serviceUsage(String service, String expected) {
    assertEquals(expected, usage(QuotaEvaluator.of(GroupResource.of("", "services")), service));
  }

  static Stream<Arguments> claimUsage() {
    return Stream.of(
        Arguments.of(
            "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"10Gi\"}}}}",
            "count/persistentvolumeclaims=1 persistentvolumeclaims=1 requests.storage=10Gi"),
        Arguments.of(
            "{\"spec\":{\"storageClassName\":\"gold\",\"resources\":{\"requests\":{\"storage\":"
                + "\"10Gi\"}}}}",
            "count/persistentvolumeclaims=1 gold.storageclass.storage.k8s.io/"
                + "persistentvolumeclaims=1 gold.storageclass.storage.k8s.io/requests.storage=10Gi"
                + " persistentvolumeclaims=1 requests.storage=10Gi"),
        Arguments.of(
            "{\"metadata\":{\"annotations\":{\"volume.beta.kubernetes.io/storage-class\":"
                + "\"silver\"}},\"spec\":{\"storageClassName\":\"gold\",\"resources\":{\"requests\":"
                + "{\"storage\":\"1Gi\"}}}}",
            "count/persistentvolumeclaims=1 persistentvolumeclaims=1 requests.storage=1Gi"
                + " silver.storageclass.storage.k8s.io/persistentvolumeclaims=1"
                + " silver.storageclass.storage.k8s.io/requests.storage=1Gi"),
        Arguments.of(
            "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}},\"status\":"
                + "{\"allocatedResources\":{\"storage\":\"2Gi\"}}}",
            "count/persistentvolumeclaims=1 persistentvolumeclaims=1 requests.storage=2Gi"),
        Arguments.of(
            "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1500m\"}}}}",
            "count/persistentvolumeclaims=1 persistentvolumeclaims=1 requests.storage=2"));
  }

  @ParameterizedTest
  @MethodSource
  void claimUsage(String claim, String expected) {
    assertEquals(
        expected, usage(QuotaEvaluator.of(GroupResource.of("", "persistentvolumeclaims")), claim));
  }

  @Test
  void claimMatchingResources() {
    assertEquals(
        List.of(
            "count/persistentvolumeclaims",
            "requests.storage",
            "gold.storageclass.storage.k8s.io/requests.storage",
            "gold.storageclass.storage.k8s.io/persistentvolumeclaims"),
        QuotaEvaluator.of(GroupResource.of("", "persistentvolumeclaims"))
            .matchingResources(
                List.of(
                    "count/persistentvolumeclaims",
                    "requests.storage",
                    "gold.storageclass.storage.k8s.io/requests.storage",
                    "gold.storageclass.storage.k8s.io/persistentvolumeclaims",
                    "pods")));
  }

  @Test
  void objectCounts() {
    QuotaEvaluator deployments = QuotaEvaluator.of(GroupResource.of("apps", "deployments"));
    assertEquals("count/deployments.apps=1", usage(deployments, "{}"));
    assertTrue(deployments.handles("CREATE"));
    assertFalse(deployments.handles("UPDATE"));
    assertEquals(
        "configmaps=1 count/configmaps=1",
        usage(QuotaEvaluator.of(GroupResource.of("", "configmaps")), "{}"));
    assertEquals(
        "count/serviceaccounts=1",
        usage(QuotaEvaluator.of(GroupResource.of("", "serviceaccounts")), "{}"));
    assertEquals(
        List.of("count/deployments.apps"),
        deployments.matchingResources(List.of("count/deployments.apps", "count/deployments")));
  }
}
