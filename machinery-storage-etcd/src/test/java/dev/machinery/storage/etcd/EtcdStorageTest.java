package dev.machinery.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageCompactor;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.apiserver.storage.testing.StorageContract;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link EtcdStorage} meets the storage contract on a real etcd (one member, started for this
 * class), each test under a prefix of its own; and what only etcd brings: a second store on the
 * same etcd sees the first one's writes and compactions, a watch survives a restart of etcd, a dead
 * endpoint is passed over.
 */
class EtcdStorageTest extends StorageContract {
  private static final AtomicInteger TESTS = new AtomicInteger();
  private static EtcdProcess etcd;

  @BeforeAll
  static void startEtcd() throws IOException {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() throws IOException {
    etcd.close();
  }

  @Override
  protected Storage newStorage() {
    return store("/test-" + TESTS.incrementAndGet() + "/");
  }

  /**
   * Whether the stores under test make their unary calls over etcd's gRPC API.
   *
   * @return false: the JSON gateway
   */
  protected boolean grpc() {
    return false;
  }

  private EtcdStorage store(String prefix) {
    return EtcdStorage.builder(etcd.endpoint())
        .grpc(grpc())
        .prefix(prefix)
        .resumeFor(Duration.ofSeconds(20))
        .build();
  }

  /** The lease etcd holds a key on, asked of the gateway. */
  private static long leaseOf(String fullKey) {
    EtcdClient raw = new EtcdClient(List.of(etcd.endpoint()), Duration.ofSeconds(5));
    try {
      ObjectNode range = EtcdClient.object();
      range.put("key", EtcdClient.base64(fullKey));
      return EtcdClient.number(raw.call("/v3/kv/range", range).path("kvs").path(0).path("lease"));
    } finally {
      raw.close();
    }
  }

  @Test
  void aLeaseEtcdNoLongerKnowsIsReplacedByANewOne() {
    try (EtcdStorage store = store("/lease-" + TESTS.incrementAndGet() + "/")) {
      store.create("a", "1".getBytes(UTF_8), 100);
      long first = leaseOf(store.prefix() + "a");
      assertTrue(first != 0, "a is on a lease");
      EtcdClient raw = new EtcdClient(List.of(etcd.endpoint()), Duration.ofSeconds(5));
      try {
        ObjectNode revoke = EtcdClient.object();
        revoke.put("ID", Long.toString(first));
        raw.call("/v3/kv/lease/revoke", revoke);
      } finally {
        raw.close();
      }
      assertTrue(store.get("a").isEmpty(), "revoking the lease deleted its key");
      // The store kept that lease for the next key: it is gone, so the write takes a new one.
      store.create("b", "2".getBytes(UTF_8), 100);
      long second = leaseOf(store.prefix() + "b");
      assertTrue(second != 0 && second != first, "b's lease: " + second);
      KeyValue read = store.get("b").orElseThrow();
      store.update("b", read.modRevision(), "3".getBytes(UTF_8), 100);
      assertEquals(second, leaseOf(store.prefix() + "b"), "the new lease is kept");
    }
  }

  /**
   * The prefix is joined to a key as kube-apiserver joins {@code --etcd-prefix} and a key: with or
   * without its trailing slash, a ConfigMap's key lands at the same etcd key.
   */
  @Test
  void aPrefixWithoutItsTrailingSlashIsTheSamePrefix() throws Exception {
    String prefix = "/joined-" + TESTS.incrementAndGet();
    try (EtcdStorage bare = store(prefix);
        EtcdStorage slashed = store(prefix + "/");
        EtcdStorage root = store("/");
        EtcdStorage empty = store("")) {
      assertEquals(prefix + "/", bare.prefix());
      assertEquals("/", empty.prefix());
      bare.create("configmaps/default/cm1", "1".getBytes(UTF_8));
      assertEquals(
          "1", new String(slashed.get("configmaps/default/cm1").orElseThrow().value(), UTF_8));
      assertTrue(
          root.get(prefix.substring(1) + "/configmaps/default/cm1").isPresent(),
          "kept at " + prefix + "/configmaps/default/cm1");
    }
  }

  @Test
  void twoStoresOnOneEtcdShareObjectsRevisionsAndCompactions() throws Exception {
    String prefix = "/shared-" + TESTS.incrementAndGet() + "/";
    try (EtcdStorage one = store(prefix);
        EtcdStorage two = store(prefix)) {
      try (StorageWatch watch = two.watch("/o/", 0)) {
        KeyValue created = one.create("/o/a", "1".getBytes(UTF_8));
        assertEquals("1", new String(two.get("/o/a").orElseThrow().value(), UTF_8));
        StorageEvent seen = watch.poll(5, TimeUnit.SECONDS);
        assertNotNull(seen);
        assertEquals(created.modRevision(), seen.revision());
        KeyValue updated = two.update("/o/a", created.modRevision(), "2".getBytes(UTF_8));
        assertTrue(updated.modRevision() > created.modRevision(), updated.toString());
        assertEquals(
            StorageException.Kind.CONFLICT,
            assertThrows(
                    StorageException.class,
                    () -> one.update("/o/a", created.modRevision(), "3".getBytes(UTF_8)),
                    "the first store's update at the old revision conflicts with the second's")
                .kind());
        assertEquals("2", new String(one.get("/o/a").orElseThrow().value(), UTF_8));
      }
      long now = one.currentRevision();
      one.compact(now);
      assertEquals(now, two.compactedRevision());
      assertEquals(
          StorageException.Kind.COMPACTED,
          assertThrows(StorageException.class, () -> two.watch("/o/", now - 1)).kind());
    }
  }

  @Test
  void aWatchResumesWhenEtcdRestarts() throws Exception {
    try (EtcdStorage store = store("/restart-" + TESTS.incrementAndGet() + "/");
        StorageWatch watch = store.watch("/r/", 0)) {
      store.create("/r/before", "1".getBytes(UTF_8));
      assertEquals("/r/before", watch.poll(5, TimeUnit.SECONDS).kv().key());
      etcd.restart();
      store.create("/r/after", "2".getBytes(UTF_8));
      StorageEvent after = watch.poll(20, TimeUnit.SECONDS);
      assertNotNull(after, "the watch resumed after the restart; error: " + watch.error());
      assertEquals("/r/after", after.kv().key());
      assertNull(watch.error());
      assertEquals(List.of("/r/after", "/r/before"), keys(store.list("/r/", 0, null, 0).items()));
    }
  }

  @Test
  void aDeadEndpointIsPassedOver() {
    URI dead = URI.create("http://127.0.0.1:1");
    try (EtcdStorage store =
        EtcdStorage.builder(dead, etcd.endpoint())
            .grpc(grpc())
            .prefix("/failover-" + TESTS.incrementAndGet() + "/")
            .requestTimeout(Duration.ofSeconds(2))
            .build()) {
      store.create("/k", "v".getBytes(UTF_8));
      assertTrue(store.get("/k").isPresent());
    }
    try (EtcdStorage nowhere = EtcdStorage.builder(dead).grpc(grpc()).build()) {
      StorageException e = assertThrows(StorageException.class, nowhere::currentRevision);
      assertEquals(StorageException.Kind.UNAVAILABLE, e.kind());
      assertEquals(503, e.statusCode());
    }
  }

  @Test
  void endpointsMustBeHttpUrls() {
    assertEquals(
        "an etcd endpoint is http://host:port or https://host:port, not \"localhost:2379\"",
        assertThrows(
                IllegalArgumentException.class,
                () -> EtcdStorage.builder(URI.create("localhost:2379")))
            .getMessage());
    assertEquals(
        "etcd storage needs at least one endpoint",
        assertThrows(IllegalArgumentException.class, EtcdStorage::builder).getMessage());
  }

  private static List<String> keys(List<KeyValue> items) {
    return items.stream().map(KeyValue::key).toList();
  }

  /**
   * Two servers' compactors on one etcd, as two replicas run them: each tick compacts etcd to the
   * revision of its tick before, the other's compaction at or before it is taken as done, and what
   * was written before is then gone from etcd for both.
   */
  @Test
  void compactorsOfTwoServersCompactOneEtcd() throws Exception {
    String prefix = "/compactors-" + TESTS.incrementAndGet() + "/";
    try (EtcdStorage first = store(prefix);
        EtcdStorage second = store(prefix);
        StorageCompactor one = StorageCompactor.start(first, Duration.ofDays(1));
        StorageCompactor two = StorageCompactor.start(second, Duration.ofDays(1))) {
      KeyValue written = first.create("configmaps/default/cm1", "1".getBytes(UTF_8));
      assertEquals(0, one.compactOnce());
      assertEquals(0, two.compactOnce());
      long tick = first.currentRevision();
      first.update("configmaps/default/cm1", written.modRevision(), "2".getBytes(UTF_8));
      assertEquals(tick, one.compactOnce());
      assertEquals(tick, second.compactedRevision(), "the other server reads the compaction");
      assertEquals(0, two.compactOnce(), "compacted that far already");
      assertEquals(
          StorageException.Kind.COMPACTED,
          assertThrows(
                  StorageException.class,
                  () -> second.list("configmaps/", written.modRevision() - 1, null, 0))
              .kind());
      assertEquals(
          "2", new String(second.get("configmaps/default/cm1").orElseThrow().value(), UTF_8));
    }
  }
}
