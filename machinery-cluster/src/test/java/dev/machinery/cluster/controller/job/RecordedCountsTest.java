package dev.machinery.cluster.controller.job;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.batch.v1.JobStatus;
import dev.machinery.api.batch.v1.UncountedTerminatedPods;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A cached Job counting fewer finished pods than the controller last wrote is stale. */
class RecordedCountsTest {
  private static JobStatus status(int succeeded, int failed, List<String> uncountedFailed) {
    JobStatus status = new JobStatus();
    status.setSucceeded(succeeded);
    status.setFailed(failed);
    UncountedTerminatedPods uncounted = new UncountedTerminatedPods();
    uncounted.setFailed(uncountedFailed);
    status.setUncountedTerminatedPods(uncounted);
    return status;
  }

  @Test
  void aCacheFromBeforeTheWriteIsStaleUntilItCatchesUp() {
    RecordedCounts counts = new RecordedCounts();
    assertFalse(counts.isStale("job", status(0, 0, List.of())), "nothing written yet");
    counts.wrote("job", status(0, 1, List.of()));
    assertTrue(counts.isStale("job", status(0, 0, List.of())), "the failure not yet shown");
    assertTrue(counts.isStale("job", null), "no status at all");
    assertFalse(counts.isStale("other", status(0, 0, List.of())), "another Job");
    assertFalse(
        counts.isStale("job", status(0, 0, List.of("pod"))),
        "an uncounted failure counts as recorded");
    assertFalse(
        counts.isStale("job", status(0, 0, List.of())), "a status that caught up ended the record");
  }

  @Test
  void eitherCountBehindIsStaleAndForgettingEndsIt() {
    RecordedCounts counts = new RecordedCounts();
    counts.wrote("job", status(2, 1, List.of()));
    assertTrue(counts.isStale("job", status(1, 1, List.of())));
    assertTrue(counts.isStale("job", status(2, 0, List.of())));
    assertFalse(counts.isStale("job", status(3, 1, List.of())));
    counts.wrote("job", status(4, 0, List.of()));
    counts.forget("job");
    assertFalse(counts.isStale("job", status(0, 0, List.of())));
  }
}
