package dev.machinery.cluster.controller.util;

import dev.machinery.api.core.v1.ContainerStatus;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Predicates on pods, as Kubernetes' {@code pkg/api/v1/pod} ({@code IsPodReady}, {@code
 * IsPodAvailable}) and {@code pkg/controller} ({@code IsPodActive}) define them.
 *
 * <p>Stateless, thread-safe.
 */
public final class Pods {
  /** Phase {@code Pending}. */
  public static final String PENDING = "Pending";

  /** Phase {@code Running}. */
  public static final String RUNNING = "Running";

  /** Phase {@code Succeeded}. */
  public static final String SUCCEEDED = "Succeeded";

  /** Phase {@code Failed}. */
  public static final String FAILED = "Failed";

  /** Phase {@code Unknown}. */
  public static final String UNKNOWN = "Unknown";

  /** The pod condition {@code Ready}. */
  public static final String READY = "Ready";

  private Pods() {}

  /**
   * Tells whether a pod still counts for its controller: neither {@code Succeeded} nor {@code
   * Failed}, and not being deleted.
   *
   * @param pod the pod
   * @return true when active
   */
  public static boolean isActive(Pod pod) {
    String phase = phase(pod);
    return !SUCCEEDED.equals(phase)
        && !FAILED.equals(phase)
        && pod.getMetadata().getDeletionTimestamp() == null;
  }

  /**
   * Tells whether a pod is being deleted.
   *
   * @param pod the pod
   * @return true when it has a deletion timestamp
   */
  public static boolean isTerminating(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }

  /**
   * Returns a pod's phase, the empty string when it has none.
   *
   * @param pod the pod
   * @return the phase
   */
  public static String phase(Pod pod) {
    PodStatus status = pod.getStatus();
    return status == null || status.getPhase() == null ? "" : status.getPhase();
  }

  /**
   * Returns a pod's {@code Ready} condition.
   *
   * @param pod the pod
   * @return the condition, if any
   */
  public static Optional<PodCondition> readyCondition(Pod pod) {
    PodStatus status = pod.getStatus();
    if (status == null || status.getConditions() == null) {
      return Optional.empty();
    }
    for (PodCondition condition : status.getConditions()) {
      if (READY.equals(condition.getType())) {
        return Optional.of(condition);
      }
    }
    return Optional.empty();
  }

  /**
   * Tells whether a pod's {@code Ready} condition is {@code True}.
   *
   * @param pod the pod
   * @return true when ready
   */
  public static boolean isReady(Pod pod) {
    return readyCondition(pod).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  /**
   * Tells whether a pod has been ready for at least {@code minReadySeconds} at {@code now}: ready,
   * and with no minimum or a {@code Ready} transition more than that long before now.
   *
   * @param pod the pod
   * @param minReadySeconds the minimum, 0 for none
   * @param now the time to judge at
   * @return true when available
   */
  public static boolean isAvailable(Pod pod, int minReadySeconds, Instant now) {
    if (!isReady(pod)) {
      return false;
    }
    if (minReadySeconds == 0) {
      return true;
    }
    PodCondition ready = readyCondition(pod).orElseThrow();
    return ready.getLastTransitionTime() != null
        && ready
            .getLastTransitionTime()
            .instant()
            .plus(Duration.ofSeconds(minReadySeconds))
            .isBefore(now);
  }

  /**
   * Returns when a ready pod became ready, or null when it is not ready or does not say.
   *
   * @param pod the pod
   * @return the time, or null
   */
  public static Instant readyTime(Pod pod) {
    if (!isReady(pod)) {
      return null;
    }
    PodCondition ready = readyCondition(pod).orElseThrow();
    return ready.getLastTransitionTime() == null ? null : ready.getLastTransitionTime().instant();
  }

  /**
   * Returns the largest restart count of a pod's containers (init containers included).
   *
   * @param pod the pod
   * @return the count, 0 without statuses
   */
  public static int maxContainerRestarts(Pod pod) {
    PodStatus status = pod.getStatus();
    if (status == null) {
      return 0;
    }
    int max = 0;
    for (List<ContainerStatus> list :
        java.util.Arrays.asList(status.getContainerStatuses(), status.getInitContainerStatuses())) {
      if (list == null) {
        continue;
      }
      for (ContainerStatus container : list) {
        if (container.getRestartCount() != null) {
          max = Math.max(max, container.getRestartCount());
        }
      }
    }
    return max;
  }

  /**
   * Returns a pod's {@code namespace/name} key, as expectations track deletions by it.
   *
   * @param pod the pod
   * @return the key
   */
  public static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
