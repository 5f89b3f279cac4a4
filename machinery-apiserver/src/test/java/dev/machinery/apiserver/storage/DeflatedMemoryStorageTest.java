package dev.machinery.apiserver.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.storage.testing.StorageContract;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A {@link MemoryStorage} that keeps its values deflated meets the storage contract, gives back
 * every value byte for byte as written (from reads, lists at past revisions, watches live and
 * replayed, and deletes), and keeps fewer bytes than a plain store.
 */
class DeflatedMemoryStorageTest extends StorageContract {
  @Override
  protected Storage newStorage() {
    return deflated();
  }

  private static MemoryStorage deflated() {
    return new MemoryStorage(
        MemoryStorage.DEFAULT_HISTORY_LIMIT, MemoryStorage.DEFAULT_WATCH_QUEUE_LIMIT, true);
  }

  /** A value of the given size: JSON-like text with repeats, or random bytes that never shrink. */
  private static byte[] value(Random random, int size) {
    byte[] bytes = new byte[size];
    if (random.nextBoolean()) {
      random.nextBytes(bytes);
      return bytes;
    }
    String[] words = {"{\"name\":", "\"app-", "\"image\":", "\"ready\":true", "},", "\"uid\":\""};
    StringBuilder text = new StringBuilder();
    while (text.length() < size) {
      text.append(words[random.nextInt(words.length)]).append(random.nextInt(100));
    }
    return text.substring(0, size).getBytes(UTF_8);
  }

  @Test
  void everyValueReadsBackAsWrittenWhereverItIsRead() throws Exception {
    for (long seed = 1; seed <= 5; seed++) {
      Random random = new Random(seed);
      MemoryStorage storage = deflated();
      StorageWatch live = storage.watch("/k/", 0);
      // The value each revision reports: what it wrote, or for a delete the value it deleted.
      Map<Long, byte[]> byRevision = new HashMap<>();
      Map<Long, String> puts = new HashMap<>();
      for (int i = 0; i < 60; i++) {
        String key = "/k/" + random.nextInt(12);
        byte[] value = value(random, random.nextInt(3) == 0 ? 0 : random.nextInt(20_000));
        KeyValue current = storage.get(key).orElse(null);
        KeyValue result;
        if (current != null && random.nextInt(4) == 0) {
          result = storage.delete(key, current.modRevision());
          assertArrayEquals(current.value(), result.value(), "seed " + seed + ": a delete");
        } else {
          result =
              current == null
                  ? storage.create(key, value)
                  : storage.update(key, current.modRevision(), value);
          assertArrayEquals(value, result.value(), "seed " + seed + ": the write's answer");
          assertArrayEquals(value, storage.get(key).orElseThrow().value(), "seed " + seed);
          puts.put(result.modRevision(), key);
        }
        byRevision.put(storage.currentRevision(), result.value());
      }
      for (Map.Entry<Long, String> put : puts.entrySet()) {
        assertArrayEquals(
            byRevision.get(put.getKey()),
            storage.list(put.getValue(), put.getKey(), null, 0).items().get(0).value(),
            "seed " + seed + ": a list at revision " + put.getKey());
      }
      // A watch from the first revision replays the history kept, the later values as written.
      StorageWatch replay = storage.watch("/k/", 1);
      for (StorageWatch watch : List.of(live, replay)) {
        int events = 0;
        for (StorageEvent event = watch.poll(0, TimeUnit.MILLISECONDS);
            event != null;
            event = watch.poll(0, TimeUnit.MILLISECONDS)) {
          events++;
          assertArrayEquals(
              byRevision.get(event.revision()),
              event.kv().value(),
              "seed " + seed + ": the event of revision " + event.revision());
          if (event.previous() != null) {
            assertArrayEquals(
                byRevision.get(event.previous().modRevision()),
                event.previous().value(),
                "seed " + seed + ": the previous value in revision " + event.revision());
          }
        }
        assertEquals(watch == live ? 60 : 59, events, "seed " + seed);
      }
      assertNull(live.error());
    }
  }

  @Test
  void repeatedTextIsKeptInFewerBytesThanAPlainStoreKeeps() {
    MemoryStorage plain = new MemoryStorage();
    MemoryStorage deflated = deflated();
    Random random = new Random(7);
    for (int i = 0; i < 50; i++) {
      StringBuilder text = new StringBuilder();
      for (int j = 0; j < 60; j++) {
        text.append("{\"name\":\"app-").append(random.nextInt(5)).append("\",\"ready\":true},");
      }
      byte[] value = text.toString().getBytes(UTF_8);
      plain.create("/k/" + i, value);
      deflated.create("/k/" + i, value);
    }
    assertTrue(
        deflated.keptValueBytes() * 3 < plain.keptValueBytes(),
        deflated.keptValueBytes() + " deflated against " + plain.keptValueBytes());
    assertEquals(plain.list("/k/", 0, null, 0).items().size(), 50);
    for (int i = 0; i < 50; i++) {
      assertArrayEquals(
          plain.get("/k/" + i).orElseThrow().value(),
          deflated.get("/k/" + i).orElseThrow().value());
    }
  }
}
