package dev.machinery.controller.leaderelection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.controller.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * client-go's leaderelection_test (tryAcquireOrRenew's table, release, the run loop) in fake time.
 */
class LeaderElectorTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant FUTURE = START.plus(Duration.ofHours(1000));
  private static final Instant PAST = START.minus(Duration.ofHours(1000));

  /** Records callbacks. */
  static final class Calls implements LeaderCallbacks {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public void onStartedLeading() {
      calls.add("started");
    }

    @Override
    public void onStoppedLeading() {
      calls.add("stopped");
    }

    @Override
    public void onNewLeader(String identity) {
      calls.add("leader " + identity);
    }
  }

  private static LeaderElectionRecord held(String holder, int seconds) {
    return new LeaderElectionRecord(holder, seconds, null, null, 0);
  }

  record Case(
      String name,
      LeaderElectionRecord inLock,
      LeaderElectionRecord observed,
      Instant observedTime,
      Duration retryAfter,
      boolean expectSuccess,
      boolean transitionLeader,
      String outHolder,
      List<String> actions) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> tryAcquireOrRenewCases() {
    LeaderElectionRecord none = LeaderElectionRecord.empty();
    return Stream.of(
        new Case(
            "acquire from no object",
            null,
            none,
            START,
            null,
            true,
            false,
            "baz",
            List.of("get", "create")),
        new Case(
            "acquire from object without holder",
            none,
            none,
            START,
            null,
            true,
            true,
            "baz",
            List.of("get", "update")),
        new Case(
            "acquire from led object with the lease duration seconds",
            held("bing", 3),
            none,
            START,
            Duration.ofSeconds(3),
            true,
            true,
            "baz",
            List.of("get", "get", "update")),
        new Case(
            "acquire from led, unacked object",
            held("bing", 0),
            held("bing", 0),
            PAST,
            null,
            true,
            true,
            "baz",
            List.of("get", "update")),
        new Case(
            "acquire from empty led, acked object",
            held("", 0),
            none,
            FUTURE,
            null,
            true,
            true,
            "baz",
            List.of("get", "update")),
        // client-go's table gives this lease no duration and relies on its real clock moving
        // between two readings; in fake time the lease carries its duration
        new Case(
            "don't acquire from led, acked object",
            held("bing", 10),
            none,
            FUTURE,
            null,
            false,
            false,
            "bing",
            List.of("get")),
        new Case(
            "renew already acquired object",
            held("baz", 0),
            held("baz", 0),
            FUTURE,
            null,
            true,
            false,
            "baz",
            List.of("get", "update")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tryAcquireOrRenewCases")
  void tryAcquireOrRenew(Case test) {
    FakeClock clock = new FakeClock(START);
    FakeLeaseLock.Lease lease = new FakeLeaseLock.Lease();
    lease.record = test.inLock();
    FakeLeaseLock lock = new FakeLeaseLock(lease, "baz");
    Calls calls = new Calls();
    LeaderElectionConfig config =
        new LeaderElectionConfig(
            lock,
            Duration.ofSeconds(10),
            Duration.ofSeconds(5),
            Duration.ofSeconds(2),
            calls,
            false,
            "test");
    LeaderElector elector = new LeaderElector(config, clock, test.observed(), test.observedTime());
    boolean succeeded = elector.tryAcquireOrRenew();
    if (succeeded != test.expectSuccess() && test.retryAfter() != null) {
      clock.step(test.retryAfter());
      succeeded = elector.tryAcquireOrRenew();
    }
    assertEquals(test.expectSuccess(), succeeded);
    assertEquals(test.outHolder(), elector.observedRecord().holderIdentity());
    assertEquals(test.actions(), lock.actions());
    assertEquals(test.transitionLeader() ? 1 : 0, elector.observedRecord().leaderTransitions());
    elector.reportTransition();
    assertEquals(List.of("leader " + test.outHolder()), calls.calls);
  }

  @Test
  void settingsAreCheckedAsClientGoChecksThem() {
    FakeLeaseLock lock = new FakeLeaseLock(new FakeLeaseLock.Lease(), "me");
    Calls calls = new Calls();
    IllegalArgumentException lease =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new LeaderElectionConfig(
                    lock,
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(2),
                    calls,
                    false,
                    "x"));
    assertTrue(lease.getMessage().startsWith("leaseDuration must be greater than renewDeadline"));
    IllegalArgumentException jitter =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new LeaderElectionConfig(
                    lock,
                    Duration.ofSeconds(15),
                    Duration.ofMillis(2400),
                    Duration.ofSeconds(2),
                    calls,
                    false,
                    "x"));
    assertTrue(
        jitter
            .getMessage()
            .startsWith("renewDeadline must be greater than retryPeriod*JitterFactor"));
    IllegalArgumentException identity =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LeaderElectionConfig.defaults(
                    "x", new FakeLeaseLock(new FakeLeaseLock.Lease(), ""), calls));
    assertEquals("Lock identity is empty", identity.getMessage());
    LeaderElectionConfig defaults = LeaderElectionConfig.defaults("x", lock, calls);
    assertEquals(Duration.ofSeconds(15), defaults.leaseDuration());
    assertEquals(Duration.ofSeconds(10), defaults.renewDeadline());
    assertEquals(Duration.ofSeconds(2), defaults.retryPeriod());
  }

  @Test
  void releaseWritesAnEmptyHolderWithAOneSecondLease() {
    FakeClock clock = new FakeClock(START);
    FakeLeaseLock.Lease lease = new FakeLeaseLock.Lease();
    lease.record = new LeaderElectionRecord("other", 15, PAST, PAST, 4);
    FakeLeaseLock lock = new FakeLeaseLock(lease, "me");
    LeaderElector elector =
        new LeaderElector(LeaderElectionConfig.defaults("x", lock, new Calls()), clock);
    assertFalse(
        elector.tryAcquireOrRenew(),
        "the record's times are the other replica's: the lease runs from when it was observed");
    clock.step(Duration.ofSeconds(15));
    assertTrue(elector.tryAcquireOrRenew());
    assertEquals(5, lease.record.leaderTransitions());
    assertTrue(elector.tryRelease());
    Instant now = START.plusSeconds(15);
    assertEquals(new LeaderElectionRecord("", 1, now, now, 5), lease.record);
    assertFalse(elector.isLeader());
  }

  private static void awaitOn(FakeClock clock, BooleanSupplier done, Duration step)
      throws InterruptedException {
    for (int i = 0; i < 10_000 && !done.getAsBoolean(); i++) {
      if (clock.waiters() > 0) {
        clock.step(step);
      } else {
        Thread.sleep(1);
      }
    }
    assertTrue(done.getAsBoolean(), "the elector never got there");
  }

  @Test
  void aLeaderThatCannotRenewForTheRenewDeadlineStopsLeading() throws Exception {
    FakeClock clock = new FakeClock(START);
    FakeLeaseLock.Lease lease = new FakeLeaseLock.Lease();
    FakeLeaseLock lock = new FakeLeaseLock(lease, "me");
    Calls calls = new Calls();
    LeaderElector elector =
        new LeaderElector(LeaderElectionConfig.defaults("x", lock, calls), clock);
    Thread runner = new Thread(elector::run);
    runner.start();
    awaitOn(clock, () -> calls.calls.contains("started"), Duration.ofSeconds(2));
    assertEquals("me", lease.record.holderIdentity());
    synchronized (lease) {
      lease.failWrites = true;
    }
    awaitOn(clock, () -> !runner.isAlive(), Duration.ofSeconds(1));
    assertEquals("stopped", calls.calls.get(calls.calls.size() - 1));
    assertTrue(calls.calls.contains("leader me"));
    int attempts = (int) lock.actions().stream().filter("update"::equals).count();
    assertTrue(attempts >= 5, "retried every 2s for 10s, " + attempts + " updates");
  }

  @Test
  void aSecondReplicaWaitsForTheLeaseAndTakesOverAfterRelease() throws Exception {
    FakeClock clock = new FakeClock(START);
    FakeLeaseLock.Lease lease = new FakeLeaseLock.Lease();
    Calls first = new Calls();
    Calls second = new Calls();
    LeaderElector a =
        new LeaderElector(
            LeaderElectionConfig.defaults("a", new FakeLeaseLock(lease, "a"), first), clock);
    LeaderElector b =
        new LeaderElector(
            LeaderElectionConfig.defaults("b", new FakeLeaseLock(lease, "b"), second), clock);
    Thread ra = new Thread(a::run);
    ra.start();
    awaitOn(clock, a::isLeader, Duration.ofSeconds(1));
    Thread rb = new Thread(b::run);
    rb.start();
    awaitOn(clock, () -> second.calls.contains("leader a"), Duration.ofSeconds(1));
    assertFalse(b.isLeader());
    a.cancel();
    ra.join();
    assertEquals("", lease.record.holderIdentity(), "released on cancel");
    awaitOn(clock, b::isLeader, Duration.ofSeconds(1));
    assertEquals(1, lease.record.leaderTransitions());
    awaitOn(clock, () -> second.calls.contains("started"), Duration.ofSeconds(1));
    b.cancel();
    rb.join();
    List<String> secondCalls = new ArrayList<>(second.calls);
    assertTrue(secondCalls.containsAll(List.of("leader a", "leader b", "started", "stopped")));
  }
}
