package dev.machinery.cluster.controller.job;

import dev.machinery.api.core.v1.ContainerStatus;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the Job controller reads off a pod: its phase, readiness, completion index, controller and
 * the time it finished, as Go's {@code pkg/controller/job} helpers do.
 *
 * <p>Stateless; thread-safe.
 */
final class JobPods {
  static final String SUCCEEDED = "Succeeded";
  static final String FAILED = "Failed";
  static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";
  static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
  static final String INDEX_FAILURE_COUNT = "batch.kubernetes.io/job-index-failure-count";

  /** Go's {@code validation.DNS1123SubdomainMaxLength} less the five random characters. */
  static final int MAX_GENERATED_NAME_LENGTH = 58;

  private JobPods() {}

  static String phase(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getPhase() == null
        ? ""
        : pod.getStatus().getPhase();
  }

  static boolean isTerminating(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }

  /** Neither finished nor being deleted (Go's {@code IsPodActive}). */
  static boolean isActive(Pod pod) {
    String phase = phase(pod);
    return !SUCCEEDED.equals(phase) && !FAILED.equals(phase) && !isTerminating(pod);
  }

  static boolean isReady(Pod pod) {
    return condition(pod, "Ready").map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  static Optional<PodCondition> condition(Pod pod, String type) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst();
  }

  static boolean hasTrackingFinalizer(Pod pod) {
    List<String> finalizers = pod.getMetadata().getFinalizers();
    return finalizers != null && finalizers.contains(TRACKING_FINALIZER);
  }

  /**
   * A failed pod as the Job counts it (Go's {@code isPodFailed}): phase Failed; and, unless the Job
   * replaces only failed pods, a pod deleted before it succeeded.
   */
  static boolean isFailed(Pod pod, boolean onlyReplaceFailed) {
    if (FAILED.equals(phase(pod))) {
      return true;
    }
    if (onlyReplaceFailed) {
      return false;
    }
    return isTerminating(pod) && !SUCCEEDED.equals(phase(pod));
  }

  /**
   * The completion index of a pod of an Indexed Job, from its annotation; empty when missing or not
   * a non-negative integer.
   */
  static OptionalInt index(Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(COMPLETION_INDEX);
    if (value == null) {
      return OptionalInt.empty();
    }
    try {
      int index = Integer.parseInt(value);
      return index < 0 ? OptionalInt.empty() : OptionalInt.of(index);
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /** The uid of the pod's controlling owner, if it is a Job. */
  static Optional<String> controllerJobUid(Pod pod) {
    List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
    if (owners == null) {
      return Optional.empty();
    }
    for (OwnerReference owner : owners) {
      if (Boolean.TRUE.equals(owner.getController())) {
        return "Job".equals(owner.getKind())
                && owner.getApiVersion() != null
                && owner.getApiVersion().startsWith("batch/")
            ? Optional.ofNullable(owner.getUid())
            : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** The name of the pod's controlling owner, if it is a Job. */
  static Optional<String> controllerJobName(Pod pod) {
    List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
    if (owners == null) {
      return Optional.empty();
    }
    return owners.stream()
        .filter(o -> Boolean.TRUE.equals(o.getController()) && "Job".equals(o.getKind()))
        .map(OwnerReference::getName)
        .findFirst();
  }

  /**
   * When a pod finished (Go's {@code getFinishedTime}): the latest finish of its containers when
   * all finished, else the transition of its {@code Ready=False} condition, else its deletion less
   * its grace period, else its creation.
   */
  static Instant finishedTime(Pod pod) {
    Instant containers = latestFinish(pod);
    if (containers != null) {
      return containers;
    }
    Optional<PodCondition> ready = condition(pod, "Ready");
    if (ready.isPresent()
        && "False".equals(ready.get().getStatus())
        && ready.get().getLastTransitionTime() != null) {
      return ready.get().getLastTransitionTime().instant();
    }
    Instant deleted = pod.getMetadata().getDeletionTimestamp();
    if (deleted != null) {
      Long grace = pod.getMetadata().getDeletionGracePeriodSeconds();
      return deleted.minusSeconds(grace == null ? 0 : grace);
    }
    Instant created = pod.getMetadata().getCreationTimestamp();
    return created == null ? Instant.EPOCH : created;
  }

  private static Instant latestFinish(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
      return null;
    }
    Instant latest = null;
    for (ContainerStatus status : pod.getStatus().getContainerStatuses()) {
      if (status.getState() == null
          || status.getState().getTerminated() == null
          || status.getState().getTerminated().getFinishedAt() == null) {
        return null;
      }
      Instant finished = status.getState().getTerminated().getFinishedAt().instant();
      if (latest == null || latest.isBefore(finished)) {
        latest = finished;
      }
    }
    return latest;
  }

  /**
   * The restarts of a pending or running pod's containers (Go's {@code pastBackoffLimitOnFailure}).
   */
  static int restarts(Pod pod) {
    String phase = phase(pod);
    if (!"Running".equals(phase) && !"Pending".equals(phase)) {
      return 0;
    }
    int total = 0;
    if (pod.getStatus().getInitContainerStatuses() != null) {
      for (ContainerStatus status : pod.getStatus().getInitContainerStatuses()) {
        total += status.getRestartCount() == null ? 0 : status.getRestartCount();
      }
    }
    if (pod.getStatus().getContainerStatuses() != null) {
      for (ContainerStatus status : pod.getStatus().getContainerStatuses()) {
        total += status.getRestartCount() == null ? 0 : status.getRestartCount();
      }
    }
    return total;
  }

  /**
   * The generated name of an Indexed Job's pod (Go's {@code podGenerateNameWithIndex}): {@code
   * <job>-<index>-}, the Job's name cut so the whole fits in 58 characters.
   */
  static String generateNameWithIndex(String jobName, int index) {
    String appendix = "-" + index + "-";
    String base = jobName;
    if (base.length() + appendix.length() > MAX_GENERATED_NAME_LENGTH) {
      base = base.substring(0, Math.max(0, MAX_GENERATED_NAME_LENGTH - appendix.length()));
    }
    return base + appendix;
  }

  /** The generated name of a NonIndexed Job's pod: {@code <job>-}, cut as the API server does. */
  static String generateName(String jobName) {
    String base = jobName;
    if (base.length() + 1 > MAX_GENERATED_NAME_LENGTH) {
      base = base.substring(0, MAX_GENERATED_NAME_LENGTH - 1);
    }
    return base + "-";
  }
}
