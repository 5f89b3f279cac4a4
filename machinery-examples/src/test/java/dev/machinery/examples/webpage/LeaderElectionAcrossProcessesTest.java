package dev.machinery.examples.webpage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Three JVMs elect a leader on one Lease of a server in this JVM (over HTTP) and increment a fenced
 * counter while they lead ({@link FencedCounterProcess}). The leader is killed without releasing
 * the Lease, another takes over; that one stops gracefully, releasing it, and the third takes over.
 * The counter's history, kept in the ConfigMap itself, shows one writer at a time, in blocks that
 * never interleave, each writer the Lease holder its elector saw, and the writes each process
 * reported on its output are in it.
 *
 * <p>The timings are short (lease 4s, renew deadline 3s, retry 1s; kube-controller-manager's
 * defaults are 15s, 10s and 2s); the takeover times are printed, only bounded generously (60s).
 */
class LeaderElectionAcrossProcessesTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  /** One replica: its process, its output file and its stdin. */
  record Replica(String identity, Process process, Path out) {
    List<String[]> lines(String kind) {
      List<String[]> found = new ArrayList<>();
      try {
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
          String[] fields = line.split(" ");
          if (fields[0].equals(kind)) {
            found.add(fields);
          }
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return found;
    }

    Optional<Long> leadingAt() {
      List<String[]> leading = lines("LEADING");
      return leading.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(leading.get(0)[2]));
    }

    void stop() throws IOException {
      OutputStream in = process.getOutputStream();
      in.write("stop\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
    }
  }

  private static Replica start(String url, String identity) throws IOException {
    Path out = Files.createTempFile(identity, ".out");
    Path err = Files.createTempFile(identity, ".err");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp",
                System.getProperty("java.class.path"),
                FencedCounterProcess.class.getName(),
                url,
                identity)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    return new Replica(identity, process, out);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        fail("never happened within " + PATIENCE + ": " + what);
      }
      Thread.sleep(50);
    }
  }

  @Test
  void aKilledLeaderIsReplacedAndTwoNeverLeadAtOnce() throws Exception {
    List<Replica> replicas = new ArrayList<>();
    try (TestApiServer server = TestApiServer.start();
        Client client =
            Client.builder(HttpTransport.builder(server.url()).build())
                .scheme(WebPageController.scheme())
                .build()) {
      ResourceClient<ConfigMap> maps = client.resources(ConfigMap.class).inNamespace("default");
      ConfigMap counter = new ConfigMap();
      ObjectMeta meta = new ObjectMeta();
      meta.setName(FencedCounterProcess.COUNTER);
      counter.setMetadata(meta);
      counter.setData(Map.of("counter", "0", "history", ""));
      maps.create(counter);
      try {
        for (String identity : List.of("replica-a", "replica-b", "replica-c")) {
          replicas.add(start(server.url().toString(), identity));
        }
        await("a leader writes", () -> leaders(replicas).size() == 1 && counterOf(maps) >= 3);
        Replica first = leaders(replicas).get(0);

        // Killed: the Lease is not released and must expire.
        long killedAt = System.currentTimeMillis();
        first.process().destroyForcibly();
        assertTrue(first.process().waitFor(30, TimeUnit.SECONDS), "the killed JVM ended");
        await("another leader", () -> leaders(replicas).size() == 2);
        Replica second = leaders(replicas).get(1);
        long takeoverAfterKill = second.leadingAt().orElseThrow() - killedAt;
        long before = counterOf(maps);
        await("the second leader writes", () -> counterOf(maps) >= before + 3);

        // Stopped: the Lease is released, and the last replica takes it on its next retry.
        long stoppedAt = System.currentTimeMillis();
        second.stop();
        await("the last leader", () -> leaders(replicas).size() == 3);
        assertTrue(second.process().waitFor(30, TimeUnit.SECONDS), "the stopped JVM ended");
        assertEquals(0, second.process().exitValue());
        Replica third = leaders(replicas).get(2);
        long takeoverAfterRelease = third.leadingAt().orElseThrow() - stoppedAt;
        long before3 = counterOf(maps);
        await("the last leader writes", () -> counterOf(maps) >= before3 + 3);
        third.stop();
        assertTrue(third.process().waitFor(30, TimeUnit.SECONDS), "the last JVM ended");

        System.out.printf(
            "takeover after a kill: %d ms; after a release: %d ms (lease 4s, renew 3s, retry 1s)%n",
            takeoverAfterKill, takeoverAfterRelease);
        assertTrue(takeoverAfterKill < PATIENCE.toMillis(), "kill: " + takeoverAfterKill);
        assertTrue(takeoverAfterRelease < PATIENCE.toMillis(), "release: " + takeoverAfterRelease);

        checkHistory(maps.get(FencedCounterProcess.COUNTER), first, second, third);
      } finally {
        for (Replica replica : replicas) {
          replica.process().destroyForcibly();
        }
        for (Replica replica : replicas) {
          replica.process().waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
  }

  /** The replicas that have led, in the order they started leading. */
  private static List<Replica> leaders(List<Replica> replicas) {
    return replicas.stream()
        .filter(r -> r.leadingAt().isPresent())
        .sorted(java.util.Comparator.comparing(r -> r.leadingAt().orElseThrow()))
        .toList();
  }

  private static long counterOf(ResourceClient<ConfigMap> maps) {
    return Long.parseLong(maps.get(FencedCounterProcess.COUNTER).getData().get("counter"));
  }

  private static void checkHistory(ConfigMap map, Replica first, Replica second, Replica third) {
    String[] entries = map.getData().get("history").split("\n");
    assertEquals(map.getData().get("counter"), Integer.toString(entries.length));
    List<String> blocks = new ArrayList<>();
    List<Integer> transitions = new ArrayList<>();
    Map<String, String> writes = new LinkedHashMap<>();
    for (int i = 0; i < entries.length; i++) {
      String[] entry = entries[i].split(" ");
      assertEquals(Integer.toString(i + 1), entry[0], "the counter goes up by one: " + entries[i]);
      assertEquals(entry[1], entry[2], "the writer held the Lease it saw: " + entries[i]);
      int transition = Integer.parseInt(entry[3]);
      if (blocks.isEmpty() || !blocks.get(blocks.size() - 1).equals(entry[1])) {
        assertFalse(blocks.contains(entry[1]), "a writer came back after another: " + entries[i]);
        blocks.add(entry[1]);
        transitions.add(transition);
      } else {
        assertEquals(
            transitions.get(transitions.size() - 1),
            transition,
            "one leadership, one transition count: " + entries[i]);
      }
      writes.put(entry[0], entry[1]);
    }
    assertEquals(
        List.of(first.identity(), second.identity(), third.identity()),
        blocks,
        "the writers, in the order they led");
    assertTrue(
        transitions.get(0) < transitions.get(1) && transitions.get(1) < transitions.get(2),
        "each new holder counts a transition: " + transitions);
    for (Replica replica : List.of(first, second, third)) {
      List<String[]> reported = replica.lines("WRITE");
      assertNotEquals(0, reported.size(), replica.identity() + " reported writes");
      for (String[] write : reported) {
        assertEquals(
            replica.identity(),
            writes.get(write[1]),
            "a write " + replica.identity() + " reported is in the history as its own");
      }
    }
    // The killed leader's last write came before the next leader's first; likewise on release.
    long firstLast = Long.parseLong(last(first.lines("WRITE"))[5]);
    long secondFirst = Long.parseLong(second.lines("WRITE").get(0)[5]);
    long secondLast = Long.parseLong(last(second.lines("WRITE"))[5]);
    long thirdFirst = Long.parseLong(third.lines("WRITE").get(0)[5]);
    assertTrue(firstLast < secondFirst, firstLast + " < " + secondFirst);
    assertTrue(secondLast < thirdFirst, secondLast + " < " + thirdFirst);
  }

  private static String[] last(List<String[]> lines) {
    return lines.get(lines.size() - 1);
  }
}
