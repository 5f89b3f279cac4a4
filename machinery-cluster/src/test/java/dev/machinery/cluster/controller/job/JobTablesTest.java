package dev.machinery.cluster.controller.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.api.batch.v1.PodFailurePolicy;
import dev.machinery.api.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import dev.machinery.api.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import dev.machinery.api.batch.v1.PodFailurePolicyRule;
import dev.machinery.api.core.v1.ContainerState;
import dev.machinery.api.core.v1.ContainerStateTerminated;
import dev.machinery.api.core.v1.ContainerStatus;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodStatus;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Job controller's pure parts, with the tables of Kubernetes' {@code
 * indexed_job_utils_test.go}, {@code backoff_utils_test.go} and {@code pod_failure_policy_test.go}.
 */
class JobTablesTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // name | previous status | new succeeded indexes | completions | want
        "one index | | 1 | 2 | 1",
        "two separate | | 5;5;10 | 11 | 5,10",
        "two intervals | | 2;3;5;6;7 | 8 | 2,3,5-7",
        "one index and one interval | | 0;2;3;4;5 | 6 | 0,2-5",
        "out of range | | 0;1;2;4;5 | 5 | 0-2,4",
        "prev interval out of range | 0-5,8-10 | | 8 | 0-5",
        "prev interval partially out of range | 0-5,8-10 | | 10 | 0-5,8,9",
        "prev and new separate | 0,4,5,10-12 | 2;7;8 | 13 | 0,2,4,5,7,8,10-12",
        "prev between new | 3,4,6 | 2;7;8 | 9 | 2-4,6-8",
        "new between prev | 2,7,8 | 3;4;6 | 9 | 2-4,6-8",
        "new within prev | 2-7 | 0;3;5;9 | 10 | 0,2-7,9",
        "corrupted interval | 0,1-foo,bar | 3 | 4 | 0,3",
      })
  void completedIndexesAsCalculateSucceededIndexes(
      String name, String previous, String added, int completions, String want) {
    List<Integer> indexes =
        added == null
            ? List.of()
            : java.util.Arrays.stream(added.split(";")).map(Integer::valueOf).toList();
    assertEquals(
        want, CompletedIndexes.parse(previous, completions).with(indexes, completions).toString());
  }

  @Test
  void firstPendingIndexesSkipActiveAndSucceededOnes() {
    CompletedIndexes none = CompletedIndexes.empty();
    assertEquals(List.of(0, 1, 2), JobController.firstPendingIndexes(Set.of(), none, 5, 3));
    assertEquals(List.of(0, 1), JobController.firstPendingIndexes(Set.of(), none, 2, 5));
    assertEquals(List.of(2, 3, 4), JobController.firstPendingIndexes(Set.of(0, 1), none, 3, 10));
    assertEquals(
        List.of(0, 1, 2, 3),
        JobController.firstPendingIndexes(Set.of(6), CompletedIndexes.parse("4-5", 6), 6, 6));
    assertEquals(
        List.of(0, 1, 6, 7, 10),
        JobController.firstPendingIndexes(
            Set.of(3, 5, 8), CompletedIndexes.parse("2-4,9", 20), 5, 20));
  }

  @Test
  void podGenerateNameWithIndexFitsFiftyEightCharacters() {
    assertEquals("indexed-job-1-", JobPods.generateNameWithIndex("indexed-job", 1));
    String five = "hhhhhooooo";
    assertEquals(five.repeat(5) + "hhhhh-1-", JobPods.generateNameWithIndex(five.repeat(7), 1));
    assertEquals(
        five.repeat(5) + "hhhhh-1-", JobPods.generateNameWithIndex(five.repeat(5) + "hhhhhoo", 1));
  }

  @ParameterizedTest(name = "{0} failures, {1}s ago: {2}s")
  @CsvSource({
    "0, 0, 0",
    "1, 0, 10",
    "1, 5, 5",
    "1, 10, 0",
    "1, 11, 0",
    "2, 0, 20",
    "3, 15, 25",
    "6, 0, 320",
    "7, 0, 600",
    "20, 100, 500",
  })
  void backoffDoublesFromTenSecondsToTenMinutes(int failures, int agoSeconds, int wantSeconds) {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    Instant last = now.minusSeconds(agoSeconds);
    assertEquals(
        Duration.ofSeconds(wantSeconds),
        Backoff.remaining(now, Backoff.DEFAULT, Backoff.MAX, failures, last));
  }

  @Test
  void aSuccessAfterFailuresResetsTheBackoff() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    Backoff two = Backoff.NONE.next(List.of(), List.of(finished(t), finished(t.plusSeconds(5))));
    assertEquals(new Backoff(2, t.plusSeconds(5)), two);
    // Only failures after the last success stay counted.
    Backoff after =
        two.next(
            List.of(finished(t.plusSeconds(10))),
            List.of(finished(t.plusSeconds(8)), finished(t.plusSeconds(12))));
    assertEquals(new Backoff(1, t.plusSeconds(12)), after);
    assertEquals(new Backoff(0, null), after.next(List.of(finished(t.plusSeconds(20))), List.of()));
  }

  @Test
  void podFailurePolicyRulesMatchInOrder() {
    PodFailurePolicy policy = new PodFailurePolicy();
    policy.setRules(
        List.of(
            exitCodes("Ignore", "In", List.of(1, 2)),
            exitCodes("FailJob", "NotIn", List.of(3)),
            conditions("Count", "DisruptionTarget")));
    assertEquals(
        new PodFailurePolicies.Match("Ignore", false, null),
        PodFailurePolicies.match(policy, failedPod(2, null)));
    PodFailurePolicies.Match failJob = PodFailurePolicies.match(policy, failedPod(42, null));
    assertEquals("FailJob", failJob.action());
    assertEquals(
        "Container main for pod default/p failed with exit code 42 matching FailJob rule at index 1",
        failJob.message());
    // Exit code 3 is not matched by rule 1, so the condition rule decides.
    assertEquals(
        new PodFailurePolicies.Match("Count", true, null),
        PodFailurePolicies.match(policy, failedPod(3, "DisruptionTarget")));
    // Exit code 0 never matches an exit-code rule.
    assertEquals(
        PodFailurePolicies.Match.NONE, PodFailurePolicies.match(policy, failedPod(0, null)));
    PodFailurePolicy byCondition = new PodFailurePolicy();
    byCondition.setRules(List.of(conditions("FailJob", "DisruptionTarget")));
    assertEquals(
        "Pod default/p has condition DisruptionTarget matching FailJob rule at index 0",
        PodFailurePolicies.match(byCondition, failedPod(0, "DisruptionTarget")).message());
  }

  private static PodFailurePolicyRule exitCodes(String action, String operator, List<Integer> v) {
    PodFailurePolicyOnExitCodesRequirement requirement =
        new PodFailurePolicyOnExitCodesRequirement();
    requirement.setOperator(operator);
    requirement.setValues(v);
    PodFailurePolicyRule rule = new PodFailurePolicyRule();
    rule.setAction(action);
    rule.setOnExitCodes(requirement);
    return rule;
  }

  private static PodFailurePolicyRule conditions(String action, String type) {
    PodFailurePolicyOnPodConditionsPattern pattern = new PodFailurePolicyOnPodConditionsPattern();
    pattern.setType(type);
    pattern.setStatus("True");
    PodFailurePolicyRule rule = new PodFailurePolicyRule();
    rule.setAction(action);
    rule.setOnPodConditions(List.of(pattern));
    return rule;
  }

  private static Pod failedPod(int exitCode, String conditionType) {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setNamespace("default");
    meta.setName("p");
    pod.setMetadata(meta);
    PodStatus status = new PodStatus();
    status.setPhase("Failed");
    ContainerStateTerminated terminated = new ContainerStateTerminated();
    terminated.setExitCode(exitCode);
    ContainerState state = new ContainerState();
    state.setTerminated(terminated);
    ContainerStatus container = new ContainerStatus();
    container.setName("main");
    container.setState(state);
    status.setContainerStatuses(List.of(container));
    if (conditionType != null) {
      PodCondition condition = new PodCondition();
      condition.setType(conditionType);
      condition.setStatus("True");
      status.setConditions(List.of(condition));
    }
    pod.setStatus(status);
    return pod;
  }

  private static Pod finished(Instant at) {
    Pod pod = failedPod(1, null);
    pod.getStatus()
        .getContainerStatuses()
        .get(0)
        .getState()
        .getTerminated()
        .setFinishedAt(new dev.machinery.unversioned.meta.v1.Time(at));
    return pod;
  }
}
