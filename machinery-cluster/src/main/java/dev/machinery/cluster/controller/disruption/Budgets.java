package dev.machinery.cluster.controller.disruption;

import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.policy.v1.PodDisruptionBudget;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The arithmetic of a PodDisruptionBudget's status, as Go's disruption controller computes it:
 * expected pods and desired healthy from {@code minAvailable} / {@code maxUnavailable} (an integer
 * or a percentage of the owning controllers' scale, rounded up), the pods the eviction API marked
 * disrupted (kept for {@link #DELETION_TIMEOUT} while they still exist), the healthy count and the
 * disruptions allowed.
 *
 * <p>Stateless; thread-safe.
 */
final class Budgets {
  /** How long a pod stays in {@code disruptedPods} waiting to be deleted (kube's two minutes). */
  static final Duration DELETION_TIMEOUT = Duration.ofMinutes(2);

  private Budgets() {}

  /** Finds the scale of a pod's controller; throws when it has none known. */
  @FunctionalInterface
  interface ScaleFinder {
    /**
     * Returns the scale of the controller a pod names, or null when none of the known finders knows
     * it.
     *
     * @param namespace the pod's namespace
     * @param controller the pod's controller reference
     * @return its replicas, or null
     */
    Integer scale(String namespace, OwnerReference controller);
  }

  /** The expected count, the desired healthy count and the pods no controller owns. */
  record Expected(int expectedCount, int desiredHealthy, List<String> unmanagedPods) {}

  /** Refuses to compute a status, with the message kube's {@code SyncFailed} condition carries. */
  static final class SyncFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SyncFailure(String message) {
      super(message);
    }
  }

  static Expected expected(PodDisruptionBudget pdb, List<Pod> pods, ScaleFinder finder) {
    IntOrString maxUnavailable = pdb.getSpec().getMaxUnavailable();
    IntOrString minAvailable = pdb.getSpec().getMinAvailable();
    if (maxUnavailable != null) {
      Expected scale = expectedScale(pdb, pods, finder);
      int unavailable = scaled(maxUnavailable, scale.expectedCount());
      int desired = Math.max(0, scale.expectedCount() - unavailable);
      return new Expected(scale.expectedCount(), desired, scale.unmanagedPods());
    }
    if (minAvailable != null) {
      if (minAvailable.isInt()) {
        return new Expected(pods.size(), minAvailable.intValue(), List.of());
      }
      Expected scale = expectedScale(pdb, pods, finder);
      return new Expected(
          scale.expectedCount(),
          scaled(minAvailable, scale.expectedCount()),
          scale.unmanagedPods());
    }
    return new Expected(0, 0, List.of());
  }

  private static int scaled(IntOrString value, int total) {
    try {
      return value.scaledValue(total, true);
    } catch (RuntimeException e) {
      throw new SyncFailure(e.getMessage());
    }
  }

  /**
   * Sums the scale of the pods' controllers, each counted once (kube's {@code getExpectedScale}).
   */
  private static Expected expectedScale(
      PodDisruptionBudget pdb, List<Pod> pods, ScaleFinder finder) {
    Map<String, Integer> byController = new LinkedHashMap<>();
    List<String> unmanaged = new ArrayList<>();
    for (Pod pod : pods) {
      OwnerReference controller = controllerOf(pod);
      if (controller == null) {
        unmanaged.add(pod.getMetadata().getName());
        continue;
      }
      if (byController.containsKey(controller.getUid())) {
        continue;
      }
      Integer scale = finder.scale(pod.getMetadata().getNamespace(), controller);
      if (scale == null) {
        throw new SyncFailure(
            "found no controllers for pod \"" + pod.getMetadata().getName() + "\"");
      }
      byController.put(controller.getUid(), scale);
    }
    int sum = 0;
    for (int scale : byController.values()) {
      sum += scale;
    }
    return new Expected(sum, 0, unmanaged);
  }

  static OwnerReference controllerOf(Pod pod) {
    List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
    if (owners == null) {
      return null;
    }
    for (OwnerReference owner : owners) {
      if (Boolean.TRUE.equals(owner.getController())) {
        return owner;
      }
    }
    return null;
  }

  /** The disrupted pods still waiting and when the next of them times out. */
  record Disrupted(Map<String, Time> pods, Instant recheck) {}

  static Disrupted disrupted(PodDisruptionBudget pdb, List<Pod> pods, Instant now) {
    Map<String, Time> status =
        pdb.getStatus() == null || pdb.getStatus().getDisruptedPods() == null
            ? Map.of()
            : pdb.getStatus().getDisruptedPods();
    Map<String, Time> kept = new TreeMap<>();
    Instant recheck = null;
    for (Pod pod : pods) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      Time since = status.get(pod.getMetadata().getName());
      if (since == null) {
        continue;
      }
      Instant expectedDeletion = since.instant().plus(DELETION_TIMEOUT);
      if (expectedDeletion.isBefore(now)) {
        continue;
      }
      kept.put(pod.getMetadata().getName(), since);
      if (recheck == null || expectedDeletion.isBefore(recheck)) {
        recheck = expectedDeletion;
      }
    }
    return new Disrupted(kept, recheck);
  }

  static int currentHealthy(List<Pod> pods, Map<String, Time> disrupted, Instant now) {
    int healthy = 0;
    Set<String> seen = new HashSet<>();
    for (Pod pod : pods) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      Time since = disrupted.get(pod.getMetadata().getName());
      if (since != null && since.instant().plus(DELETION_TIMEOUT).isAfter(now)) {
        continue;
      }
      if (isReady(pod) && seen.add(pod.getMetadata().getName())) {
        healthy++;
      }
    }
    return healthy;
  }

  static int disruptionsAllowed(int currentHealthy, int desiredHealthy, int expectedCount) {
    int allowed = currentHealthy - desiredHealthy;
    if (expectedCount <= 0 || allowed <= 0) {
      return 0;
    }
    return allowed;
  }

  static boolean isReady(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    for (PodCondition condition : pod.getStatus().getConditions()) {
      if ("Ready".equals(condition.getType())) {
        return "True".equals(condition.getStatus());
      }
    }
    return false;
  }
}
