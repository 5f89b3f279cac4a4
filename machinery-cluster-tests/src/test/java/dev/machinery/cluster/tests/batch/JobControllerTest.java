package dev.machinery.cluster.tests.batch;

import static dev.machinery.cluster.tests.batch.BatchTesting.activePodsOf;
import static dev.machinery.cluster.tests.batch.BatchTesting.condition;
import static dev.machinery.cluster.tests.batch.BatchTesting.finish;
import static dev.machinery.cluster.tests.batch.BatchTesting.get;
import static dev.machinery.cluster.tests.batch.BatchTesting.job;
import static dev.machinery.cluster.tests.batch.BatchTesting.podsOf;
import static dev.machinery.cluster.tests.batch.BatchTesting.ready;
import static dev.machinery.cluster.tests.batch.BatchTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Job controller alone against the test server, driven through fabric8: pods are run to their
 * end by the test, as a kubelet would report them.
 */
@EnableApiServer(
    controllers = {"job-controller"},
    nodes = 0)
class JobControllerTest {
  KubernetesClient client;

  private Job create(Job job) {
    return client.batch().v1().jobs().inNamespace("default").resource(job).create();
  }

  private List<String> eventReasons(String job) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> e.getInvolvedObject() != null && job.equals(e.getInvolvedObject().getName()))
        .map(Event::getReason)
        .collect(Collectors.toList());
  }

  @Test
  void aNonIndexedJobRunsItsCompletionsWithParallelismAndCompletes() {
    Job created =
        create(
            job("count-three").editSpec().withCompletions(3).withParallelism(2).endSpec().build());
    until(
        "two pods",
        () -> activePodsOf(client, "count-three").size() == 2,
        () -> podsOf(client, "count-three"));
    Pod first = activePodsOf(client, "count-three").get(0);
    assertTrue(first.getMetadata().getGenerateName().startsWith("count-three-"));
    assertTrue(first.getMetadata().getFinalizers().contains("batch.kubernetes.io/job-tracking"));
    OwnerReference owner = first.getMetadata().getOwnerReferences().get(0);
    assertEquals("Job", owner.getKind());
    assertEquals(created.getMetadata().getUid(), owner.getUid());
    assertEquals(Boolean.TRUE, owner.getController());
    assertEquals(Boolean.TRUE, owner.getBlockOwnerDeletion());
    until(
        "startTime and active 2",
        () -> {
          Job job = get(client, "count-three");
          return job.getStatus().getStartTime() != null
              && Integer.valueOf(2).equals(job.getStatus().getActive());
        },
        () -> get(client, "count-three").getStatus());

    ready(client, first);
    until(
        "ready 1",
        () -> Integer.valueOf(1).equals(get(client, "count-three").getStatus().getReady()),
        () -> get(client, "count-three").getStatus());

    // Each success is counted once its finalizer is gone; a third pod replaces the first.
    finish(client, first, 0, Instant.now());
    until(
        "succeeded 1, a third pod",
        () ->
            Integer.valueOf(1).equals(get(client, "count-three").getStatus().getSucceeded())
                && podsOf(client, "count-three").size() == 3,
        () -> get(client, "count-three").getStatus());
    until(
        "the finished pod released",
        () ->
            !client
                .pods()
                .inNamespace("default")
                .withName(first.getMetadata().getName())
                .get()
                .getMetadata()
                .getFinalizers()
                .contains("batch.kubernetes.io/job-tracking"),
        () -> podsOf(client, "count-three"));
    for (Pod pod : activePodsOf(client, "count-three")) {
      finish(client, pod, 0, Instant.now());
    }
    until(
        "Complete",
        () -> condition(get(client, "count-three"), "Complete").isPresent(),
        () -> get(client, "count-three").getStatus());
    Job done = get(client, "count-three");
    assertEquals(3, done.getStatus().getSucceeded());
    // kube-apiserver leaves out an active count of 0 (omitempty), as this server now does.
    assertNull(done.getStatus().getActive());
    assertNotNull(done.getStatus().getCompletionTime());
    JobCondition met = condition(done, "SuccessCriteriaMet").orElseThrow();
    assertEquals("CompletionsReached", met.getReason());
    assertEquals("Reached expected number of succeeded pods", met.getMessage());
    JobCondition complete = condition(done, "Complete").orElseThrow();
    assertEquals("CompletionsReached", complete.getReason());
    assertEquals(List.of("SuccessCriteriaMet", "Complete"), types(done));
    assertEquals(3, podsOf(client, "count-three").size());
    until(
        "events",
        () -> {
          List<String> reasons = eventReasons("count-three");
          return reasons.contains("SuccessfulCreate") && reasons.contains("Completed");
        },
        () -> eventReasons("count-three"));
  }

  @Test
  void aWorkQueueJobStopsStartingPodsAfterASuccessAndCompletesWhenTheRestEnd() {
    // Parallelism without completions: kube leaves completions unset (a work queue).
    Job created = create(job("queue").editSpec().withParallelism(3).endSpec().build());
    assertNull(created.getSpec().getCompletions());
    until(
        "three pods",
        () -> activePodsOf(client, "queue").size() == 3,
        () -> podsOf(client, "queue"));
    List<Pod> pods = activePodsOf(client, "queue");
    finish(client, pods.get(0), 0, Instant.now());
    until(
        "succeeded 1, active 2",
        () ->
            Integer.valueOf(1).equals(get(client, "queue").getStatus().getSucceeded())
                && Integer.valueOf(2).equals(get(client, "queue").getStatus().getActive()),
        () -> get(client, "queue").getStatus());
    // No replacement: once one pod succeeded, the others finish the work.
    assertEquals(3, podsOf(client, "queue").size());
    finish(client, pods.get(1), 0, Instant.now());
    finish(client, pods.get(2), 0, Instant.now());
    until(
        "Complete",
        () -> condition(get(client, "queue"), "Complete").isPresent(),
        () -> get(client, "queue").getStatus());
    assertEquals(3, get(client, "queue").getStatus().getSucceeded());
    assertEquals(3, podsOf(client, "queue").size());
  }

  @Test
  void anIndexedJobRunsOnePodAnIndexAndRecordsCompletedIndexes() {
    create(
        job("indexed")
            .editSpec()
            .withCompletions(4)
            .withParallelism(4)
            .withCompletionMode("Indexed")
            .endSpec()
            .build());
    until(
        "four pods",
        () -> activePodsOf(client, "indexed").size() == 4,
        () -> podsOf(client, "indexed"));
    Set<String> indexes = new TreeSet<>();
    for (Pod pod : activePodsOf(client, "indexed")) {
      String index =
          pod.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index");
      indexes.add(index);
      assertEquals(
          index, pod.getMetadata().getLabels().get("batch.kubernetes.io/job-completion-index"));
      assertEquals("indexed-" + index, pod.getSpec().getHostname());
      assertTrue(pod.getMetadata().getGenerateName().equals("indexed-" + index + "-"));
      assertEquals(
          "JOB_COMPLETION_INDEX", pod.getSpec().getContainers().get(0).getEnv().get(0).getName());
    }
    assertEquals(Set.of("0", "1", "2", "3"), indexes);
    for (Pod pod : activePodsOf(client, "indexed")) {
      String index =
          pod.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index");
      if (index.equals("1") || index.equals("2") || index.equals("3")) {
        finish(client, pod, 0, Instant.now());
      }
    }
    until(
        "completedIndexes 1-3",
        () -> "1-3".equals(get(client, "indexed").getStatus().getCompletedIndexes()),
        () -> get(client, "indexed").getStatus());
    assertEquals(3, get(client, "indexed").getStatus().getSucceeded());
    // A failed index is run again, by a pod of the same index.
    Pod zero = activePodsOf(client, "indexed").get(0);
    finish(client, zero, 1, Instant.now().minusSeconds(60));
    until(
        "a new pod for index 0",
        () ->
            activePodsOf(client, "indexed").stream()
                .anyMatch(
                    p ->
                        "0"
                            .equals(
                                p.getMetadata()
                                    .getAnnotations()
                                    .get("batch.kubernetes.io/job-completion-index"))),
        () -> podsOf(client, "indexed"));
    finish(client, activePodsOf(client, "indexed").get(0), 0, Instant.now());
    until(
        "Complete",
        () -> condition(get(client, "indexed"), "Complete").isPresent(),
        () -> get(client, "indexed").getStatus());
    Job done = get(client, "indexed");
    assertEquals("0-3", done.getStatus().getCompletedIndexes());
    assertEquals(4, done.getStatus().getSucceeded());
    assertEquals(1, done.getStatus().getFailed());
  }

  @Test
  void aJobFailsOnceFailuresPassTheBackoffLimit() {
    create(job("give-up").editSpec().withBackoffLimit(0).endSpec().build());
    until(
        "a pod",
        () -> activePodsOf(client, "give-up").size() == 1,
        () -> podsOf(client, "give-up"));
    finish(client, activePodsOf(client, "give-up").get(0), 1, Instant.now());
    until(
        "Failed",
        () -> condition(get(client, "give-up"), "Failed").isPresent(),
        () -> get(client, "give-up").getStatus());
    Job failed = get(client, "give-up");
    assertEquals(List.of("FailureTarget", "Failed"), types(failed));
    JobCondition condition = condition(failed, "Failed").orElseThrow();
    assertEquals("BackoffLimitExceeded", condition.getReason());
    assertEquals("Job has reached the specified backoff limit", condition.getMessage());
    assertEquals(1, failed.getStatus().getFailed());
    assertNull(failed.getStatus().getCompletionTime());
    assertEquals(1, podsOf(client, "give-up").size());
    until(
        "a BackoffLimitExceeded event",
        () -> eventReasons("give-up").contains("BackoffLimitExceeded"),
        () -> eventReasons("give-up"));
  }

  @Test
  void aFailJobRuleOfThePodFailurePolicyFailsTheJobAndDeletesTheOthers() {
    Job job =
        job("policy")
            .editSpec()
            .withParallelism(2)
            .withCompletions(2)
            .withNewPodFailurePolicy()
            .addNewRule()
            .withAction("FailJob")
            .withNewOnExitCodes()
            .withContainerName("main")
            .withOperator("In")
            .withValues(42)
            .endOnExitCodes()
            .endRule()
            .addNewRule()
            .withAction("Ignore")
            .addNewOnPodCondition()
            .withType("DisruptionTarget")
            .withStatus("True")
            .endOnPodCondition()
            .endRule()
            .endPodFailurePolicy()
            .endSpec()
            .build();
    create(job);
    until(
        "two pods",
        () -> activePodsOf(client, "policy").size() == 2,
        () -> podsOf(client, "policy"));
    Pod doomed = activePodsOf(client, "policy").get(0);
    finish(client, doomed, 42, Instant.now());
    until(
        "FailureTarget",
        () -> condition(get(client, "policy"), "FailureTarget").isPresent(),
        () -> get(client, "policy").getStatus());
    JobCondition target = condition(get(client, "policy"), "FailureTarget").orElseThrow();
    assertEquals("PodFailurePolicy", target.getReason());
    assertEquals(
        "Container main for pod default/"
            + doomed.getMetadata().getName()
            + " failed with exit code 42 matching FailJob rule at index 0",
        target.getMessage());
    // The other pod is deleted; it was still running, so it must end before the Job is Failed
    // (the Job replaces only failed pods under a failure policy): its kubelet reports it.
    until(
        "the other pod deleted",
        () ->
            podsOf(client, "policy").stream()
                    .anyMatch(p -> p.getMetadata().getDeletionTimestamp() != null)
                || podsOf(client, "policy").size() == 1,
        () -> podsOf(client, "policy"));
    for (Pod pod : podsOf(client, "policy")) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        finish(client, pod, 137, Instant.now());
      }
    }
    until(
        "Failed",
        () -> condition(get(client, "policy"), "Failed").isPresent(),
        () -> get(client, "policy").getStatus());
    assertEquals(
        "PodFailurePolicy", condition(get(client, "policy"), "Failed").orElseThrow().getReason());
  }

  @Test
  void aSuspendedJobRunsNothingUntilResumed() {
    create(
        job("paused")
            .editSpec()
            .withSuspend(true)
            .withParallelism(2)
            .withCompletions(2)
            .endSpec()
            .build());
    until(
        "Suspended",
        () -> condition(get(client, "paused"), "Suspended").isPresent(),
        () -> get(client, "paused").getStatus());
    JobCondition suspended = condition(get(client, "paused"), "Suspended").orElseThrow();
    assertEquals("JobSuspended", suspended.getReason());
    assertEquals("Job suspended", suspended.getMessage());
    assertEquals(0, podsOf(client, "paused").size());
    assertNull(get(client, "paused").getStatus().getStartTime());
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace("default")
        .withName("paused")
        .edit(
            j -> {
              j.getSpec().setSuspend(false);
              return j;
            });
    until(
        "two pods",
        () -> activePodsOf(client, "paused").size() == 2,
        () -> podsOf(client, "paused"));
    until(
        "resumed",
        () ->
            get(client, "paused").getStatus().getConditions().stream()
                .anyMatch(
                    c ->
                        "Suspended".equals(c.getType())
                            && "False".equals(c.getStatus())
                            && "JobResumed".equals(c.getReason())),
        () -> get(client, "paused").getStatus());
    assertNotNull(get(client, "paused").getStatus().getStartTime());
    // Suspending again deletes the running pods.
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace("default")
        .withName("paused")
        .edit(
            j -> {
              j.getSpec().setSuspend(true);
              return j;
            });
    until(
        "no active pods",
        () -> activePodsOf(client, "paused").isEmpty(),
        () -> podsOf(client, "paused"));
    until(
        "events",
        () ->
            eventReasons("paused").containsAll(List.of("Suspended", "Resumed", "SuccessfulDelete")),
        () -> eventReasons("paused"));
  }

  @Test
  void podsOfADeletedJobLoseTheirFinalizer() {
    create(job("short-lived").build());
    until(
        "a pod",
        () -> activePodsOf(client, "short-lived").size() == 1,
        () -> podsOf(client, "short-lived"));
    Pod pod = activePodsOf(client, "short-lived").get(0);
    // Orphaned: the Job goes, its pod stays (no garbage collector runs here).
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace("default")
        .withName("short-lived")
        .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.ORPHAN)
        .delete();
    until(
        "the finalizer removed",
        () -> {
          Pod now =
              client.pods().inNamespace("default").withName(pod.getMetadata().getName()).get();
          return now == null
              || now.getMetadata().getFinalizers() == null
              || !now.getMetadata().getFinalizers().contains("batch.kubernetes.io/job-tracking");
        },
        () -> podsOf(client, "short-lived"));
  }

  private static List<String> types(Job job) {
    return job.getStatus().getConditions().stream().map(JobCondition::getType).toList();
  }
}
