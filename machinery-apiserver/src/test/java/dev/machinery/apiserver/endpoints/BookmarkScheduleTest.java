package dev.machinery.apiserver.endpoints;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When a watch's next bookmark comes, as kube's cache watcher ({@code nextBookmarkTime}) schedules
 * it: an interval after now, or 2 s before the watch's deadline when that is sooner, and none once
 * that is past. Times in seconds, from an arbitrary origin.
 */
class BookmarkScheduleTest {
  private static long nanos(long seconds) {
    return TimeUnit.SECONDS.toNanos(seconds);
  }

  @ParameterizedTest(name = "now={0} interval={1} deadline={2} -> {3}")
  @CsvSource({
    // far from the deadline: every interval
    "1000, 60, 3000, 1060",
    // the deadline comes first: 2 s before it
    "1000, 60, 1030, 1028",
    "1000, 60, 1062, 1060",
    "1000, 60, 1061, 1059",
    // exactly at the pre-timeout time: now
    "1000, 60, 1002, 1000",
    // past the pre-timeout time: no more bookmarks
    "1000, 60, 1001, -1",
    "1029, 60, 1030, -1",
  })
  void nextBookmark(long now, long interval, long deadline, long expected) {
    long next = WatchStreams.nextBookmark(nanos(now), nanos(interval), nanos(deadline));
    assertEquals(expected, next == WatchStreams.NO_BOOKMARK ? -1 : next / nanos(1));
  }
}
