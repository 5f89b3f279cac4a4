package dev.machinery.cluster.controller.ttlafterfinished;

import dev.machinery.api.batch.v1.Job;
import dev.machinery.api.batch.v1.JobCondition;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.TerminalException;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.Preconditions;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Kubernetes' TTL-after-finished controller ({@code ttl-after-finished-controller}): a Job with
 * {@code spec.ttlSecondsAfterFinished} is deleted, with foreground propagation (its pods first),
 * that many seconds after its {@code Complete} or {@code Failed} condition's {@code
 * lastTransitionTime}, as the cluster's clock tells. Before deleting, the Job is read again from
 * the server and checked once more, and the deletion carries the resource version read, so a Job
 * whose TTL was just changed is not deleted by mistake.
 *
 * <p>Thread-safe: the controller's workers reconcile different Jobs at once.
 */
public final class TtlAfterFinishedController implements Reconciler {
  /** The controller's name and service account. */
  public static final String NAME = "ttl-after-finished-controller";

  private final Lister<Job> jobs;
  private final Client client;
  private final Clock clock;
  private volatile Consumer<Request> wake = request -> {};

  private TtlAfterFinishedController(Lister<Job> jobs, Client client, Clock clock) {
    this.jobs = jobs;
    this.client = client;
    this.clock = clock;
  }

  /**
   * Sets the controller up on the shared Job informer and the {@code ttl-after-finished-controller}
   * client.
   *
   * @param context the controller manager's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<Job> informer = context.informer(Job.class);
    TtlAfterFinishedController reconciler =
        new TtlAfterFinishedController(informer.lister(), context.client(NAME), context.clock());
    Controller controller =
        Controller.builder(NAME, reconciler)
            .watches(informer, EventHandlers.enqueueRequestForObject())
            .workers(2)
            .build();
    reconciler.wake = controller.queue()::add;
    context.add(controller);
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<Job> cached = jobs.namespace(request.namespace()).get(request.name());
    if (cached.isEmpty() || !needsCleanup(cached.get())) {
      return Result.done();
    }
    Instant expireAt = expireAt(cached.get());
    if (clock.now().isBefore(expireAt)) {
      clock.scheduleAt(expireAt, () -> wake.accept(request));
      return Result.done();
    }
    // The cache may be stale: read the Job again and decide on what the server holds.
    ResourceClient<Job> live = client.resources(Job.class).inNamespace(request.namespace());
    Job fresh;
    try {
      fresh = live.get(request.name());
    } catch (Exception e) {
      if (ApiErrors.isNotFound(e)) {
        return Result.done();
      }
      throw e;
    }
    if (!needsCleanup(fresh)) {
      return Result.done();
    }
    Instant freshExpireAt = expireAt(fresh);
    if (clock.now().isBefore(freshExpireAt)) {
      clock.scheduleAt(freshExpireAt, () -> wake.accept(request));
      return Result.done();
    }
    DeleteOptions options = new DeleteOptions();
    options.setPropagationPolicy("Foreground");
    Preconditions preconditions = new Preconditions();
    preconditions.setResourceVersion(fresh.getMetadata().getResourceVersion());
    options.setPreconditions(preconditions);
    try {
      live.delete(request.name(), options);
    } catch (Exception e) {
      if (!ApiErrors.isNotFound(e)) {
        throw e;
      }
    }
    return Result.done();
  }

  /** A Job to clean up: a TTL, finished, and not being deleted (Go's {@code needsCleanup}). */
  static boolean needsCleanup(Job job) {
    return job.getSpec() != null
        && job.getSpec().getTtlSecondsAfterFinished() != null
        && job.getMetadata().getDeletionTimestamp() == null
        && finishedCondition(job).isPresent();
  }

  /**
   * When the Job expires: its finish plus its TTL (Go's {@code processTTL}).
   *
   * @throws TerminalException when the finished condition has no transition time, in kube's words
   */
  static Instant expireAt(Job job) throws TerminalException {
    JobCondition finished = finishedCondition(job).orElseThrow();
    if (finished.getLastTransitionTime() == null) {
      throw new TerminalException(
          "unable to find the time when the Job "
              + job.getMetadata().getNamespace()
              + "/"
              + job.getMetadata().getName()
              + " finished");
    }
    return finished
        .getLastTransitionTime()
        .instant()
        .plusSeconds(job.getSpec().getTtlSecondsAfterFinished());
  }

  private static Optional<JobCondition> finishedCondition(Job job) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return job.getStatus().getConditions().stream()
        .filter(
            c ->
                ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
                    && "True".equals(c.getStatus()))
        .findFirst();
  }
}
