package dev.machinery.cluster.controller.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.core.v1.ContainerStatus;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.PodStatus;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The deletion order of Kubernetes' controller_utils_test.go ({@code TestSortingActivePods}, {@code
 * TestSortingActivePodsWithRanks}) and replica_set_test.go ({@code TestGetPodsToDelete}).
 */
class ActivePodsTest {
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  static final Instant THEN = NOW.minus(Duration.ofDays(30));

  static Pod pod(
      String name,
      String node,
      String phase,
      boolean ready,
      int restarts,
      Instant readySince,
      Instant created,
      Map<String, String> annotations) {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace("default");
    meta.setUid(name);
    meta.setCreationTimestamp(created);
    meta.setAnnotations(annotations);
    pod.setMetadata(meta);
    PodSpec spec = new PodSpec();
    spec.setNodeName(node);
    pod.setSpec(spec);
    PodStatus status = new PodStatus();
    status.setPhase(phase);
    if (ready) {
      PodCondition condition = new PodCondition();
      condition.setType("Ready");
      condition.setStatus("True");
      condition.setLastTransitionTime(readySince == null ? null : new Time(readySince));
      status.setConditions(List.of(condition));
    }
    ContainerStatus container = new ContainerStatus();
    container.setRestartCount(restarts);
    status.setContainerStatuses(List.of(container));
    pod.setStatus(status);
    return pod;
  }

  static final Pod UNSCHEDULED = pod("unscheduled", "", "Pending", false, 0, null, null, null);
  static final Pod SCHEDULED_PENDING =
      pod("pending", "node", "Pending", false, 0, null, null, null);
  static final Pod UNKNOWN_PHASE =
      pod("unknown-phase", "node", "Unknown", false, 0, null, null, null);
  static final Pod RUNNING_NOT_READY =
      pod("not-ready", "node", "Running", false, 0, null, null, null);
  static final Pod READY_NOW = pod("ready-now", "node", "Running", true, 0, NOW, NOW, null);
  static final Pod READY_THEN = pod("ready-then", "node", "Running", true, 0, THEN, THEN, null);
  static final Pod READY_NOW_HIGH_RESTARTS =
      pod("ready-high-restarts", "node", "Running", true, 9001, NOW, NOW, null);
  static final Pod READY_NOW_CREATED_THEN =
      pod("ready-now-created-then", "node", "Running", true, 0, NOW, THEN, null);
  static final Pod LOW_COST =
      pod(
          "low-deletion-cost",
          "node",
          "Running",
          true,
          0,
          NOW,
          THEN,
          Map.of(ActivePods.DELETION_COST, "10"));
  static final Pod HIGH_COST =
      pod(
          "high-deletion-cost",
          "node",
          "Running",
          true,
          0,
          NOW,
          THEN,
          Map.of(ActivePods.DELETION_COST, "100"));

  private static boolean less(Pod a, Pod b, Instant now) {
    List<Pod> pods = List.of(a, b);
    return ActivePods.sorted(pods, new int[2], now).get(0) == a
        && !ActivePods.sorted(List.of(b, a), new int[2], now).get(0).equals(b);
  }

  @Test
  void lesserPodsGoFirst() {
    Pod[][] pairs = {
      {UNSCHEDULED, SCHEDULED_PENDING},
      {SCHEDULED_PENDING, UNKNOWN_PHASE},
      {UNKNOWN_PHASE, RUNNING_NOT_READY},
      {RUNNING_NOT_READY, READY_NOW},
      {READY_NOW, READY_THEN},
      {READY_NOW_HIGH_RESTARTS, READY_NOW},
      {READY_NOW, READY_NOW_CREATED_THEN},
      {LOW_COST, HIGH_COST},
    };
    for (Instant now : new Instant[] {null, NOW.plusSeconds(60)}) {
      for (Pod[] pair : pairs) {
        assertTrue(
            less(pair[0], pair[1], now),
            pair[0].getMetadata().getName() + " before " + pair[1].getMetadata().getName());
      }
    }
  }

  @Test
  void aShuffledListSortsIntoTheOrder() {
    List<Pod> expected =
        List.of(
            UNSCHEDULED,
            SCHEDULED_PENDING,
            UNKNOWN_PHASE,
            RUNNING_NOT_READY,
            READY_NOW_HIGH_RESTARTS,
            READY_NOW,
            READY_THEN);
    for (int seed = 0; seed < 20; seed++) {
      List<Pod> shuffled = new ArrayList<>(expected);
      Collections.shuffle(shuffled, new Random(seed));
      assertEquals(expected, ActivePods.sorted(shuffled, new int[shuffled.size()], null));
    }
  }

  @Test
  void podsDoubledUpOnANodeGoFirst() {
    Pod alone = pod("alone", "node-a", "Running", true, 0, NOW, NOW, null);
    Pod doubled = pod("doubled", "node-b", "Running", true, 0, NOW, NOW, null);
    Pod sibling = pod("sibling", "node-b", "Running", true, 0, NOW, NOW, null);
    List<Pod> order =
        ActivePods.rankedForDeletion(
            List.of(alone, doubled), List.of(alone, doubled, sibling), NOW);
    assertEquals(List.of(doubled, alone), order);
  }

  @Test
  void readyTimesInTheSameLogarithmicBucketAreTiedByUid() {
    Instant now = NOW.plus(Duration.ofHours(10));
    // Ready 10h and 9h59m ago: the same power-of-two bucket of nanoseconds; the UID decides.
    Pod b = pod("b", "node", "Running", true, 0, NOW, NOW, null);
    Pod a = pod("a", "node", "Running", true, 0, NOW.plusSeconds(60), NOW, null);
    assertEquals(List.of(a, b), ActivePods.sorted(List.of(b, a), new int[2], now));
    // Without a time to judge against, the newer ready time goes first.
    assertEquals(List.of(a, b), ActivePods.sorted(List.of(b, a), new int[2], null));
    Pod c = pod("c", "node", "Running", true, 0, NOW.plusSeconds(60), NOW, null);
    assertEquals(List.of(b, c), ActivePods.sorted(List.of(c, b), new int[2], now));
  }

  @Test
  void deletionCostIsAnInt32AndInvalidValuesCountAsZero() {
    assertEquals(10, ActivePods.deletionCost(LOW_COST));
    assertEquals(0, ActivePods.deletionCost(READY_NOW));
    assertEquals(
        0,
        ActivePods.deletionCost(
            pod("bad", "n", "Running", true, 0, NOW, NOW, Map.of(ActivePods.DELETION_COST, "x"))));
    assertEquals(
        -5,
        ActivePods.deletionCost(
            pod("neg", "n", "Running", true, 0, NOW, NOW, Map.of(ActivePods.DELETION_COST, "-5"))));
  }

  @Test
  void podPredicates() {
    assertTrue(Pods.isActive(READY_NOW));
    assertFalse(Pods.isActive(pod("done", "n", "Succeeded", false, 0, null, null, null)));
    assertFalse(Pods.isActive(pod("failed", "n", "Failed", false, 0, null, null, null)));
    Pod deleting = pod("deleting", "n", "Running", true, 0, NOW, NOW, null);
    deleting.getMetadata().setDeletionTimestamp(NOW);
    assertFalse(Pods.isActive(deleting));
    assertTrue(Pods.isReady(READY_NOW));
    assertFalse(Pods.isReady(RUNNING_NOT_READY));
    // Available: ready, and ready for longer than minReadySeconds.
    assertTrue(Pods.isAvailable(READY_NOW, 0, NOW));
    assertFalse(Pods.isAvailable(READY_NOW, 10, NOW.plusSeconds(10)));
    assertTrue(Pods.isAvailable(READY_NOW, 10, NOW.plusSeconds(11)));
    assertFalse(Pods.isAvailable(RUNNING_NOT_READY, 0, NOW));
    assertEquals(9001, Pods.maxContainerRestarts(READY_NOW_HIGH_RESTARTS));
  }
}
