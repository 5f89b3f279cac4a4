package dev.machinery.cluster.controller.job;

import dev.machinery.api.batch.v1.PodFailurePolicy;
import dev.machinery.api.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import dev.machinery.api.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import dev.machinery.api.batch.v1.PodFailurePolicyRule;
import dev.machinery.api.core.v1.ContainerStatus;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import java.util.List;
import java.util.Locale;

/**
 * Matches a failed pod against a Job's {@code podFailurePolicy} (Go's {@code
 * matchPodFailurePolicy}): the first rule whose exit codes (of a terminated container, non-zero,
 * regular containers first, then init containers) or pod conditions match decides.
 *
 * <p>Stateless; thread-safe.
 */
final class PodFailurePolicies {
  static final String FAIL_JOB = "FailJob";
  static final String FAIL_INDEX = "FailIndex";
  static final String IGNORE = "Ignore";
  static final String COUNT = "Count";

  private PodFailurePolicies() {}

  /**
   * What a rule decided about a failed pod.
   *
   * @param action the action of the matching rule, null when none matched
   * @param countsFailure whether the failure counts against {@code backoffLimit}
   * @param message the Job's failure message for {@code FailJob}, else null
   */
  record Match(String action, boolean countsFailure, String message) {
    static final Match NONE = new Match(null, true, null);
  }

  static Match match(PodFailurePolicy policy, Pod pod) {
    if (policy == null || policy.getRules() == null) {
      return Match.NONE;
    }
    List<PodFailurePolicyRule> rules = policy.getRules();
    for (int index = 0; index < rules.size(); index++) {
      PodFailurePolicyRule rule = rules.get(index);
      String action = rule.getAction();
      if (rule.getOnExitCodes() != null) {
        ContainerStatus container = matchOnExitCodes(pod, rule.getOnExitCodes());
        if (container != null) {
          String message =
              String.format(
                  Locale.ROOT,
                  "Container %s for pod %s/%s failed with exit code %d matching %s rule at index %d",
                  container.getName(),
                  pod.getMetadata().getNamespace(),
                  pod.getMetadata().getName(),
                  container.getState().getTerminated().getExitCode(),
                  action,
                  index);
          return decided(action, message);
        }
      } else if (rule.getOnPodConditions() != null) {
        PodCondition condition = matchOnPodConditions(pod, rule.getOnPodConditions());
        if (condition != null) {
          String message =
              String.format(
                  Locale.ROOT,
                  "Pod %s/%s has condition %s matching %s rule at index %d",
                  pod.getMetadata().getNamespace(),
                  pod.getMetadata().getName(),
                  condition.getType(),
                  action,
                  index);
          return decided(action, message);
        }
      }
    }
    return Match.NONE;
  }

  private static Match decided(String action, String message) {
    return switch (action == null ? "" : action) {
      case IGNORE -> new Match(IGNORE, false, null);
      case COUNT -> new Match(COUNT, true, null);
      case FAIL_JOB -> new Match(FAIL_JOB, true, message);
      case FAIL_INDEX -> new Match(FAIL_INDEX, true, null);
      default -> Match.NONE;
    };
  }

  private static ContainerStatus matchOnExitCodes(
      Pod pod, PodFailurePolicyOnExitCodesRequirement requirement) {
    if (pod.getStatus() == null) {
      return null;
    }
    ContainerStatus found = matchIn(pod.getStatus().getContainerStatuses(), requirement);
    return found != null ? found : matchIn(pod.getStatus().getInitContainerStatuses(), requirement);
  }

  private static ContainerStatus matchIn(
      List<ContainerStatus> statuses, PodFailurePolicyOnExitCodesRequirement requirement) {
    if (statuses == null) {
      return null;
    }
    for (ContainerStatus status : statuses) {
      if (status.getState() == null || status.getState().getTerminated() == null) {
        continue;
      }
      if (requirement.getContainerName() != null
          && !requirement.getContainerName().equals(status.getName())) {
        continue;
      }
      Integer exitCode = status.getState().getTerminated().getExitCode();
      int code = exitCode == null ? 0 : exitCode;
      if (code != 0 && operatorMatches(code, requirement)) {
        return status;
      }
    }
    return null;
  }

  private static boolean operatorMatches(
      int exitCode, PodFailurePolicyOnExitCodesRequirement requirement) {
    List<Integer> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    return switch (requirement.getOperator() == null ? "" : requirement.getOperator()) {
      case "In" -> values.contains(exitCode);
      case "NotIn" -> !values.contains(exitCode);
      default -> false;
    };
  }

  private static PodCondition matchOnPodConditions(
      Pod pod, List<PodFailurePolicyOnPodConditionsPattern> patterns) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    for (PodCondition condition : pod.getStatus().getConditions()) {
      for (PodFailurePolicyOnPodConditionsPattern pattern : patterns) {
        if (condition.getType() != null
            && condition.getType().equals(pattern.getType())
            && condition.getStatus() != null
            && condition.getStatus().equals(pattern.getStatus())) {
          return condition;
        }
      }
    }
    return null;
  }
}
