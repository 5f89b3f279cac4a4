package dev.machinery.apiserver;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.testing.client.WidgetServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A server compacts its storage's history at its interval, as kube-apiserver compacts etcd. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ServerCompactionTest {
  private static void touch(MemoryStorage storage) {
    KeyValue current = storage.get("/k/a").orElse(null);
    if (current == null) {
      storage.create("/k/a", "1".getBytes(UTF_8));
    } else {
      storage.update("/k/a", current.modRevision(), "2".getBytes(UTF_8));
    }
  }

  @Test
  void theStorageIsCompactedAtTheIntervalUntilTheServerCloses() throws Exception {
    MemoryStorage storage = new MemoryStorage();
    ApiServer server =
        WidgetServer.builder().storage(storage).compactionInterval(Duration.ofMillis(20)).build();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (storage.compactedRevision() == 0 && System.nanoTime() < deadline) {
        touch(storage);
        Thread.sleep(5);
      }
      assertTrue(storage.compactedRevision() > 0, "compacted");
      assertTrue(storage.compactedRevision() < storage.currentRevision(), "history kept");
    } finally {
      server.close();
    }
    Thread.sleep(100);
    long compacted = storage.compactedRevision();
    for (int i = 0; i < 20; i++) {
      touch(storage);
      Thread.sleep(10);
    }
    assertEquals(compacted, storage.compactedRevision(), "no compaction after close");
  }

  @Test
  void aZeroIntervalCompactsNothingAndANegativeOneIsRefused() throws Exception {
    MemoryStorage storage = new MemoryStorage();
    ApiServer server =
        WidgetServer.builder().storage(storage).compactionInterval(Duration.ZERO).build();
    try {
      for (int i = 0; i < 20; i++) {
        touch(storage);
        Thread.sleep(10);
      }
      assertEquals(0, storage.compactedRevision());
    } finally {
      server.close();
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> WidgetServer.builder().compactionInterval(Duration.ofSeconds(-1)));
  }
}
