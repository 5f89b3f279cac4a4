package dev.machinery.cluster.controller.job;

import dev.machinery.api.batch.v1.Job;
import dev.machinery.api.batch.v1.JobCondition;
import dev.machinery.api.batch.v1.JobSpec;
import dev.machinery.api.batch.v1.JobStatus;
import dev.machinery.api.batch.v1.UncountedTerminatedPods;
import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.EnvVar;
import dev.machinery.api.core.v1.EnvVarSource;
import dev.machinery.api.core.v1.ObjectFieldSelector;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.client.Client;
import dev.machinery.client.PatchType;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kubernetes' Job controller ({@code job-controller}, Go's {@code pkg/controller/job}): creates a
 * Job's pods, counts them as they finish and writes the Job's status.
 *
 * <ul>
 *   <li>NonIndexed Jobs run {@code min(parallelism, completions - succeeded)} pods at once (with no
 *       {@code completions}, {@code parallelism} until one succeeds); Indexed Jobs one pod per
 *       pending index, annotated and labelled {@code batch.kubernetes.io/job-completion-index},
 *       with the hostname {@code <job>-<index>} and the {@code JOB_COMPLETION_INDEX} variable.
 *   <li>Every pod carries the {@code batch.kubernetes.io/job-tracking} finalizer; a finished pod is
 *       first recorded in {@code status.uncountedTerminatedPods}, its finalizer then removed, and
 *       it is then counted in {@code succeeded} / {@code failed} (and {@code completedIndexes}).
 *   <li>A replacement for failed pods waits {@code 10s · 2^(n-1)} (at most ten minutes) after the
 *       last of {@code n} consecutive failures, on the cluster's clock.
 *   <li>The Job fails (conditions {@code FailureTarget}, then {@code Failed} once no pod is left
 *       running) with {@code BackoffLimitExceeded}, {@code DeadlineExceeded} ({@code
 *       activeDeadlineSeconds} after {@code startTime}, on the cluster's clock) or {@code
 *       PodFailurePolicy} (a {@code FailJob} rule); {@code Ignore} rules leave a failure uncounted.
 *       It completes (conditions {@code SuccessCriteriaMet}, then {@code Complete}) with {@code
 *       CompletionsReached}.
 *   <li>{@code suspend} deletes the active pods and sets {@code Suspended}; resuming resets {@code
 *       startTime}.
 * </ul>
 *
 * <p>Thread-safe: the controller's workers reconcile different Jobs at once.
 */
public final class JobController implements Reconciler {
  /** The controller's name and service account. */
  public static final String NAME = "job-controller";

  private static final String JOB_COMPLETION_INDEX_ENV = "JOB_COMPLETION_INDEX";
  private static final int MAX_POD_CREATE_DELETE_PER_SYNC = 500;
  private static final int MAX_UNCOUNTED_PODS = 500;

  private final Lister<Job> jobs;
  private final Lister<Pod> pods;
  private final Client client;
  private final EventRecorder events;
  private final Clock clock;
  private final Expectations expectations = new Expectations();
  private final RecordedCounts recordedCounts = new RecordedCounts();
  private final Map<String, Backoff> backoffs = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> finalizersRemoved = new ConcurrentHashMap<>();
  private volatile RateLimitingQueue<Request> queue;
  private volatile RateLimitingQueue<Request> orphanQueue;

  private JobController(
      Lister<Job> jobs, Lister<Pod> pods, Client client, EventRecorder events, Clock clock) {
    this.jobs = jobs;
    this.pods = pods;
    this.client = client;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Sets the controller up: the shared Job and Pod informers, the {@code job-controller} client and
   * recorder, and a second queue that releases the tracking finalizer of pods whose Job is gone.
   *
   * @param context the controller manager's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<Job> jobInformer = context.informer(Job.class);
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    JobController reconciler =
        new JobController(
            jobInformer.lister(),
            podInformer.lister(),
            context.client(NAME),
            context.eventRecorder(NAME),
            context.clock());
    Controller controller =
        Controller.builder(NAME, reconciler)
            .watches(jobInformer, reconciler.new JobHandler())
            .watches(podInformer, reconciler.new PodHandler())
            .workers(2)
            .build();
    Controller orphans =
        Controller.builder(NAME + "-orphan-pods", reconciler::releaseOrphan)
            .watches(podInformer, reconciler.new OrphanPodHandler())
            .build();
    reconciler.queue = controller.queue();
    reconciler.orphanQueue = orphans.queue();
    context.add(controller);
    context.add(orphans);
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<Job> cached = jobs.namespace(request.namespace()).get(request.name());
    if (cached.isEmpty()) {
      // Pods whose Job is gone lose their finalizer through the orphan queue.
      for (Pod pod : pods.namespace(request.namespace()).list(Selector.everything())) {
        if (JobPods.hasTrackingFinalizer(pod)
            && JobPods.controllerJobName(pod).map(request.name()::equals).orElse(false)) {
          orphanQueue.add(Request.of(pod));
        }
      }
      return Result.done();
    }
    Job job = Copies.of(cached.get());
    String uid = job.getMetadata().getUid();
    if (!expectations.satisfied(uid) || recordedCounts.isStale(uid, job.getStatus())) {
      return Result.done();
    }
    List<Pod> owned = new ArrayList<>();
    for (Pod pod : pods.namespace(request.namespace()).list(Selector.everything())) {
      if (JobPods.controllerJobUid(pod).map(uid::equals).orElse(false)) {
        owned.add(pod);
      }
    }
    owned.sort(Comparator.comparing(p -> p.getMetadata().getName()));
    return new Sync(job, owned).run();
  }

  /** One sync of one Job (Go's {@code syncJob} with its {@code syncJobCtx}). */
  private final class Sync {
    private Job job;
    private final List<Pod> pods;
    private final String uid;
    private final Instant now = clock.now();
    private final JobSpec spec;
    private final boolean indexed;
    private final Integer completions;
    private final int parallelism;
    private final int backoffLimit;
    private final boolean onlyReplaceFailed;
    private final Set<String> removed;
    private Instant wakeAt;

    Sync(Job job, List<Pod> pods) {
      this.job = job;
      this.pods = pods;
      this.uid = job.getMetadata().getUid();
      this.spec = job.getSpec();
      this.indexed = "Indexed".equals(spec.getCompletionMode());
      this.completions = spec.getCompletions();
      this.parallelism = spec.getParallelism() == null ? 1 : spec.getParallelism();
      this.backoffLimit = spec.getBackoffLimit() == null ? 6 : spec.getBackoffLimit();
      this.onlyReplaceFailed =
          "Failed".equals(spec.getPodReplacementPolicy())
              || (spec.getPodReplacementPolicy() == null && spec.getPodFailurePolicy() != null);
      Set<String> seen = new HashSet<>();
      for (Pod pod : pods) {
        if (JobPods.hasTrackingFinalizer(pod)) {
          seen.add(pod.getMetadata().getUid());
        }
      }
      this.removed = finalizersRemoved.computeIfAbsent(uid, k -> ConcurrentHashMap.newKeySet());
      // What the cache now shows without the finalizer needs no remembering.
      this.removed.retainAll(seen);
    }

    private boolean tracked(Pod pod) {
      return JobPods.hasTrackingFinalizer(pod) && !removed.contains(pod.getMetadata().getUid());
    }

    Result run() throws Exception {
      JobStatus status = job.getStatus() == null ? new JobStatus() : job.getStatus();
      job.setStatus(status);
      if (isFinished(status)) {
        // A finished Job lets go of whatever pods it still holds.
        for (Pod pod : pods) {
          if (tracked(pod)) {
            removeFinalizer(pod);
          }
        }
        backoffs.remove(uid);
        return Result.done();
      }
      boolean suspended = Boolean.TRUE.equals(spec.getSuspend());
      boolean jobDeleted = job.getMetadata().getDeletionTimestamp() != null;
      UncountedTerminatedPods uncounted =
          status.getUncountedTerminatedPods() == null
              ? new UncountedTerminatedPods()
              : status.getUncountedTerminatedPods();
      Set<String> uncountedSucceeded = new LinkedHashSet<>(list(uncounted.getSucceeded()));
      Set<String> uncountedFailed = new LinkedHashSet<>(list(uncounted.getFailed()));

      // Newly finished pods, not yet recorded.
      List<Pod> newSucceeded = new ArrayList<>();
      List<Pod> newFailed = new ArrayList<>();
      String failJobMessage = null;
      for (Pod pod : pods) {
        String podUid = pod.getMetadata().getUid();
        if (!tracked(pod)
            || uncountedSucceeded.contains(podUid)
            || uncountedFailed.contains(podUid)) {
          continue;
        }
        if (JobPods.SUCCEEDED.equals(JobPods.phase(pod))) {
          newSucceeded.add(pod);
        } else if (JobPods.isFailed(pod, onlyReplaceFailed)) {
          newFailed.add(pod);
          PodFailurePolicies.Match match =
              PodFailurePolicies.match(spec.getPodFailurePolicy(), pod);
          if (failJobMessage == null && match.message() != null) {
            failJobMessage = match.message();
          }
        }
      }
      int newlyCountedFailures = 0;
      for (Pod pod : newFailed) {
        if (PodFailurePolicies.match(spec.getPodFailurePolicy(), pod).countsFailure()) {
          newlyCountedFailures++;
        }
      }
      int failed = intOf(status.getFailed()) + uncountedFailed.size() + newlyCountedFailures;
      List<Pod> active = new ArrayList<>();
      int terminating = 0;
      int restarts = 0;
      for (Pod pod : pods) {
        if (JobPods.isActive(pod)) {
          active.add(pod);
          restarts += JobPods.restarts(pod);
        } else if (JobPods.isTerminating(pod)
            && !JobPods.SUCCEEDED.equals(JobPods.phase(pod))
            && !JobPods.FAILED.equals(JobPods.phase(pod))) {
          terminating++;
        }
      }
      CompletedIndexes succeededIndexes = CompletedIndexes.empty();
      if (indexed) {
        List<Integer> indexes = new ArrayList<>();
        for (Pod pod : pods) {
          if (JobPods.SUCCEEDED.equals(JobPods.phase(pod))
              && (tracked(pod) || uncountedSucceeded.contains(pod.getMetadata().getUid()))) {
            JobPods.index(pod).ifPresent(indexes::add);
          }
        }
        succeededIndexes =
            CompletedIndexes.parse(status.getCompletedIndexes(), completions)
                .with(indexes, completions);
      }
      int succeeded =
          indexed
              ? succeededIndexes.total()
              : intOf(status.getSucceeded()) + uncountedSucceeded.size() + newSucceeded.size();

      // The start, and the back-off record of the new finishes.
      if (!suspended && status.getStartTime() == null) {
        status.setStartTime(new Time(now));
      }
      Backoff backoff = backoffs.getOrDefault(uid, Backoff.NONE).next(newSucceeded, newFailed);

      // Failure or success already decided, or decided now.
      JobCondition interim = null;
      JobCondition failureTarget = condition(status, "FailureTarget");
      JobCondition successMet = condition(status, "SuccessCriteriaMet");
      boolean failing = failureTarget != null;
      boolean succeeding = successMet != null;
      if (!failing && !succeeding) {
        String reason = null;
        String message = null;
        if (failJobMessage != null) {
          reason = "PodFailurePolicy";
          message = failJobMessage;
        } else if (failed > backoffLimit || pastBackoffLimitOnFailure(restarts)) {
          reason = "BackoffLimitExceeded";
          message = "Job has reached the specified backoff limit";
        } else if (pastActiveDeadline(status, suspended)) {
          reason = "DeadlineExceeded";
          message = "Job was active longer than specified deadline";
        }
        if (reason != null) {
          interim = newCondition("FailureTarget", reason, message);
          failing = true;
        }
      }

      int activeCount = active.size();
      if (failing) {
        activeCount -= deletePods(active, active.size());
      } else if (!succeeding) {
        if (suspended) {
          activeCount -= deletePods(active, active.size());
        } else if (!jobDeleted) {
          activeCount = manage(active, terminating, succeeded, succeededIndexes, backoff);
        }
        boolean complete;
        if (indexed) {
          complete = succeededIndexes.total() >= intOf(completions);
        } else if (completions == null) {
          complete = succeeded > 0 && activeCount == 0;
        } else {
          complete = succeeded >= completions;
        }
        if (complete) {
          interim =
              newCondition(
                  "SuccessCriteriaMet",
                  "CompletionsReached",
                  "Reached expected number of succeeded pods");
          succeeding = true;
          activeCount -= deletePods(active, activeCount);
        }
      } else {
        activeCount -= deletePods(active, activeCount);
      }
      boolean finishing = failing || succeeding || jobDeleted;

      // Record the newly finished pods as uncounted, with the interim condition.
      List<Pod> toRelease = new ArrayList<>();
      for (Pod pod : pods) {
        if (!tracked(pod)) {
          continue;
        }
        String podUid = pod.getMetadata().getUid();
        boolean podFailed = JobPods.isFailed(pod, onlyReplaceFailed);
        boolean podSucceeded = JobPods.SUCCEEDED.equals(JobPods.phase(pod));
        if (!finishing && !podSucceeded && !podFailed) {
          continue;
        }
        if (uncountedSucceeded.size() + uncountedFailed.size() >= MAX_UNCOUNTED_PODS) {
          break;
        }
        toRelease.add(pod);
        if (podSucceeded && !uncountedFailed.contains(podUid)) {
          if (!indexed || JobPods.index(pod).isPresent()) {
            uncountedSucceeded.add(podUid);
          }
        } else if (podFailed || (finishing && !succeeding)) {
          if (!uncountedFailed.contains(podUid)
              && PodFailurePolicies.match(spec.getPodFailurePolicy(), pod).countsFailure()) {
            uncountedFailed.add(podUid);
          }
        }
      }
      boolean suspendChanged = suspendCondition(status, suspended);
      boolean recordChanged =
          !uncountedSucceeded.equals(new LinkedHashSet<>(list(uncounted.getSucceeded())))
              || !uncountedFailed.equals(new LinkedHashSet<>(list(uncounted.getFailed())));
      status.setActive(activeCount);
      status.setReady(countReady(active));
      status.setTerminating(terminating);
      if (interim != null) {
        status.setConditions(append(status.getConditions(), interim));
      }
      if (recordChanged || interim != null || suspendChanged) {
        status.setUncountedTerminatedPods(uncountedOf(uncountedSucceeded, uncountedFailed));
        writeStatus(status);
        status = job.getStatus();
      }
      backoffs.put(uid, backoff);

      // Release the recorded pods, then count them.
      for (Pod pod : toRelease) {
        removeFinalizer(pod);
      }
      Set<String> released = new HashSet<>();
      for (Pod pod : toRelease) {
        if (removed.contains(pod.getMetadata().getUid())) {
          released.add(pod.getMetadata().getUid());
        }
      }
      Set<String> present = new HashSet<>();
      for (Pod pod : pods) {
        if (tracked(pod)) {
          present.add(pod.getMetadata().getUid());
        }
      }
      int countedSucceeded = 0;
      int countedFailed = 0;
      for (var it = uncountedSucceeded.iterator(); it.hasNext(); ) {
        String podUid = it.next();
        if (released.contains(podUid) || !present.contains(podUid)) {
          it.remove();
          countedSucceeded++;
        }
      }
      for (var it = uncountedFailed.iterator(); it.hasNext(); ) {
        String podUid = it.next();
        if (released.contains(podUid) || !present.contains(podUid)) {
          it.remove();
          countedFailed++;
        }
      }
      if (indexed) {
        status.setCompletedIndexes(succeededIndexes.toString());
      }
      status.setSucceeded(
          indexed ? succeededIndexes.total() : intOf(status.getSucceeded()) + countedSucceeded);
      status.setFailed(intOf(status.getFailed()) + countedFailed);
      status.setUncountedTerminatedPods(uncountedOf(uncountedSucceeded, uncountedFailed));

      // The terminal condition, once nothing runs and everything is counted.
      int stillTerminating = terminating;
      boolean finishedNow = false;
      if ((failing || succeeding)
          && uncountedSucceeded.isEmpty()
          && uncountedFailed.isEmpty()
          && stillTerminating == 0
          && activeCount == 0) {
        JobCondition reason = failing ? condition(status, "FailureTarget") : null;
        if (failing) {
          status.setConditions(
              append(
                  status.getConditions(),
                  newCondition("Failed", reason.getReason(), reason.getMessage())));
        } else {
          JobCondition met = condition(status, "SuccessCriteriaMet");
          status.setConditions(
              append(
                  status.getConditions(),
                  newCondition("Complete", met.getReason(), met.getMessage())));
          status.setCompletionTime(new Time(now));
        }
        status.setReady(0);
        status.setTerminating(0);
        finishedNow = true;
      }
      writeStatus(status);
      if (finishedNow) {
        JobCondition terminal = condition(job.getStatus(), failing ? "Failed" : "Complete");
        if (failing) {
          events.eventf(
              job,
              null,
              Event.TYPE_WARNING,
              terminal.getReason(),
              "Fail",
              "%s",
              terminal.getMessage());
        } else {
          events.eventf(job, null, Event.TYPE_NORMAL, "Completed", "Complete", "Job completed");
        }
        backoffs.remove(uid);
        return Result.done();
      }
      if (!failing && !succeeding && !suspended) {
        Long deadline = spec.getActiveDeadlineSeconds();
        if (deadline != null && job.getStatus().getStartTime() != null) {
          wakeAt(job.getStatus().getStartTime().instant().plusSeconds(deadline));
        }
      }
      if (wakeAt != null) {
        Request request = Request.of(job);
        clock.scheduleAt(wakeAt, () -> queue.add(request));
      }
      return Result.done();
    }

    private void wakeAt(Instant when) {
      if (wakeAt == null || when.isBefore(wakeAt)) {
        wakeAt = when;
      }
    }

    /** Go's {@code manageJob}: creates and deletes pods; returns the active count after. */
    private int manage(
        List<Pod> active,
        int terminating,
        int succeeded,
        CompletedIndexes succeededIndexes,
        Backoff backoff)
        throws Exception {
      int activeCount = active.size();
      if (onlyReplaceFailed && terminating > 0) {
        // Replacements wait until the terminating pods are gone.
        return activeCount;
      }
      if (indexed) {
        return manageIndexed(active, succeededIndexes, backoff);
      }
      int wantActive;
      if (completions == null) {
        wantActive = succeeded > 0 ? activeCount : parallelism;
      } else {
        wantActive = Math.max(0, Math.min(parallelism, completions - succeeded));
      }
      if (activeCount > wantActive) {
        List<Pod> ordered = new ArrayList<>(active);
        ordered.sort(JobController::forRemoval);
        return activeCount - deletePods(ordered, activeCount - wantActive);
      }
      if (activeCount < wantActive) {
        Duration remaining = backoff.remaining(now);
        if (remaining.compareTo(Duration.ZERO) > 0) {
          wakeAt(now.plus(remaining));
          return activeCount;
        }
        int diff = Math.min(wantActive - activeCount, MAX_POD_CREATE_DELETE_PER_SYNC);
        return activeCount + createPods(diff, null);
      }
      return activeCount;
    }

    private int manageIndexed(List<Pod> active, CompletedIndexes succeededIndexes, Backoff backoff)
        throws Exception {
      int total = intOf(completions);
      Map<Integer, Pod> kept = new TreeMap<>();
      List<Pod> remove = new ArrayList<>();
      List<Pod> ordered = new ArrayList<>(active);
      ordered.sort(JobController::forRemoval);
      // Kept: one pod an index, the best of its duplicates; the rest and pods without a valid
      // index (or a completed one) are removed.
      for (int i = ordered.size() - 1; i >= 0; i--) {
        Pod pod = ordered.get(i);
        OptionalInt index = JobPods.index(pod);
        if (index.isEmpty()
            || index.getAsInt() >= total
            || succeededIndexes.contains(index.getAsInt())
            || kept.containsKey(index.getAsInt())) {
          remove.add(pod);
        } else {
          kept.put(index.getAsInt(), pod);
        }
      }
      int activeCount = active.size() - deletePods(remove, remove.size());
      if (activeCount > parallelism) {
        List<Pod> extra = new ArrayList<>(kept.values());
        extra.sort(JobController::forRemoval);
        activeCount -= deletePods(extra, activeCount - parallelism);
        return activeCount;
      }
      int want = Math.min(parallelism, total - succeededIndexes.total());
      if (activeCount >= want) {
        return activeCount;
      }
      Duration remaining = backoff.remaining(now);
      if (remaining.compareTo(Duration.ZERO) > 0) {
        wakeAt(now.plus(remaining));
        return activeCount;
      }
      List<Integer> pending =
          firstPendingIndexes(
              kept.keySet(),
              succeededIndexes,
              Math.min(want - activeCount, MAX_POD_CREATE_DELETE_PER_SYNC),
              total);
      return activeCount + createPods(pending.size(), pending);
    }

    private int createPods(int count, List<Integer> indexes) throws Exception {
      if (count <= 0) {
        return 0;
      }
      expectations.expectCreations(uid, count);
      int created = 0;
      for (int i = 0; i < count; i++) {
        Pod pod = podFor(indexes == null ? null : indexes.get(i));
        try {
          Pod made =
              client.resources(Pod.class).inNamespace(job.getMetadata().getNamespace()).create(pod);
          created++;
          events.eventf(
              job,
              made,
              Event.TYPE_NORMAL,
              "SuccessfulCreate",
              "Create",
              "Created pod: %s",
              made.getMetadata().getName());
        } catch (Exception e) {
          // This creation and those not attempted will never be seen.
          for (int j = i; j < count; j++) {
            expectations.creationObserved(uid);
          }
          events.eventf(
              job,
              null,
              Event.TYPE_WARNING,
              "FailedCreate",
              "Create",
              "Error creating: %s",
              e.getMessage());
          throw e;
        }
      }
      return created;
    }

    private Pod podFor(Integer index) {
      Pod pod = new Pod();
      ObjectMeta meta = new ObjectMeta();
      ObjectMeta template =
          spec.getTemplate().getMetadata() == null
              ? new ObjectMeta()
              : spec.getTemplate().getMetadata();
      Map<String, String> labels =
          new LinkedHashMap<>(template.getLabels() == null ? Map.of() : template.getLabels());
      Map<String, String> annotations =
          new LinkedHashMap<>(
              template.getAnnotations() == null ? Map.of() : template.getAnnotations());
      String name = job.getMetadata().getName();
      meta.setNamespace(job.getMetadata().getNamespace());
      PodSpec podSpec = Copies.of(job).getSpec().getTemplate().getSpec();
      if (index != null) {
        meta.setGenerateName(JobPods.generateNameWithIndex(name, index));
        annotations.put(JobPods.COMPLETION_INDEX, Integer.toString(index));
        labels.put(JobPods.COMPLETION_INDEX, Integer.toString(index));
        if (podSpec.getHostname() == null || podSpec.getHostname().isEmpty()) {
          podSpec.setHostname(name + "-" + index);
        }
        addIndexEnv(podSpec.getContainers());
        addIndexEnv(podSpec.getInitContainers());
      } else {
        meta.setGenerateName(JobPods.generateName(name));
      }
      meta.setLabels(labels);
      meta.setAnnotations(annotations.isEmpty() ? null : annotations);
      List<String> finalizers =
          new ArrayList<>(template.getFinalizers() == null ? List.of() : template.getFinalizers());
      finalizers.add(JobPods.TRACKING_FINALIZER);
      meta.setFinalizers(finalizers);
      OwnerReference owner = new OwnerReference();
      owner.setApiVersion("batch/v1");
      owner.setKind("Job");
      owner.setName(name);
      owner.setUid(uid);
      owner.setController(true);
      owner.setBlockOwnerDeletion(true);
      meta.setOwnerReferences(List.of(owner));
      pod.setApiVersion("v1");
      pod.setKind("Pod");
      pod.setMetadata(meta);
      pod.setSpec(podSpec);
      return pod;
    }

    /** Deletes up to {@code count} of the pods, in order; returns how many it deleted. */
    private int deletePods(List<Pod> candidates, int count) throws Exception {
      int deleted = 0;
      for (Pod pod : candidates) {
        if (deleted >= Math.min(count, MAX_POD_CREATE_DELETE_PER_SYNC)) {
          break;
        }
        if (!JobPods.isActive(pod)) {
          continue;
        }
        String podUid = pod.getMetadata().getUid();
        expectations.expectDeletion(uid, podUid);
        try {
          client
              .resources(Pod.class)
              .inNamespace(pod.getMetadata().getNamespace())
              .delete(pod.getMetadata().getName(), new DeleteOptions());
          events.eventf(
              job,
              pod,
              Event.TYPE_NORMAL,
              "SuccessfulDelete",
              "Delete",
              "Deleted pod: %s",
              pod.getMetadata().getName());
        } catch (Exception e) {
          expectations.deletionObserved(uid, podUid);
          if (!ApiErrors.isNotFound(e)) {
            events.eventf(
                job,
                pod,
                Event.TYPE_WARNING,
                "FailedDelete",
                "Delete",
                "Error deleting: %s",
                e.getMessage());
            throw e;
          }
        }
        deleted++;
      }
      return deleted;
    }

    private void removeFinalizer(Pod pod) throws Exception {
      String podUid = pod.getMetadata().getUid();
      try {
        client
            .resources(Pod.class)
            .inNamespace(pod.getMetadata().getNamespace())
            .patch(
                pod.getMetadata().getName(),
                PatchType.STRATEGIC_MERGE,
                "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\""
                    + JobPods.TRACKING_FINALIZER
                    + "\"]}}",
                new PatchOptions());
      } catch (Exception e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
      }
      removed.add(podUid);
    }

    private void writeStatus(JobStatus status) throws Exception {
      Job cachedJob =
          jobs.namespace(job.getMetadata().getNamespace())
              .get(job.getMetadata().getName())
              .orElse(null);
      if (cachedJob != null
          && Objects.equals(cachedJob.getStatus(), status)
          && Objects.equals(
              cachedJob.getMetadata().getResourceVersion(),
              job.getMetadata().getResourceVersion())) {
        return;
      }
      job.setStatus(status);
      job =
          client
              .resources(Job.class)
              .inNamespace(job.getMetadata().getNamespace())
              .updateStatus(job, new dev.machinery.unversioned.meta.v1.UpdateOptions());
      if (job.getStatus() == null) {
        job.setStatus(new JobStatus());
      }
      recordedCounts.wrote(uid, job.getStatus());
    }

    /** Sets {@code Suspended} as the Job's suspension says; true when it changed. */
    private boolean suspendCondition(JobStatus status, boolean suspended) {
      JobCondition current = null;
      if (status.getConditions() != null) {
        for (JobCondition c : status.getConditions()) {
          if ("Suspended".equals(c.getType())) {
            current = c;
          }
        }
      }
      if (suspended) {
        if (current != null && "True".equals(current.getStatus())) {
          return false;
        }
        JobCondition condition = newCondition("Suspended", "JobSuspended", "Job suspended");
        replaceCondition(status, condition);
        events.eventf(job, null, Event.TYPE_NORMAL, "Suspended", "Suspend", "Job suspended");
        return true;
      }
      if (current != null && "True".equals(current.getStatus())) {
        JobCondition condition = newCondition("Suspended", "JobResumed", "Job resumed");
        condition.setStatus("False");
        replaceCondition(status, condition);
        // The deadline counts from the resumption.
        status.setStartTime(new Time(now));
        events.eventf(job, null, Event.TYPE_NORMAL, "Resumed", "Resume", "Job resumed");
        return true;
      }
      return false;
    }

    private boolean pastActiveDeadline(JobStatus status, boolean suspended) {
      Long deadline = spec.getActiveDeadlineSeconds();
      if (deadline == null || status.getStartTime() == null || suspended) {
        return false;
      }
      return !Duration.between(status.getStartTime().instant(), now)
          .minusSeconds(deadline)
          .isNegative();
    }

    private boolean pastBackoffLimitOnFailure(int restarts) {
      if (!"OnFailure".equals(spec.getTemplate().getSpec().getRestartPolicy())) {
        return false;
      }
      return backoffLimit == 0 ? restarts > 0 : restarts >= backoffLimit;
    }

    private JobCondition newCondition(String type, String reason, String message) {
      JobCondition condition = new JobCondition();
      condition.setType(type);
      condition.setStatus("True");
      condition.setReason(reason);
      condition.setMessage(message);
      condition.setLastProbeTime(new Time(now));
      condition.setLastTransitionTime(new Time(now));
      return condition;
    }
  }

  /**
   * The first {@code count} indexes below {@code completions} that neither succeeded nor have an
   * active pod (Go's {@code firstPendingIndexes}).
   */
  static List<Integer> firstPendingIndexes(
      Set<Integer> activeIndexes, CompletedIndexes succeeded, int count, int completions) {
    List<Integer> pending = new ArrayList<>();
    for (int i = 0; i < completions && pending.size() < count; i++) {
      if (!activeIndexes.contains(i) && !succeeded.contains(i)) {
        pending.add(i);
      }
    }
    return pending;
  }

  /** Pods to delete first: unscheduled, pending, not ready, newest (Go's {@code ActivePods}). */
  static int forRemoval(Pod a, Pod b) {
    boolean aScheduled = a.getSpec() != null && a.getSpec().getNodeName() != null;
    boolean bScheduled = b.getSpec() != null && b.getSpec().getNodeName() != null;
    if (aScheduled != bScheduled) {
      return aScheduled ? 1 : -1;
    }
    int aPhase = phaseRank(JobPods.phase(a));
    int bPhase = phaseRank(JobPods.phase(b));
    if (aPhase != bPhase) {
      return Integer.compare(aPhase, bPhase);
    }
    boolean aReady = JobPods.isReady(a);
    boolean bReady = JobPods.isReady(b);
    if (aReady != bReady) {
      return aReady ? 1 : -1;
    }
    Instant aCreated = a.getMetadata().getCreationTimestamp();
    Instant bCreated = b.getMetadata().getCreationTimestamp();
    if (aCreated != null && bCreated != null && !aCreated.equals(bCreated)) {
      return bCreated.compareTo(aCreated);
    }
    return 0;
  }

  private static int phaseRank(String phase) {
    return switch (phase) {
      case "" -> 0;
      case "Pending" -> 1;
      case "Unknown" -> 2;
      case "Running" -> 3;
      default -> 4;
    };
  }

  /** Releases the tracking finalizer of a pod whose Job is gone or is another. */
  private Result releaseOrphan(Request request) throws Exception {
    Optional<Pod> cached = pods.namespace(request.namespace()).get(request.name());
    if (cached.isEmpty() || !JobPods.hasTrackingFinalizer(cached.get())) {
      return Result.done();
    }
    Pod pod = cached.get();
    Optional<String> jobName = JobPods.controllerJobName(pod);
    Optional<String> jobUid = JobPods.controllerJobUid(pod);
    if (jobName.isPresent() && jobUid.isPresent()) {
      Optional<Job> job = jobs.namespace(request.namespace()).get(jobName.get());
      if (job.isPresent() && job.get().getMetadata().getUid().equals(jobUid.get())) {
        return Result.done(); // its Job deals with it
      }
      // The cache may lag a new Job: ask the server.
      try {
        Job live = client.resources(Job.class).inNamespace(request.namespace()).get(jobName.get());
        if (live.getMetadata().getUid().equals(jobUid.get())) {
          return Result.done();
        }
      } catch (Exception e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
      }
    }
    try {
      client
          .resources(Pod.class)
          .inNamespace(request.namespace())
          .patch(
              request.name(),
              PatchType.STRATEGIC_MERGE,
              "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\""
                  + JobPods.TRACKING_FINALIZER
                  + "\"]}}",
              new PatchOptions());
    } catch (Exception e) {
      if (!ApiErrors.isNotFound(e)) {
        throw e;
      }
    }
    return Result.done();
  }

  /** Enqueues a pod's Job, and counts the creations and deletions its informer shows. */
  /** Queues a Job on its events, and forgets what was recorded for a deleted one. */
  private final class JobHandler implements EventHandler<Job> {
    private final EventHandler<Job> enqueue = EventHandlers.enqueueRequestForObject();

    @Override
    public void create(Job job, RateLimitingQueue<Request> queue) {
      enqueue.create(job, queue);
    }

    @Override
    public void update(Job oldJob, Job newJob, RateLimitingQueue<Request> queue) {
      enqueue.update(oldJob, newJob, queue);
    }

    @Override
    public void delete(Job job, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
      recordedCounts.forget(job.getMetadata().getUid());
      enqueue.delete(job, finalStateUnknown, queue);
    }
  }

  private final class PodHandler implements EventHandler<Pod> {
    @Override
    public void create(Pod pod, RateLimitingQueue<Request> queue) {
      Optional<String> owner = JobPods.controllerJobUid(pod);
      if (owner.isEmpty()) {
        return;
      }
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        expectations.deletionObserved(owner.get(), pod.getMetadata().getUid());
      }
      expectations.creationObserved(owner.get());
      enqueue(pod, queue);
    }

    @Override
    public void update(Pod oldPod, Pod newPod, RateLimitingQueue<Request> queue) {
      Optional<String> owner = JobPods.controllerJobUid(newPod);
      if (owner.isPresent() && newPod.getMetadata().getDeletionTimestamp() != null) {
        expectations.deletionObserved(owner.get(), newPod.getMetadata().getUid());
      }
      enqueue(oldPod, queue);
      enqueue(newPod, queue);
    }

    @Override
    public void delete(Pod pod, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
      Optional<String> owner = JobPods.controllerJobUid(pod);
      if (owner.isPresent()) {
        expectations.deletionObserved(owner.get(), pod.getMetadata().getUid());
        Set<String> removed = finalizersRemoved.get(owner.get());
        if (removed != null) {
          removed.remove(pod.getMetadata().getUid());
        }
      }
      enqueue(pod, queue);
    }

    private void enqueue(Pod pod, RateLimitingQueue<Request> queue) {
      JobPods.controllerJobName(pod)
          .ifPresent(name -> queue.add(new Request(pod.getMetadata().getNamespace(), name)));
    }
  }

  /** Enqueues pods that hold the tracking finalizer without a Job controlling them. */
  private final class OrphanPodHandler implements EventHandler<Pod> {
    @Override
    public void create(Pod pod, RateLimitingQueue<Request> queue) {
      check(pod, queue);
    }

    @Override
    public void update(Pod oldPod, Pod newPod, RateLimitingQueue<Request> queue) {
      check(newPod, queue);
    }

    @Override
    public void delete(Pod pod, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {}

    private void check(Pod pod, RateLimitingQueue<Request> queue) {
      if (!JobPods.hasTrackingFinalizer(pod)) {
        return;
      }
      Optional<String> name = JobPods.controllerJobName(pod);
      Optional<String> owner = JobPods.controllerJobUid(pod);
      if (name.isEmpty() || owner.isEmpty()) {
        queue.add(Request.of(pod));
        return;
      }
      Optional<Job> job = jobs.namespace(pod.getMetadata().getNamespace()).get(name.get());
      if (job.isEmpty() || !job.get().getMetadata().getUid().equals(owner.get())) {
        queue.add(Request.of(pod));
      }
    }
  }

  private static boolean isFinished(JobStatus status) {
    if (status.getConditions() == null) {
      return false;
    }
    for (JobCondition condition : status.getConditions()) {
      if (("Complete".equals(condition.getType()) || "Failed".equals(condition.getType()))
          && "True".equals(condition.getStatus())) {
        return true;
      }
    }
    return false;
  }

  private static JobCondition condition(JobStatus status, String type) {
    if (status == null || status.getConditions() == null) {
      return null;
    }
    for (JobCondition condition : status.getConditions()) {
      if (type.equals(condition.getType()) && "True".equals(condition.getStatus())) {
        return condition;
      }
    }
    return null;
  }

  private static void replaceCondition(JobStatus status, JobCondition condition) {
    List<JobCondition> conditions = new ArrayList<>();
    boolean replaced = false;
    if (status.getConditions() != null) {
      for (JobCondition c : status.getConditions()) {
        if (c.getType().equals(condition.getType())) {
          conditions.add(condition);
          replaced = true;
        } else {
          conditions.add(c);
        }
      }
    }
    if (!replaced) {
      conditions.add(condition);
    }
    status.setConditions(conditions);
  }

  private static List<JobCondition> append(List<JobCondition> conditions, JobCondition condition) {
    List<JobCondition> result = new ArrayList<>(conditions == null ? List.of() : conditions);
    result.add(condition);
    return result;
  }

  private static UncountedTerminatedPods uncountedOf(Set<String> succeeded, Set<String> failed) {
    UncountedTerminatedPods uncounted = new UncountedTerminatedPods();
    uncounted.setSucceeded(succeeded.isEmpty() ? null : new ArrayList<>(succeeded));
    uncounted.setFailed(failed.isEmpty() ? null : new ArrayList<>(failed));
    return uncounted;
  }

  private static void addIndexEnv(List<Container> containers) {
    if (containers == null) {
      return;
    }
    for (Container container : containers) {
      List<EnvVar> env =
          new ArrayList<>(container.getEnv() == null ? List.of() : container.getEnv());
      if (env.stream().anyMatch(e -> JOB_COMPLETION_INDEX_ENV.equals(e.getName()))) {
        continue;
      }
      ObjectFieldSelector field = new ObjectFieldSelector();
      field.setFieldPath("metadata.annotations['" + JobPods.COMPLETION_INDEX + "']");
      EnvVarSource source = new EnvVarSource();
      source.setFieldRef(field);
      EnvVar var = new EnvVar();
      var.setName(JOB_COMPLETION_INDEX_ENV);
      var.setValueFrom(source);
      env.add(var);
      container.setEnv(env);
    }
  }

  private static int countReady(List<Pod> active) {
    int ready = 0;
    for (Pod pod : active) {
      if (JobPods.isReady(pod)) {
        ready++;
      }
    }
    return ready;
  }

  private static int intOf(Integer value) {
    return value == null ? 0 : value;
  }

  private static List<String> list(List<String> values) {
    return values == null ? List.of() : values;
  }
}
