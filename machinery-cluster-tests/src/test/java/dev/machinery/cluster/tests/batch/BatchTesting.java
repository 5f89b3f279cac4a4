package dev.machinery.cluster.tests.batch;

import dev.machinery.cluster.tests.Poll;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** What the batch controllers' tests share: waiting with a deadline, and pods run by hand. */
final class BatchTesting {
  private BatchTesting() {}

  /** Polls until the supplier answers non-null, failing with what {@code seen} shows. */
  static <T> T await(String what, Supplier<T> probe, Supplier<Object> seen) {
    return Poll.present(what, probe, seen);
  }

  /** Polls until the condition holds. */
  static void until(String what, Supplier<Boolean> condition, Supplier<Object> seen) {
    Poll.holds(what, condition, seen);
  }

  /** A Job of one container {@code main} that never restarts. */
  static JobBuilder job(String name) {
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .withNewTemplate()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec();
  }

  /** The Job's pods, by name. */
  static List<Pod> podsOf(KubernetesClient client, String job) {
    List<Pod> pods =
        new ArrayList<>(
            client
                .pods()
                .inNamespace("default")
                .withLabel("batch.kubernetes.io/job-name", job)
                .list()
                .getItems());
    pods.sort((a, b) -> a.getMetadata().getName().compareTo(b.getMetadata().getName()));
    return pods;
  }

  /** The Job's pods that have not finished and are not being deleted. */
  static List<Pod> activePodsOf(KubernetesClient client, String job) {
    List<Pod> active = new ArrayList<>();
    for (Pod pod : podsOf(client, job)) {
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if (!"Succeeded".equals(phase)
          && !"Failed".equals(phase)
          && pod.getMetadata().getDeletionTimestamp() == null) {
        active.add(pod);
      }
    }
    return active;
  }

  /**
   * Ends a pod as a kubelet would: its container terminated with the exit code, at a time. As a
   * kubelet's status manager does, a write refused with a conflict (the pod was changed meanwhile,
   * by a controller) is made again on the pod read afresh.
   */
  static void finish(KubernetesClient client, Pod pod, int exitCode, Instant at) {
    for (int attempt = 1; ; attempt++) {
      try {
        finishOnce(client, pod, exitCode, at);
        return;
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 5) {
          throw e;
        }
      }
    }
  }

  private static void finishOnce(KubernetesClient client, Pod pod, int exitCode, Instant at) {
    Pod latest = client.pods().inNamespace("default").withName(pod.getMetadata().getName()).get();
    String time = at.toString();
    latest.getStatus().setPhase(exitCode == 0 ? "Succeeded" : "Failed");
    latest
        .getStatus()
        .setContainerStatuses(
            List.of(
                new ContainerStatusBuilder()
                    .withName("main")
                    .withImage("busybox")
                    .withImageID("")
                    .withReady(false)
                    .withRestartCount(0)
                    .withState(
                        new ContainerStateBuilder()
                            .withNewTerminated()
                            .withExitCode(exitCode)
                            .withReason(exitCode == 0 ? "Completed" : "Error")
                            .withStartedAt(time)
                            .withFinishedAt(time)
                            .endTerminated()
                            .build())
                    .build()));
    List<PodCondition> conditions = new ArrayList<>();
    conditions.add(
        new PodConditionBuilder()
            .withType("Ready")
            .withStatus("False")
            .withReason("PodCompleted")
            .withLastTransitionTime(time)
            .build());
    latest.getStatus().setConditions(conditions);
    client.pods().inNamespace("default").resource(latest).updateStatus();
  }

  /** Marks a pod running and ready. */
  static void ready(KubernetesClient client, Pod pod) {
    Pod latest = client.pods().inNamespace("default").withName(pod.getMetadata().getName()).get();
    latest.getStatus().setPhase("Running");
    latest
        .getStatus()
        .setConditions(
            List.of(new PodConditionBuilder().withType("Ready").withStatus("True").build()));
    client.pods().inNamespace("default").resource(latest).updateStatus();
  }

  /**
   * Runs the pods that match a label as a kubelet would: each Pending one becomes Running and
   * Ready.
   */
  static void runPods(KubernetesClient client, String label, String value) {
    for (Pod pod : client.pods().inNamespace("default").withLabel(label, value).list().getItems()) {
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if (pod.getMetadata().getDeletionTimestamp() == null
          && (phase == null || "Pending".equals(phase))) {
        try {
          Pod latest = pod;
          latest.getStatus().setPhase("Running");
          latest
              .getStatus()
              .setConditions(
                  List.of(
                      new PodConditionBuilder()
                          .withType("Ready")
                          .withStatus("True")
                          .withLastTransitionTime(Instant.now().toString())
                          .build()));
          client.pods().inNamespace("default").resource(latest).updateStatus();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
          // Changed or deleted meanwhile: the next round sees it again.
        }
      }
    }
  }

  static Job get(KubernetesClient client, String name) {
    return client.batch().v1().jobs().inNamespace("default").withName(name).get();
  }

  static Optional<JobCondition> condition(Job job, String type) {
    if (job == null || job.getStatus() == null || job.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return job.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst();
  }
}
