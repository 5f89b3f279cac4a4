package dev.machinery.cluster.controller.job;

import dev.machinery.api.batch.v1.JobStatus;
import dev.machinery.api.batch.v1.UncountedTerminatedPods;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The finished pods this controller last recorded in each Job's status, so that a sync does not act
 * on a Job its informer has not yet shown that write for.
 *
 * <p>A Job's finished pods ({@code succeeded} and {@code failed}, each with the pods listed in
 * {@code uncountedTerminatedPods}) only grow, and only the Job controller writes them. The pod
 * informer and the Job informer are separate watches: after a sync records a failed pod and
 * releases its tracking finalizer, the pod cache can show the pod released while the Job cache
 * still shows the status from before; that pod is then neither tracked nor counted, and a sync
 * would replace it as if it had never failed (a Job with {@code backoffLimit: 0} got a second pod).
 * A cached Job counting fewer finished pods than recorded here is therefore stale and not synced;
 * its own update event queues it again. As with {@link Expectations}, a record older than five
 * minutes no longer holds a Job back.
 *
 * <p>Thread-safe.
 */
final class RecordedCounts {
  private final Map<String, Recorded> recorded = new ConcurrentHashMap<>();

  private record Recorded(int succeeded, int failed, Instant at) {}

  /**
   * Remembers the counts of a status this controller wrote.
   *
   * @param jobUid the Job's uid
   * @param status the status the server answered the write with
   */
  void wrote(String jobUid, JobStatus status) {
    recorded.put(jobUid, new Recorded(succeeded(status), failed(status), Instant.now()));
  }

  /**
   * Whether a cached status counts fewer finished pods than this controller last wrote. A status
   * that caught up ends the record.
   *
   * @param jobUid the Job's uid
   * @param cached the status in the informer's cache, or null
   * @return true when the cache has not yet shown the last write
   */
  boolean isStale(String jobUid, JobStatus cached) {
    Recorded last = recorded.get(jobUid);
    if (last == null) {
      return false;
    }
    boolean behind = succeeded(cached) < last.succeeded() || failed(cached) < last.failed();
    if (!behind || Duration.between(last.at(), Instant.now()).compareTo(Expectations.TIMEOUT) > 0) {
      recorded.remove(jobUid, last);
      return false;
    }
    return true;
  }

  /**
   * Forgets a Job.
   *
   * @param jobUid the Job's uid
   */
  void forget(String jobUid) {
    recorded.remove(jobUid);
  }

  private static int succeeded(JobStatus status) {
    if (status == null) {
      return 0;
    }
    UncountedTerminatedPods uncounted = status.getUncountedTerminatedPods();
    return count(status.getSucceeded()) + size(uncounted == null ? null : uncounted.getSucceeded());
  }

  private static int failed(JobStatus status) {
    if (status == null) {
      return 0;
    }
    UncountedTerminatedPods uncounted = status.getUncountedTerminatedPods();
    return count(status.getFailed()) + size(uncounted == null ? null : uncounted.getFailed());
  }

  private static int count(Integer value) {
    return value == null ? 0 : value;
  }

  private static int size(List<String> values) {
    return values == null ? 0 : values.size();
  }
}
