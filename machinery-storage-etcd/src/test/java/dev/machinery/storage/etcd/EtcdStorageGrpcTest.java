package dev.machinery.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.machinery.apiserver.storage.Storage;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
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
    Set<Thread> before = threads();
    Storage storage = newStorage();
    Set<Thread> started;
    try {
      storage.create("/k", "v".getBytes(UTF_8));
      assertEquals("v", new String(storage.get("/k").orElseThrow().value(), UTF_8));
      started = threads();
      started.removeAll(before);
      assertEquals(1, started.size(), "one " + THREAD + " thread reads the answers: " + started);
    } finally {
      storage.close();
    }
    Thread reader = started.iterator().next();
    reader.join(10_000);
    assertFalse(reader.isAlive(), "the " + THREAD + " thread ended with the store");
  }

  private static Set<Thread> threads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(THREAD))
        .collect(Collectors.toCollection(HashSet::new));
  }
}
