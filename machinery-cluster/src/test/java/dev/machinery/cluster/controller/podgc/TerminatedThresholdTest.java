package dev.machinery.cluster.controller.podgc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodStatus;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The pod GC's terminated-pod threshold (gc_controller_test's {@code TestGCTerminated}). */
class TerminatedThresholdTest {
  static Pod pod(String name, String phase, int secondsAfterEpoch, boolean deleting) {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace("default");
    meta.setCreationTimestamp(Instant.ofEpochSecond(secondsAfterEpoch));
    if (deleting) {
      meta.setDeletionTimestamp(Instant.ofEpochSecond(1000));
    }
    pod.setMetadata(meta);
    PodStatus status = new PodStatus();
    status.setPhase(phase);
    pod.setStatus(status);
    return pod;
  }

  static List<String> names(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toList());
  }

  @Test
  void theOldestTerminatedPodsBeyondTheThresholdGo() {
    List<Pod> pods =
        List.of(
            pod("a", "Failed", 3, false),
            pod("b", "Succeeded", 1, false),
            pod("c", "Running", 0, false),
            pod("d", "Failed", 2, false),
            pod("e", "Failed", 0, true));
    assertEquals(List.of("b"), names(PodGarbageCollector.terminatedOverThreshold(pods, 2)));
    assertEquals(List.of("b", "d"), names(PodGarbageCollector.terminatedOverThreshold(pods, 1)));
    assertEquals(List.of(), names(PodGarbageCollector.terminatedOverThreshold(pods, 3)));
    assertEquals(List.of(), names(PodGarbageCollector.terminatedOverThreshold(pods, 0)));
  }
}
