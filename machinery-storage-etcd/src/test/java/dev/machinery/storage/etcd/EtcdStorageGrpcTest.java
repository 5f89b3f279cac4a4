package dev.machinery.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.storage.Storage;
import org.junit.jupiter.api.Test;

/**
 * {@link EtcdStorageTest} again, every store making its unary calls (reads, transactions,
 * compactions) over etcd's gRPC API instead of the JSON gateway; and the connection's own thread
 * ends with the store.
 */
class EtcdStorageGrpcTest extends EtcdStorageTest {
  private static final String THREAD = "machinery-etcd-grpc";

  @Override
  protected boolean grpc() {
    return true;
  }

  @Test
  void theCallsGoOverGrpcOnAThreadThatEndsWithTheStore() throws Exception {
    long before = threads();
    Storage storage = newStorage();
    try {
      storage.create("/k", "v".getBytes(UTF_8));
      assertEquals("v", new String(storage.get("/k").orElseThrow().value(), UTF_8));
      assertEquals(before + 1, threads(), "one " + THREAD + " thread reads the answers");
    } finally {
      storage.close();
    }
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (threads() > before && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(before, threads(), "the " + THREAD + " thread ended with the store");
  }

  private static long threads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(THREAD))
        .count();
  }
}
