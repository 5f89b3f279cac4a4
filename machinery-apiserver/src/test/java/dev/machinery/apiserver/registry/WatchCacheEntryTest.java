package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.MemoryStorage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** What a watch cache's entry holds: the stored bytes until decoded, then the object alone. */
class WatchCacheEntryTest {
  @Test
  void anEntryLetsGoOfTheStoredBytesOnceItsObjectIsDecoded() {
    MemoryStorage storage = new MemoryStorage();
    KeyValue stored = storage.create("widgets/ns/a", "widget a".getBytes(StandardCharsets.UTF_8));
    AtomicInteger decodes = new AtomicInteger();
    WatchCache cache =
        new WatchCache(
            storage,
            "widgets/",
            100,
            100,
            kv -> {
              decodes.incrementAndGet();
              return new String(kv.value(), StandardCharsets.UTF_8);
            });
    try {
      WatchCache.Entry entry = cache.snapshot("widgets/").items().get(0);
      assertEquals(8, entry.kv().value().length);
      Object object = entry.object();
      assertEquals("widget a", object);
      assertEquals(0, entry.kv().value().length);
      assertEquals("widgets/ns/a", entry.kv().key());
      assertEquals(stored.modRevision(), entry.kv().modRevision());
      assertEquals(stored.createRevision(), entry.kv().createRevision());
      assertEquals(stored.version(), entry.kv().version());
      // later reads of the same revision share the decoded object, never decoding again
      assertSame(object, entry.object());
      assertSame(object, cache.decoded(stored));
      assertEquals(1, decodes.get());
    } finally {
      cache.close();
    }
  }

  @Test
  void theEncodingsKeptHoldAtMostTheCachesBudgetAndChangedEntriesFreeTheirs() {
    MemoryStorage storage = new MemoryStorage();
    storage.create("widgets/ns/a", "a".getBytes(StandardCharsets.UTF_8));
    storage.create("widgets/ns/b", "b".getBytes(StandardCharsets.UTF_8));
    WatchCache cache =
        new WatchCache(
            storage,
            "widgets/",
            100,
            100,
            kv -> new String(kv.value(), StandardCharsets.UTF_8),
            10);
    try {
      List<WatchCache.Entry> entries = cache.snapshot("widgets/").items();
      AtomicInteger encodes = new AtomicInteger();
      Function<Object, Object> eightBytes =
          object -> {
            encodes.incrementAndGet();
            return new byte[8];
          };
      Object a = entries.get(0).encoded("json", eightBytes);
      assertSame(a, entries.get(0).encoded("json", eightBytes));
      assertEquals(8, cache.keptEncodingBytes());
      // a second would pass the budget of 10 bytes: made each time, not kept
      Object b = entries.get(1).encoded("json", eightBytes);
      assertNotSame(b, entries.get(1).encoded("json", eightBytes));
      assertEquals(3, encodes.get());
      assertEquals(8, cache.keptEncodingBytes());
      // a's key changes: its entry is retired and its bytes no longer count
      KeyValue current = storage.get("widgets/ns/a").orElseThrow();
      storage.update("widgets/ns/a", current.modRevision(), "a2".getBytes(StandardCharsets.UTF_8));
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (cache.keptEncodingBytes() != 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertEquals(0, cache.keptEncodingBytes());
      Object kept = entries.get(1).encoded("json", eightBytes);
      assertSame(kept, entries.get(1).encoded("json", eightBytes));
      assertEquals(8, cache.keptEncodingBytes());
    } finally {
      cache.close();
    }
  }
}
