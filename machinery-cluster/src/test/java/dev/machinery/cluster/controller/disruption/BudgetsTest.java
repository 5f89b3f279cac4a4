package dev.machinery.cluster.controller.disruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodStatus;
import dev.machinery.api.policy.v1.PodDisruptionBudget;
import dev.machinery.api.policy.v1.PodDisruptionBudgetSpec;
import dev.machinery.api.policy.v1.PodDisruptionBudgetStatus;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The budget arithmetic, with the facts of Go's {@code disruption_test.go}: {@code
 * TestIntegerMinAvailable}, {@code TestUnavailable}, {@code TestNakedPod}, {@code TestReplicaSet},
 * {@code TestMultipleControllers} (one scale per controller), {@code
 * TestIntegerMaxUnavailableWithScaling}, {@code TestPercentageMaxUnavailableWithScaling} and the
 * disrupted-pods timeout.
 */
class BudgetsTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static Pod pod(String name, String ownerUid, boolean ready) {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace("ns");
    if (ownerUid != null) {
      OwnerReference owner = new OwnerReference();
      owner.setApiVersion("apps/v1");
      owner.setKind("ReplicaSet");
      owner.setName("rs-" + ownerUid);
      owner.setUid(ownerUid);
      owner.setController(true);
      meta.setOwnerReferences(List.of(owner));
    }
    pod.setMetadata(meta);
    PodStatus status = new PodStatus();
    PodCondition condition = new PodCondition();
    condition.setType("Ready");
    condition.setStatus(ready ? "True" : "False");
    status.setConditions(List.of(condition));
    pod.setStatus(status);
    return pod;
  }

  private static List<Pod> pods(int count, String ownerUid) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pods.add(pod("p-" + ownerUid + "-" + i, ownerUid, true));
    }
    return pods;
  }

  private static PodDisruptionBudget pdb(IntOrString minAvailable, IntOrString maxUnavailable) {
    PodDisruptionBudget pdb = new PodDisruptionBudget();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("pdb");
    meta.setNamespace("ns");
    pdb.setMetadata(meta);
    PodDisruptionBudgetSpec spec = new PodDisruptionBudgetSpec();
    spec.setMinAvailable(minAvailable);
    spec.setMaxUnavailable(maxUnavailable);
    pdb.setSpec(spec);
    return pdb;
  }

  /** Scales by controller uid. */
  private static Budgets.ScaleFinder scales(Map<String, Integer> byUid) {
    return (namespace, controller) -> byUid.get(controller.getUid());
  }

  static Stream<Arguments> table() {
    return Stream.of(
        // name, pdb, pods, scales, expected, desired, healthy, allowed
        Arguments.of(
            "minAvailable 3 of 4 healthy pods (TestIntegerMinAvailable)",
            pdb(IntOrString.ofInt(3), null),
            pods(4, null),
            Map.of(),
            4,
            3,
            4,
            1),
        Arguments.of(
            "minAvailable 3 of 3 (none allowed)",
            pdb(IntOrString.ofInt(3), null),
            pods(3, null),
            Map.of(),
            3,
            3,
            3,
            0),
        Arguments.of(
            "minAvailable 1, naked pod (TestNakedPod)",
            pdb(IntOrString.ofInt(1), null),
            pods(1, null),
            Map.of(),
            1,
            1,
            1,
            0),
        Arguments.of(
            "minAvailable 28% of a ReplicaSet of 10 (TestReplicaSet)",
            pdb(IntOrString.ofString("28%"), null), pods(10, "a"), Map.of("a", 10), 10, 3, 10, 7),
        Arguments.of(
            "minAvailable 100% of two controllers of 1 and 1 (TestMultipleControllers)",
            pdb(IntOrString.ofString("100%"), null),
            concat(pods(1, "a"), pods(1, "b")),
            Map.of("a", 1, "b", 1),
            2,
            2,
            2,
            0),
        Arguments.of(
            "maxUnavailable 2 of 3 (TestUnavailable)",
            pdb(null, IntOrString.ofInt(2)),
            pods(3, "a"),
            Map.of("a", 3),
            3,
            1,
            3,
            2),
        Arguments.of(
            "maxUnavailable 1, scale 5 with 3 pods (TestIntegerMaxUnavailableWithScaling)",
            pdb(null, IntOrString.ofInt(1)),
            pods(3, "a"),
            Map.of("a", 5),
            5,
            4,
            3,
            0),
        Arguments.of(
            "maxUnavailable 30% of scale 7, rounded up (TestPercentageMaxUnavailableWithScaling)",
            pdb(null, IntOrString.ofString("30%")), pods(3, "a"), Map.of("a", 7), 7, 4, 3, 0),
        Arguments.of(
            "maxUnavailable larger than the scale: desired 0",
            pdb(null, IntOrString.ofInt(9)),
            pods(2, "a"),
            Map.of("a", 2),
            2,
            0,
            2,
            2),
        Arguments.of(
            "no pods: nothing allowed (expected 0)",
            pdb(IntOrString.ofInt(0), null),
            List.of(),
            Map.of(),
            0,
            0,
            0,
            0));
  }

  private static List<Pod> concat(List<Pod> a, List<Pod> b) {
    List<Pod> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void status(
      String name,
      PodDisruptionBudget pdb,
      List<Pod> pods,
      Map<String, Integer> scales,
      int expected,
      int desired,
      int healthy,
      int allowed) {
    Budgets.Expected result = Budgets.expected(pdb, pods, scales(scales));
    assertEquals(expected, result.expectedCount(), name + ": expected");
    assertEquals(desired, result.desiredHealthy(), name + ": desired");
    int current = Budgets.currentHealthy(pods, Map.of(), NOW);
    assertEquals(healthy, current, name + ": healthy");
    assertEquals(
        allowed, Budgets.disruptionsAllowed(current, desired, expected), name + ": allowed");
  }

  @Test
  void aPodWhoseControllerIsUnknownFailsTheSync() {
    Budgets.SyncFailure failure =
        assertThrows(
            Budgets.SyncFailure.class,
            () ->
                Budgets.expected(
                    pdb(null, IntOrString.ofInt(1)), pods(1, "gone"), scales(Map.of())));
    assertEquals("found no controllers for pod \"p-gone-0\"", failure.getMessage());
  }

  @Test
  void unmanagedPodsAreLeftOutOfAPercentage() {
    List<Pod> pods = concat(pods(2, "a"), List.of(pod("naked", null, true)));
    Budgets.Expected result =
        Budgets.expected(pdb(IntOrString.ofString("50%"), null), pods, scales(Map.of("a", 2)));
    assertEquals(2, result.expectedCount());
    assertEquals(1, result.desiredHealthy());
    assertEquals(List.of("naked"), result.unmanagedPods());
  }

  @Test
  void disruptedPodsCountAsUnhealthyForTwoMinutes() {
    List<Pod> pods = pods(3, "a");
    PodDisruptionBudget pdb = pdb(IntOrString.ofInt(2), null);
    PodDisruptionBudgetStatus status = new PodDisruptionBudgetStatus();
    status.setDisruptedPods(
        Map.of(
            "p-a-0", new Time(NOW.minusSeconds(30)),
            "p-a-1", new Time(NOW.minus(Duration.ofMinutes(3))),
            "missing", new Time(NOW)));
    pdb.setStatus(status);
    Budgets.Disrupted disrupted = Budgets.disrupted(pdb, pods, NOW);
    // The recent one stays; the timed-out one and the one whose pod is gone are dropped.
    assertEquals(List.of("p-a-0"), List.copyOf(disrupted.pods().keySet()));
    assertEquals(NOW.minusSeconds(30).plus(Budgets.DELETION_TIMEOUT), disrupted.recheck());
    assertEquals(2, Budgets.currentHealthy(pods, disrupted.pods(), NOW));
  }

  @Test
  void aBadPercentageFailsTheSync() {
    Budgets.SyncFailure failure =
        assertThrows(
            Budgets.SyncFailure.class,
            () ->
                Budgets.expected(
                    pdb(IntOrString.ofString("ten"), null), pods(1, "a"), scales(Map.of("a", 1))));
    // Kube's words (intstr.GetScaledValueFromIntOrPercent), which the SyncFailed condition carries.
    assertEquals(
        "invalid value for IntOrString: invalid type: string is not a percentage",
        failure.getMessage());
  }
}
