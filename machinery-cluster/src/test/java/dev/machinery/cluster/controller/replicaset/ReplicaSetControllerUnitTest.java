package dev.machinery.cluster.controller.replicaset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.api.apps.v1.ReplicaSetCondition;
import dev.machinery.api.apps.v1.ReplicaSetSpec;
import dev.machinery.api.apps.v1.ReplicaSetStatus;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.PodStatus;
import dev.machinery.api.core.v1.PodTemplateSpec;
import dev.machinery.controller.clock.FakeClock;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kubernetes' replica_set_test.go ({@code TestSlowStartBatch}) and replica_set_utils_test.go
 * tables.
 */
class ReplicaSetControllerUnitTest {
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private final ExecutorService executor = ReplicaSetController.workers("test");
  private final FakeClock clock = new FakeClock(NOW);
  private final ReplicaSetController controller =
      new ReplicaSetController(null, null, null, null, clock, executor);

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // 1 (first batch): 1 fails
    "callLimit = 0 (all fail), 10, 0, 0, true, 1",
    // 1 + 2 + 4 + 3 = 10
    "callLimit = count (all succeed), 10, 10, 10, false, 10",
    // 1 + 2 + 4 = 7
    "callLimit < count (some succeed), 10, 5, 5, true, 7",
  })
  void slowStartBatch(
      String name, int count, int callLimit, int successes, boolean failed, int calls)
      throws Exception {
    AtomicInteger callCount = new AtomicInteger();
    Exception fake = new IllegalStateException("fake error");
    int[] result = new int[1];
    Exception error =
        controller.slowStartBatch(
            count,
            ReplicaSetController.SLOW_START_INITIAL_BATCH_SIZE,
            () -> {
              if (callCount.incrementAndGet() > callLimit) {
                throw fake;
              }
            },
            result);
    assertEquals(successes, result[0]);
    assertEquals(calls, callCount.get());
    if (failed) {
      assertSame(fake, error);
    } else {
      assertNull(error);
    }
  }

  static ReplicaSet rs(int replicas, int minReadySeconds) {
    ReplicaSet rs = new ReplicaSet();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("rs");
    meta.setNamespace("default");
    meta.setGeneration(1);
    rs.setMetadata(meta);
    ReplicaSetSpec spec = new ReplicaSetSpec();
    spec.setReplicas(replicas);
    spec.setMinReadySeconds(minReadySeconds);
    LabelSelector selector = new LabelSelector();
    selector.setMatchLabels(Map.of("name", "rs"));
    spec.setSelector(selector);
    PodTemplateSpec template = new PodTemplateSpec();
    ObjectMeta templateMeta = new ObjectMeta();
    templateMeta.setLabels(Map.of("name", "rs", "type", "production"));
    template.setMetadata(templateMeta);
    template.setSpec(new PodSpec());
    spec.setTemplate(template);
    rs.setSpec(spec);
    return rs;
  }

  static Pod pod(Map<String, String> labels, boolean ready, Instant readySince) {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("p");
    meta.setLabels(labels);
    pod.setMetadata(meta);
    PodStatus status = new PodStatus();
    status.setPhase("Running");
    if (ready) {
      PodCondition c = new PodCondition();
      c.setType("Ready");
      c.setStatus("True");
      c.setLastTransitionTime(new Time(readySince));
      status.setConditions(List.of(c));
    }
    pod.setStatus(status);
    return pod;
  }

  static final Map<String, String> FULL = Map.of("name", "rs", "type", "production");
  static final Map<String, String> PARTIAL = Map.of("name", "rs");

  @Test
  void statusCountsFullyLabeledReadyAndAvailablePods() {
    ReplicaSetStatus one =
        controller.calculateStatus(rs(1, 0), List.of(pod(FULL, true, NOW)), null);
    assertEquals(List.of(1, 1, 1, 1), counts(one));
    ReplicaSetStatus partial =
        controller.calculateStatus(rs(1, 0), List.of(pod(PARTIAL, true, NOW)), null);
    assertEquals(List.of(1, 0, 1, 1), counts(partial));
    ReplicaSetStatus mixed =
        controller.calculateStatus(
            rs(4, 0),
            List.of(
                pod(FULL, true, NOW),
                pod(FULL, false, NOW),
                pod(PARTIAL, true, NOW),
                pod(PARTIAL, false, NOW)),
            null);
    assertEquals(List.of(4, 2, 2, 2), counts(mixed));
    // Ready for 10s, but minReadySeconds is 30: ready, not yet available.
    ReplicaSetStatus notYet =
        controller.calculateStatus(rs(1, 30), List.of(pod(FULL, true, NOW.minusSeconds(10))), null);
    assertEquals(List.of(1, 1, 1, 0), counts(notYet));
    ReplicaSetStatus available =
        controller.calculateStatus(rs(1, 30), List.of(pod(FULL, true, NOW.minusSeconds(31))), null);
    assertEquals(List.of(1, 1, 1, 1), counts(available));
  }

  private static List<Integer> counts(ReplicaSetStatus s) {
    return List.of(
        s.getReplicas(),
        s.getFullyLabeledReplicas(),
        s.getReadyReplicas(),
        s.getAvailableReplicas());
  }

  @Test
  void aFailureToManageReplicasIsAReplicaFailureConditionUntilItClears() {
    ReplicaSet rs = rs(2, 0);
    ReplicaSetStatus failed =
        controller.calculateStatus(
            rs, List.of(), new IllegalStateException("fake manageReplicasErr"));
    ReplicaSetCondition condition = failed.getConditions().get(0);
    assertEquals("ReplicaFailure", condition.getType());
    assertEquals("True", condition.getStatus());
    assertEquals("FailedCreate", condition.getReason());
    assertEquals("fake manageReplicasErr", condition.getMessage());
    ReplicaSet tooMany = rs(0, 0);
    assertEquals(
        "FailedDelete",
        controller
            .calculateStatus(
                tooMany, List.of(pod(FULL, false, NOW)), new IllegalStateException("x"))
            .getConditions()
            .get(0)
            .getReason());
    rs.setStatus(failed);
    // The condition stays while failures go on, and goes when a sync succeeds.
    assertEquals(
        1,
        controller
            .calculateStatus(rs, List.of(), new IllegalStateException("again"))
            .getConditions()
            .size());
    assertNull(controller.calculateStatus(rs, List.of(), null).getConditions());
  }
}
