package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.MemoryStorage;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
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
}
