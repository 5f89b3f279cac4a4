package dev.machinery.cluster.controller.cronjob;

import dev.machinery.api.batch.v1.CronJob;
import dev.machinery.api.batch.v1.CronJobSpec;
import dev.machinery.api.batch.v1.CronJobStatus;
import dev.machinery.api.batch.v1.Job;
import dev.machinery.api.batch.v1.JobCondition;
import dev.machinery.api.core.v1.ObjectReference;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Kubernetes' CronJob controller ({@code cronjob-controller}, Go's {@code
 * pkg/controller/cronjob/cronjob_controllerv2.go}): creates a CronJob's Jobs at its scheduled
 * times, as the cluster's clock tells, and keeps its status.
 *
 * <ul>
 *   <li>Jobs are named {@code <cronjob>-<scheduled time in minutes since the epoch>}, annotated
 *       {@code batch.kubernetes.io/cronjob-scheduled-timestamp} (RFC 3339 in the CronJob's zone),
 *       with the template's labels and annotations and a controller owner reference.
 *   <li>{@code status.active} lists the running Jobs, {@code lastScheduleTime} the last scheduled
 *       time started, {@code lastSuccessfulTime} the latest completion.
 *   <li>{@code concurrencyPolicy}: {@code Allow}, {@code Forbid} (event {@code JobAlreadyActive}),
 *       {@code Replace} (the running Jobs deleted first); {@code suspend}; {@code
 *       startingDeadlineSeconds} (event {@code MissSchedule} when too late); more than 100 missed
 *       times give the event {@code TooManyMissedTimes}.
 *   <li>{@code successfulJobsHistoryLimit} and {@code failedJobsHistoryLimit}: the oldest finished
 *       Jobs beyond them are deleted (background propagation).
 *   <li>{@code timeZone}, an IANA name; without it, UTC.
 * </ul>
 *
 * <p>Thread-safe: the controller's workers reconcile different CronJobs at once.
 */
public final class CronJobController implements Reconciler {
  /** The controller's name and service account. */
  public static final String NAME = "cronjob-controller";

  /** The annotation that carries a Job's scheduled time. */
  static final String SCHEDULED_TIMESTAMP = "batch.kubernetes.io/cronjob-scheduled-timestamp";

  private static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

  private final Lister<CronJob> cronJobs;
  private final Lister<Job> jobs;
  private final Client client;
  private final EventRecorder events;
  private final Clock clock;
  private volatile Consumer<Request> wake = request -> {};

  private CronJobController(
      Lister<CronJob> cronJobs,
      Lister<Job> jobs,
      Client client,
      EventRecorder events,
      Clock clock) {
    this.cronJobs = cronJobs;
    this.jobs = jobs;
    this.client = client;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Sets the controller up on the shared CronJob and Job informers, with the {@code
   * cronjob-controller} client and recorder.
   *
   * @param context the controller manager's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<CronJob> cronJobInformer = context.informer(CronJob.class);
    SharedIndexInformer<Job> jobInformer = context.informer(Job.class);
    CronJobController reconciler =
        new CronJobController(
            cronJobInformer.lister(),
            jobInformer.lister(),
            context.client(NAME),
            context.eventRecorder(NAME),
            context.clock());
    Controller controller =
        Controller.builder(NAME, reconciler)
            .watches(cronJobInformer, EventHandlers.enqueueRequestForObject())
            .watches(
                jobInformer, EventHandlers.enqueueRequestForOwner("batch", "CronJob", true, true))
            .workers(2)
            .build();
    reconciler.wake = controller.queue()::add;
    context.add(controller);
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<CronJob> cached = cronJobs.namespace(request.namespace()).get(request.name());
    if (cached.isEmpty()) {
      return Result.done();
    }
    CronJob cronJob = Copies.of(cached.get());
    if (cronJob.getStatus() == null) {
      cronJob.setStatus(new CronJobStatus());
    }
    CronJobStatus before = Copies.of(cached.get()).getStatus();
    String uid = cronJob.getMetadata().getUid();
    List<Job> owned = new ArrayList<>();
    for (Job job : jobs.namespace(request.namespace()).list(Selector.everything())) {
      if (controllerUid(job.getMetadata()).map(uid::equals).orElse(false)) {
        owned.add(job);
      }
    }
    // One reading of the clock for the whole pass: the wake-up is counted from the time the
    // schedule was judged at, so a clock moved meanwhile cannot push it past the next run.
    Instant now = clock.now();
    Duration requeueAfter = sync(cronJob, owned, now);
    if (cronJob.getMetadata().getDeletionTimestamp() == null) {
      cleanupFinishedJobs(cronJob, owned);
    }
    if (!Objects.equals(before, cronJob.getStatus())) {
      client
          .resources(CronJob.class)
          .inNamespace(request.namespace())
          .updateStatus(cronJob, new UpdateOptions());
    }
    if (requeueAfter != null) {
      clock.scheduleAt(now.plus(requeueAfter), () -> wake.accept(request));
    }
    return Result.done();
  }

  /** Go's {@code syncCronJob}: returns when to look again, null for not by itself. */
  private Duration sync(CronJob cronJob, List<Job> owned, Instant now) throws Exception {
    CronJobSpec spec = cronJob.getSpec();
    CronJobStatus status = cronJob.getStatus();
    String namespace = cronJob.getMetadata().getNamespace();
    Set<String> children = new HashSet<>();
    for (Job job : owned) {
      String jobUid = job.getMetadata().getUid();
      children.add(jobUid);
      boolean found = inActive(status, jobUid);
      String finished = finishedType(job);
      if (!found && finished == null) {
        CronJob fresh =
            client
                .resources(CronJob.class)
                .inNamespace(namespace)
                .get(cronJob.getMetadata().getName());
        if (fresh.getStatus() != null && inActive(fresh.getStatus(), jobUid)) {
          cronJob.getMetadata().setResourceVersion(fresh.getMetadata().getResourceVersion());
          status.setActive(fresh.getStatus().getActive());
          status.setLastScheduleTime(fresh.getStatus().getLastScheduleTime());
          status.setLastSuccessfulTime(fresh.getStatus().getLastSuccessfulTime());
          continue;
        }
        events.eventf(
            cronJob,
            job,
            Event.TYPE_WARNING,
            "UnexpectedJob",
            "Sync",
            "Saw a job that the controller did not create or forgot: %s",
            job.getMetadata().getName());
      } else if (found && finished != null) {
        removeFromActive(status, jobUid);
        events.eventf(
            cronJob,
            job,
            Event.TYPE_NORMAL,
            "SawCompletedJob",
            "Sync",
            "Saw completed job: %s, condition: %s",
            job.getMetadata().getName(),
            finished);
      } else if ("Complete".equals(finished)) {
        Time completion = job.getStatus().getCompletionTime();
        if (completion != null
            && (status.getLastSuccessfulTime() == null
                || completion.instant().isAfter(status.getLastSuccessfulTime().instant()))) {
          status.setLastSuccessfulTime(completion);
        }
      }
    }
    // Active Jobs that are gone (asked of the server, not the cache) leave the list.
    for (ObjectReference reference : new ArrayList<>(list(status.getActive()))) {
      if (children.contains(reference.getUid())) {
        continue;
      }
      try {
        client.resources(Job.class).inNamespace(namespace).get(reference.getName());
      } catch (Exception e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
        events.eventf(
            cronJob,
            null,
            Event.TYPE_NORMAL,
            "MissingJob",
            "Sync",
            "Active job went missing: %s",
            reference.getName());
        removeFromActive(status, reference.getUid());
      }
    }
    if (cronJob.getMetadata().getDeletionTimestamp() != null) {
      return null;
    }
    ZoneId zone = ZoneOffset.UTC;
    if (spec.getTimeZone() != null) {
      try {
        zone = ZoneId.of(spec.getTimeZone());
      } catch (DateTimeException e) {
        events.eventf(
            cronJob,
            null,
            Event.TYPE_WARNING,
            "UnknownTimeZone",
            "Sync",
            "invalid timeZone: %s: %s",
            quote(spec.getTimeZone()),
            "unknown time zone " + spec.getTimeZone());
        return null;
      }
    }
    if (Boolean.TRUE.equals(spec.getSuspend())) {
      return null;
    }
    if (spec.getSchedule() != null && spec.getSchedule().contains("TZ")) {
      events.eventf(
          cronJob,
          null,
          Event.TYPE_WARNING,
          "UnsupportedSchedule",
          "Sync",
          "CRON_TZ or TZ used in schedule %s is not officially supported, see"
              + " https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more"
              + " details",
          quote(spec.getSchedule()));
    }
    CronSchedule schedule;
    try {
      schedule = CronSchedule.parse(spec.getSchedule(), zone);
    } catch (CronSchedule.ParseException e) {
      events.eventf(
          cronJob,
          null,
          Event.TYPE_WARNING,
          "UnparseableSchedule",
          "Sync",
          "unparseable schedule: %s : %s",
          quote(spec.getSchedule()),
          e.getMessage());
      return null;
    }
    Instant created = cronJob.getMetadata().getCreationTimestamp();
    Instant last =
        status.getLastScheduleTime() == null ? null : status.getLastScheduleTime().instant();
    Long sds = spec.getStartingDeadlineSeconds();
    ScheduleTimes.Recent recent;
    try {
      recent = ScheduleTimes.mostRecent(created, last, sds, now, schedule, true);
    } catch (ScheduleTimes.InvalidScheduleException e) {
      events.eventf(
          cronJob,
          null,
          Event.TYPE_WARNING,
          "InvalidSchedule",
          "Sync",
          "invalid schedule: %s : %s",
          spec.getSchedule(),
          e.getMessage());
      return null;
    }
    Instant scheduled = recent.mostRecent();
    if (scheduled != null && recent.missed() == ScheduleTimes.Missed.MANY) {
      events.eventf(
          cronJob,
          null,
          Event.TYPE_WARNING,
          "TooManyMissedTimes",
          "Sync",
          "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check"
              + " clock skew");
    }
    if (scheduled == null || scheduled.isAfter(now)) {
      return ScheduleTimes.nextDuration(created, last, sds, now, schedule);
    }
    if (sds != null && scheduled.plusSeconds(sds).isBefore(now)) {
      events.eventf(
          cronJob,
          null,
          Event.TYPE_WARNING,
          "MissSchedule",
          "Sync",
          "Missed scheduled time to start a job: %s",
          DateTimeFormatter.RFC_1123_DATE_TIME.format(scheduled.atZone(ZoneOffset.UTC)));
      return ScheduleTimes.nextDuration(created, last, sds, now, schedule);
    }
    String jobName = jobName(cronJob.getMetadata().getName(), scheduled);
    boolean processed =
        list(status.getActive()).stream().anyMatch(r -> jobName.equals(r.getName()))
            || (last != null && last.equals(scheduled));
    if (processed) {
      return ScheduleTimes.nextDuration(created, last, sds, now, schedule);
    }
    String policy = spec.getConcurrencyPolicy() == null ? "Allow" : spec.getConcurrencyPolicy();
    if ("Forbid".equals(policy) && !list(status.getActive()).isEmpty()) {
      events.eventf(
          cronJob,
          null,
          Event.TYPE_NORMAL,
          "JobAlreadyActive",
          "Sync",
          "Not starting job because prior execution is running and concurrency policy is Forbid");
      return ScheduleTimes.nextDuration(created, last, sds, now, schedule);
    }
    if ("Replace".equals(policy)) {
      for (ObjectReference reference : new ArrayList<>(list(status.getActive()))) {
        Job job;
        try {
          job = client.resources(Job.class).inNamespace(namespace).get(reference.getName());
        } catch (Exception e) {
          events.eventf(
              cronJob,
              null,
              Event.TYPE_WARNING,
              "FailedGet",
              "Sync",
              "Get job: %s",
              e.getMessage());
          throw e;
        }
        deleteJob(cronJob, job);
      }
    }
    Job request = jobFor(cronJob, scheduled, zone);
    ResourceClient<Job> jobClient = client.resources(Job.class).inNamespace(namespace);
    Job made;
    boolean existed = false;
    try {
      made = jobClient.create(request);
    } catch (Exception e) {
      if (!ApiErrors.isAlreadyExists(e)) {
        events.eventf(
            cronJob,
            null,
            Event.TYPE_WARNING,
            "FailedCreate",
            "Create",
            "Error creating job: %s",
            e.getMessage());
        throw e;
      }
      existed = true;
      made = jobClient.get(request.getMetadata().getName());
      if (!controllerUid(made.getMetadata())
              .map(cronJob.getMetadata().getUid()::equals)
              .orElse(false)
          || inActive(status, made.getMetadata().getUid())) {
        return null;
      }
    }
    if (!existed) {
      events.eventf(
          cronJob,
          made,
          Event.TYPE_NORMAL,
          "SuccessfulCreate",
          "Create",
          "Created job %s",
          made.getMetadata().getName());
    }
    List<ObjectReference> active = new ArrayList<>(list(status.getActive()));
    active.add(referenceTo(made));
    status.setActive(active);
    status.setLastScheduleTime(new Time(scheduled));
    return ScheduleTimes.nextDuration(created, scheduled, sds, now, schedule);
  }

  /** Go's {@code cleanupFinishedJobs}: the oldest finished Jobs beyond the history limits go. */
  private void cleanupFinishedJobs(CronJob cronJob, List<Job> owned) throws Exception {
    CronJobSpec spec = cronJob.getSpec();
    if (spec.getSuccessfulJobsHistoryLimit() == null && spec.getFailedJobsHistoryLimit() == null) {
      return;
    }
    List<Job> succeeded = new ArrayList<>();
    List<Job> failed = new ArrayList<>();
    for (Job job : owned) {
      String finished = finishedType(job);
      if ("Complete".equals(finished)) {
        succeeded.add(job);
      } else if ("Failed".equals(finished)) {
        failed.add(job);
      }
    }
    if (spec.getSuccessfulJobsHistoryLimit() != null) {
      removeOldest(cronJob, succeeded, spec.getSuccessfulJobsHistoryLimit());
    }
    if (spec.getFailedJobsHistoryLimit() != null) {
      removeOldest(cronJob, failed, spec.getFailedJobsHistoryLimit());
    }
  }

  private void removeOldest(CronJob cronJob, List<Job> finished, int keep) throws Exception {
    int toDelete = finished.size() - keep;
    if (toDelete <= 0) {
      return;
    }
    List<Job> sorted = new ArrayList<>(finished);
    sorted.sort(BY_START_TIME);
    for (int i = 0; i < toDelete; i++) {
      deleteJob(cronJob, sorted.get(i));
    }
  }

  /** Go's {@code byJobStartTime}: started first, by start time, then by name. */
  static final Comparator<Job> BY_START_TIME =
      (a, b) -> {
        Time aStart = a.getStatus() == null ? null : a.getStatus().getStartTime();
        Time bStart = b.getStatus() == null ? null : b.getStatus().getStartTime();
        if (aStart == null || bStart == null) {
          if (aStart == null && bStart == null) {
            return a.getMetadata().getName().compareTo(b.getMetadata().getName());
          }
          return aStart == null ? 1 : -1;
        }
        int byTime = aStart.instant().compareTo(bStart.instant());
        return byTime != 0
            ? byTime
            : a.getMetadata().getName().compareTo(b.getMetadata().getName());
      };

  private void deleteJob(CronJob cronJob, Job job) throws Exception {
    DeleteOptions options = new DeleteOptions();
    options.setPropagationPolicy("Background");
    try {
      client
          .resources(Job.class)
          .inNamespace(job.getMetadata().getNamespace())
          .delete(job.getMetadata().getName(), options);
    } catch (Exception e) {
      if (!ApiErrors.isNotFound(e)) {
        events.eventf(
            cronJob,
            job,
            Event.TYPE_WARNING,
            "FailedDelete",
            "Delete",
            "Deleted job: %s",
            e.getMessage());
        throw e;
      }
    }
    removeFromActive(cronJob.getStatus(), job.getMetadata().getUid());
    events.eventf(
        cronJob,
        job,
        Event.TYPE_NORMAL,
        "SuccessfulDelete",
        "Delete",
        "Deleted job %s",
        job.getMetadata().getName());
  }

  /**
   * The Job of a scheduled time (Go's {@code getJobFromTemplate2}).
   *
   * @param cronJob the CronJob
   * @param scheduled the scheduled time
   * @param zone the CronJob's zone, for the annotation
   * @return the Job to create
   */
  Job jobFor(CronJob cronJob, Instant scheduled, ZoneId zone) {
    CronJob template = Copies.of(cronJob);
    ObjectMeta templateMeta = template.getSpec().getJobTemplate().getMetadata();
    Map<String, String> labels =
        new LinkedHashMap<>(
            templateMeta == null || templateMeta.getLabels() == null
                ? Map.of()
                : templateMeta.getLabels());
    Map<String, String> annotations =
        new LinkedHashMap<>(
            templateMeta == null || templateMeta.getAnnotations() == null
                ? Map.of()
                : templateMeta.getAnnotations());
    annotations.put(SCHEDULED_TIMESTAMP, RFC3339.format(scheduled.atZone(zone)));
    ObjectMeta meta = new ObjectMeta();
    meta.setName(jobName(cronJob.getMetadata().getName(), scheduled));
    meta.setNamespace(cronJob.getMetadata().getNamespace());
    meta.setLabels(labels.isEmpty() ? null : labels);
    meta.setAnnotations(annotations);
    OwnerReference owner = new OwnerReference();
    owner.setApiVersion("batch/v1");
    owner.setKind("CronJob");
    owner.setName(cronJob.getMetadata().getName());
    owner.setUid(cronJob.getMetadata().getUid());
    owner.setController(true);
    owner.setBlockOwnerDeletion(true);
    meta.setOwnerReferences(List.of(owner));
    Job job = new Job();
    job.setApiVersion("batch/v1");
    job.setKind("Job");
    job.setMetadata(meta);
    job.setSpec(template.getSpec().getJobTemplate().getSpec());
    return job;
  }

  /**
   * A Job's name: the CronJob's and the scheduled time in minutes since the epoch (Go's {@code
   * getJobName}).
   */
  static String jobName(String cronJob, Instant scheduled) {
    return cronJob + "-" + Math.floorDiv(scheduled.getEpochSecond(), 60);
  }

  private static ObjectReference referenceTo(Job job) {
    ObjectReference reference = new ObjectReference();
    reference.setApiVersion("batch/v1");
    reference.setKind("Job");
    reference.setName(job.getMetadata().getName());
    reference.setNamespace(job.getMetadata().getNamespace());
    reference.setUid(job.getMetadata().getUid());
    reference.setResourceVersion(job.getMetadata().getResourceVersion());
    return reference;
  }

  private static boolean inActive(CronJobStatus status, String uid) {
    return list(status.getActive()).stream().anyMatch(r -> uid.equals(r.getUid()));
  }

  private static void removeFromActive(CronJobStatus status, String uid) {
    List<ObjectReference> kept = new ArrayList<>();
    for (ObjectReference reference : list(status.getActive())) {
      if (!uid.equals(reference.getUid())) {
        kept.add(reference);
      }
    }
    status.setActive(kept.isEmpty() ? null : kept);
  }

  private static String finishedType(Job job) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
    }
    for (JobCondition condition : job.getStatus().getConditions()) {
      if (("Complete".equals(condition.getType()) || "Failed".equals(condition.getType()))
          && "True".equals(condition.getStatus())) {
        return condition.getType();
      }
    }
    return null;
  }

  private static Optional<String> controllerUid(ObjectMeta meta) {
    if (meta.getOwnerReferences() == null) {
      return Optional.empty();
    }
    return meta.getOwnerReferences().stream()
        .filter(o -> Boolean.TRUE.equals(o.getController()) && "CronJob".equals(o.getKind()))
        .map(OwnerReference::getUid)
        .findFirst();
  }

  private static <T> List<T> list(List<T> values) {
    return values == null ? List.of() : values;
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
