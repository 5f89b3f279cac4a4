package dev.machinery.storage.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Leases shared as kube-apiserver's etcd store shares them, against a real etcd, on the gateway and
 * over gRPC, with a clock of the test's: a lease is granted for the time asked and 5 % more (at
 * most a minute), keys written while it outlives their time within that margin share it, a later
 * key gets a new one, and so does the 1,001st key of a lease; threads asking at once share them as
 * one thread would.
 */
class EtcdLeasesTest {
  private static EtcdProcess etcd;

  @BeforeAll
  static void startEtcd() throws Exception {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() throws Exception {
    etcd.close();
  }

  /** The time to live etcd has left on a lease, in seconds. */
  private static long remaining(EtcdClient client, long lease, boolean grpc) {
    if (grpc) {
      // Not among the gRPC client's calls: asked of the gateway.
      client = new EtcdClient(List.of(etcd.endpoint()), Duration.ofSeconds(5));
    }
    ObjectNode ask = EtcdClient.object();
    ask.put("ID", Long.toString(lease));
    JsonNode answer = client.call("/v3/kv/lease/timetolive", ask);
    return EtcdClient.number(answer.path("TTL"));
  }

  @ParameterizedTest(name = "grpc {0}")
  @ValueSource(booleans = {false, true})
  void keysWrittenWithinTheMarginShareALeaseAndLaterOnesGetTheirOwn(boolean grpc) throws Exception {
    EtcdClient client = new EtcdClient(List.of(etcd.endpoint()), Duration.ofSeconds(5), grpc);
    try {
      AtomicLong now = new AtomicLong();
      EtcdLeases leases = new EtcdLeases(client, now::get);
      long first = leases.leaseFor(100);
      // Granted for 100 s and 5 s more.
      long left = remaining(client, first, grpc);
      assertTrue(left > 100 && left <= 105, "seconds left: " + left);
      now.addAndGet(TimeUnit.SECONDS.toNanos(4));
      assertEquals(first, leases.leaseFor(100), "4 s later: within the 5 s margin");
      now.addAndGet(TimeUnit.SECONDS.toNanos(2));
      long second = leases.leaseFor(100);
      assertNotEquals(first, second, "6 s later the first lease would end before the key's 100 s");
      // A time of its own: 1,000 s, 50 s more at most a minute.
      long longer = leases.leaseFor(1_000);
      assertNotEquals(second, longer);
      long longLeft = remaining(client, longer, grpc);
      assertTrue(longLeft > 1_000 && longLeft <= 1_050, "seconds left: " + longLeft);
      // At most 1,000 keys a lease.
      for (int i = 1; i < EtcdLeases.MAX_KEYS; i++) {
        assertEquals(longer, leases.leaseFor(1_000));
      }
      assertNotEquals(longer, leases.leaseFor(1_000), "the 1,001st key");
    } finally {
      client.close();
    }
  }

  @Test
  void threadsAskingAtOnceShareLeasesAsOneThreadWould() throws Exception {
    EtcdClient client = new EtcdClient(List.of(etcd.endpoint()), Duration.ofSeconds(5), false);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      EtcdLeases leases = new EtcdLeases(client);
      List<Future<List<Long>>> asked = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        asked.add(
            pool.submit(
                () -> {
                  List<Long> mine = new ArrayList<>();
                  for (int i = 0; i < 250; i++) {
                    mine.add(leases.leaseFor(100));
                  }
                  return mine;
                }));
      }
      Map<Long, Integer> keysOn = new HashMap<>();
      for (Future<List<Long>> thread : asked) {
        for (long lease : thread.get(60, TimeUnit.SECONDS)) {
          keysOn.merge(lease, 1, Integer::sum);
        }
      }
      // 2,000 keys within the 5 s margin: two leases of 1,000 each, none granted twice.
      assertEquals(Map.of(1_000, 2), countsOf(keysOn), "keys a lease: " + keysOn);
    } finally {
      pool.shutdownNow();
      client.close();
    }
  }

  /** How many leases hold each number of keys. */
  private static Map<Integer, Integer> countsOf(Map<Long, Integer> keysOn) {
    Map<Integer, Integer> counts = new HashMap<>();
    keysOn.values().forEach(n -> counts.merge(n, 1, Integer::sum));
    return counts;
  }
}
