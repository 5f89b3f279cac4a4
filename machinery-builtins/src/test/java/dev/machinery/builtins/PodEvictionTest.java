package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.unversioned.errors.StatusException;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The eviction rules of kube-apiserver's {@code EvictionREST}, cases of Go's {@code
 * eviction_test.go}: which pods skip the budget ({@code TestEvictionIgnorePDB}), when an unhealthy
 * pod may go ({@code TestEvictionPDBStatus}, the {@code unhealthyPodEvictionPolicy} cases), and
 * {@code checkAndDecrement}'s refusals and decrement.
 */
class PodEvictionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode pod(String phase, boolean ready, boolean deleting) throws Exception {
    String json =
        "{\"metadata\":{\"name\":\"p\""
            + (deleting ? ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"" : "")
            + "},\"status\":{\"phase\":\""
            + phase
            + "\",\"conditions\":[{\"type\":\"Ready\",\"status\":\""
            + (ready ? "True" : "False")
            + "\"}]}}";
    return JSON.readTree(json);
  }

  private static ObjectNode budget(
      String policy, int current, int desired, int allowed, long generation, long observed)
      throws Exception {
    return (ObjectNode)
        JSON.readTree(
            "{\"metadata\":{\"name\":\"pdb\",\"generation\":"
                + generation
                + "},\"spec\":{"
                + (policy == null ? "" : "\"unhealthyPodEvictionPolicy\":\"" + policy + "\"")
                + "},\"status\":{\"currentHealthy\":"
                + current
                + ",\"desiredHealthy\":"
                + desired
                + ",\"disruptionsAllowed\":"
                + allowed
                + ",\"observedGeneration\":"
                + observed
                + ",\"conditions\":[{\"type\":\"DisruptionAllowed\",\"status\":\"True\","
                + "\"reason\":\"SufficientPods\",\"message\":\"\"}]}}");
  }

  static Stream<Arguments> ignoresBudget() throws Exception {
    return Stream.of(
        Arguments.of("Pending pod", pod("Pending", false, false), true),
        Arguments.of("Succeeded pod", pod("Succeeded", false, false), true),
        Arguments.of("Failed pod", pod("Failed", false, false), true),
        Arguments.of("Running pod being deleted", pod("Running", true, true), true),
        Arguments.of("Running pod", pod("Running", true, false), false),
        Arguments.of("Running unready pod", pod("Running", false, false), false),
        Arguments.of("Unknown phase", pod("Unknown", false, false), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void ignoresBudget(String name, JsonNode pod, boolean expected) {
    assertEquals(expected, PodEviction.canIgnoreBudget(pod), name);
  }

  static Stream<Arguments> unhealthy() throws Exception {
    return Stream.of(
        // policy, pod ready, current, desired, expected
        Arguments.of("IfHealthyBudget default, budget healthy", null, false, 2, 2, true),
        Arguments.of("IfHealthyBudget, budget unhealthy", "IfHealthyBudget", false, 1, 2, false),
        Arguments.of("IfHealthyBudget, desired 0", "IfHealthyBudget", false, 0, 0, false),
        Arguments.of("AlwaysAllow, budget unhealthy", "AlwaysAllow", false, 0, 3, true),
        Arguments.of("AlwaysAllow, ready pod spends the budget", "AlwaysAllow", true, 5, 3, false),
        Arguments.of("IfHealthyBudget, ready pod spends the budget", null, true, 5, 3, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void unhealthy(
      String name, String policy, boolean ready, int current, int desired, boolean expected)
      throws Exception {
    assertEquals(
        expected,
        PodEviction.mayEvictUnhealthy(
            pod("Running", ready, false), budget(policy, current, desired, 0, 1, 1)),
        name);
  }

  @Test
  void checkAndDecrementRefusesInKubesWords() throws Exception {
    Instant now = Instant.parse("2026-02-03T04:05:06.789Z");
    StatusException none =
        assertThrows(
            StatusException.class,
            () -> PodEviction.checkAndDecrement(budget(null, 3, 3, 0, 1, 1), "p", now));
    assertEquals(429, none.statusCode());
    assertEquals(PodEviction.TOO_MANY, none.getMessage());
    assertEquals("DisruptionBudget", none.status().getDetails().getCauses().get(0).getReason());
    assertEquals(
        "The disruption budget pdb needs 3 healthy pods and has 3 currently",
        none.status().getDetails().getCauses().get(0).getMessage());
    assertEquals(0, none.status().getDetails().getRetryAfterSeconds());

    StatusException stale =
        assertThrows(
            StatusException.class,
            () -> PodEviction.checkAndDecrement(budget(null, 3, 1, 2, 2, 1), "p", now));
    assertEquals(429, stale.statusCode());
    assertEquals(10, stale.status().getDetails().getRetryAfterSeconds());
    assertEquals(
        "The disruption budget pdb is still being processed by the server.",
        stale.status().getDetails().getCauses().get(0).getMessage());

    StatusException negative =
        assertThrows(
            StatusException.class,
            () -> PodEviction.checkAndDecrement(budget(null, 3, 1, -1, 1, 1), "p", now));
    assertEquals(403, negative.statusCode());
    assertEquals(
        "poddisruptionbudget.policy \"pdb\" is forbidden: pdb disruptions allowed is negative",
        negative.getMessage());
  }

  @Test
  void checkAndDecrementSpendsOneAndRecordsThePod() throws Exception {
    Instant now = Instant.parse("2026-02-03T04:05:06.789Z");
    ObjectNode budget = budget(null, 3, 1, 2, 1, 1);
    ObjectNode spent = PodEviction.checkAndDecrement(budget, "p", now);
    assertEquals(1, spent.path("status").path("disruptionsAllowed").asInt());
    assertEquals(
        "2026-02-03T04:05:06Z", spent.path("status").path("disruptedPods").path("p").asText());
    assertEquals("True", spent.path("status").path("conditions").get(0).path("status").asText());
    // The stored budget is not changed.
    assertEquals(2, budget.path("status").path("disruptionsAllowed").asInt());

    ObjectNode last = PodEviction.checkAndDecrement(budget(null, 2, 1, 1, 1, 1), "q", now);
    assertEquals(0, last.path("status").path("disruptionsAllowed").asInt());
    JsonNode condition = last.path("status").path("conditions").get(0);
    assertEquals("False", condition.path("status").asText());
    assertEquals("InsufficientPods", condition.path("reason").asText());
  }
}
