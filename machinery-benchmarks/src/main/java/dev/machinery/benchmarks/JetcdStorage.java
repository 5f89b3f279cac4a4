package dev.machinery.benchmarks;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.QueuedWatch;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The operations {@link EtcdClientLoad} measures, written with jetcd's KV and Watch API the way
 * {@code EtcdStorage} writes them for the JSON gateway: the same keys under a prefix, the same
 * transactions ({@code create_revision == 0} with a put, else a range; {@code mod_revision} with a
 * put and {@code prev_kv}, else a range), the same range (one more than the page, skipping the
 * compaction key) and the same watch ({@code prev_kv}, progress notifications), answering the
 * server's {@link KeyValue}s. A watch's events go through a queue to the consumer, as {@code
 * EtcdStorage}'s do (the same {@link QueuedWatch}). It meets the storage contract ({@code
 * JetcdStorageTest}); unlike {@code EtcdStorage} it has one endpoint and retries nothing.
 */
final class JetcdStorage implements Storage {
  private static final String COMPACT_REVISION_KEY = "compact_rev_key";

  private final Client client;
  private final KV kv;
  private final Watch watchClient;
  private final String prefix;
  private final String compactKey;
  private final java.util.Set<QueuedWatch> watches =
      java.util.concurrent.ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  JetcdStorage(URI endpoint, String prefix) {
    this.client = Client.builder().endpoints(endpoint).build();
    this.kv = client.getKVClient();
    this.watchClient = client.getWatchClient();
    this.prefix = prefix;
    this.compactKey = prefix + COMPACT_REVISION_KEY;
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text.getBytes(StandardCharsets.UTF_8));
  }

  private <T> T await(CompletableFuture<T> future) {
    if (closed) {
      throw unavailable("the storage is closed");
    }
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("interrupted while calling etcd");
    } catch (ExecutionException e) {
      if (String.valueOf(e.getCause()).contains("required revision has been compacted")) {
        throw new StorageException(
            StorageException.Kind.COMPACTED, null, 0, "etcd: " + e.getCause().getMessage());
      }
      throw unavailable("etcd failed: " + e.getCause());
    }
  }

  private static StorageException unavailable(String message) {
    return new StorageException(StorageException.Kind.UNAVAILABLE, null, 0, message);
  }

  private KeyValue keyValue(io.etcd.jetcd.KeyValue kv) {
    String key = kv.getKey().toString(StandardCharsets.UTF_8);
    return new KeyValue(
        key.substring(prefix.length()),
        kv.getValue().getBytes(),
        kv.getCreateRevision(),
        kv.getModRevision(),
        kv.getVersion());
  }

  @Override
  public long currentRevision() {
    return await(kv.get(bytes(compactKey), GetOption.builder().withCountOnly(true).build()))
        .getHeader()
        .getRevision();
  }

  @Override
  public long compactedRevision() {
    List<io.etcd.jetcd.KeyValue> found = await(kv.get(bytes(compactKey))).getKvs();
    return found.isEmpty()
        ? 0
        : Long.parseLong(found.get(0).getValue().toString(StandardCharsets.UTF_8));
  }

  @Override
  public Optional<KeyValue> get(String key) {
    GetResponse answer = await(kv.get(bytes(prefix + key)));
    return answer.getKvs().isEmpty()
        ? Optional.empty()
        : Optional.of(keyValue(answer.getKvs().get(0)));
  }

  @Override
  public ListResult list(String prefix, long revision, String startKey, int limit) {
    byte[] full = (this.prefix + prefix).getBytes(StandardCharsets.UTF_8);
    GetOption.Builder option = GetOption.builder().withRange(ByteSequence.from(prefixEnd(full)));
    if (revision > 0) {
      option.withRevision(revision);
    }
    if (limit > 0) {
      option.withLimit(limit + 1L);
    }
    ByteSequence from = startKey == null ? ByteSequence.from(full) : bytes(this.prefix + startKey);
    GetResponse answer = await(kv.get(from, option.build()));
    List<KeyValue> items = new ArrayList<>();
    for (io.etcd.jetcd.KeyValue found : answer.getKvs()) {
      if (found.getKey().toString(StandardCharsets.UTF_8).equals(compactKey)) {
        continue;
      }
      if (limit > 0 && items.size() == limit) {
        break;
      }
      items.add(keyValue(found));
    }
    // etcd counts every key of the range from the start key, whatever the limit.
    long inRange = answer.getCount();
    String first = startKey == null ? this.prefix + prefix : this.prefix + startKey;
    if (compactKey.startsWith(this.prefix + prefix) && compactKey.compareTo(first) >= 0) {
      inRange--;
    }
    long remaining = Math.max(0, inRange - items.size());
    return new ListResult(
        items,
        revision > 0 ? revision : answer.getHeader().getRevision(),
        remaining > 0,
        remaining);
  }

  @Override
  public KeyValue create(String key, byte[] value, long ttlSeconds) {
    byte[] copy = value.clone();
    ByteSequence full = bytes(prefix + key);
    TxnResponse answer =
        await(
            kv.txn()
                .If(new Cmp(full, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(full, ByteSequence.from(copy), putOption(ttlSeconds, false)))
                .Else(Op.get(full, GetOption.DEFAULT))
                .commit());
    if (!answer.isSucceeded()) {
      throw new StorageException(
          StorageException.Kind.KEY_EXISTS, key, 0, "key " + key + " already exists");
    }
    long revision = answer.getHeader().getRevision();
    return new KeyValue(key, copy, revision, revision, 1);
  }

  /** A put's options: the previous value when asked, and a lease of its own for a time to live. */
  private PutOption putOption(long ttlSeconds, boolean previous) {
    if (ttlSeconds < 0) {
      throw new IllegalArgumentException("a negative time to live: " + ttlSeconds);
    }
    PutOption.Builder options = PutOption.builder();
    if (previous) {
      options.withPrevKV();
    }
    if (ttlSeconds > 0) {
      options.withLeaseId(await(client.getLeaseClient().grant(ttlSeconds)).getID());
    }
    return options.build();
  }

  @Override
  public KeyValue update(String key, long expectedModRevision, byte[] value, long ttlSeconds) {
    byte[] copy = value.clone();
    ByteSequence full = bytes(prefix + key);
    TxnResponse answer =
        await(
            kv.txn()
                .If(expected(full, expectedModRevision))
                .Then(Op.put(full, ByteSequence.from(copy), putOption(ttlSeconds, true)))
                .Else(Op.get(full, GetOption.DEFAULT))
                .commit());
    if (!answer.isSucceeded()) {
      throw refused(key, expectedModRevision, answer);
    }
    PutResponse put = answer.getPutResponses().get(0);
    io.etcd.jetcd.KeyValue previous = put.getPrevKv();
    return new KeyValue(
        key,
        copy,
        previous.getCreateRevision(),
        answer.getHeader().getRevision(),
        previous.getVersion() + 1);
  }

  @Override
  public KeyValue delete(String key, long expectedModRevision) {
    ByteSequence full = bytes(prefix + key);
    TxnResponse answer =
        await(
            kv.txn()
                .If(expected(full, expectedModRevision))
                .Then(
                    Op.delete(
                        full,
                        io.etcd.jetcd.options.DeleteOption.builder().withPrevKV(true).build()))
                .Else(Op.get(full, GetOption.DEFAULT))
                .commit());
    if (!answer.isSucceeded()) {
      throw refused(key, expectedModRevision, answer);
    }
    io.etcd.jetcd.KeyValue previous = answer.getDeleteResponses().get(0).getPrevKvs().get(0);
    return new KeyValue(
        key,
        previous.getValue().getBytes(),
        previous.getCreateRevision(),
        answer.getHeader().getRevision(),
        previous.getVersion());
  }

  /** The key is at the revision read, or (for 0) exists at all. */
  private static Cmp expected(ByteSequence key, long expectedModRevision) {
    return expectedModRevision > 0
        ? new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(expectedModRevision))
        : new Cmp(key, Cmp.Op.GREATER, CmpTarget.createRevision(0));
  }

  /** Why a guarded write failed: the key is gone, or it changed since it was read. */
  private static StorageException refused(String key, long expected, TxnResponse answer) {
    List<io.etcd.jetcd.KeyValue> current = answer.getGetResponses().get(0).getKvs();
    if (current.isEmpty()) {
      return new StorageException(
          StorageException.Kind.KEY_NOT_FOUND, key, 0, "key " + key + " not found");
    }
    long at = current.get(0).getModRevision();
    return new StorageException(
        StorageException.Kind.CONFLICT,
        key,
        at,
        "key " + key + " is at revision " + at + ", not " + expected);
  }

  @Override
  public StorageWatch watch(String prefix, long afterRevision) {
    long after = afterRevision > 0 ? afterRevision : currentRevision();
    long compacted = compactedRevision();
    if (after < compacted) {
      throw new StorageException(
          StorageException.Kind.COMPACTED,
          prefix,
          compacted,
          "changes after revision " + after + " are compacted");
    }
    byte[] full = (this.prefix + prefix).getBytes(StandardCharsets.UTF_8);
    Watch.Watcher[] watcher = new Watch.Watcher[1];
    QueuedWatch queue =
        new QueuedWatch(
            prefix,
            10_000,
            ended -> {
              watches.remove(ended);
              if (watcher[0] != null) {
                watcher[0].close();
              }
            });
    watches.add(queue);
    watcher[0] =
        watchClient.watch(
            ByteSequence.from(full),
            WatchOption.builder()
                .withRange(ByteSequence.from(prefixEnd(full)))
                .withRevision(after + 1)
                .withPrevKV(true)
                .withProgressNotify(true)
                .build(),
            response -> {
              for (WatchEvent event : response.getEvents()) {
                io.etcd.jetcd.KeyValue now = event.getKeyValue();
                if (now.getKey().toString(StandardCharsets.UTF_8).equals(compactKey)) {
                  continue;
                }
                io.etcd.jetcd.KeyValue prev = event.getPrevKV();
                boolean hasPrevious = prev != null && !prev.getKey().isEmpty();
                if (event.getEventType() == WatchEvent.EventType.DELETE) {
                  KeyValue before = keyValue(prev);
                  queue.offer(
                      new StorageEvent(
                          StorageEvent.Type.DELETE,
                          new KeyValue(
                              before.key(),
                              before.value(),
                              before.createRevision(),
                              now.getModRevision(),
                              before.version()),
                          null));
                } else {
                  KeyValue kv = keyValue(now);
                  KeyValue previous =
                      kv.createRevision() != kv.modRevision() && hasPrevious
                          ? keyValue(prev)
                          : null;
                  queue.offer(new StorageEvent(StorageEvent.Type.PUT, kv, previous));
                }
              }
            },
            error -> queue.end(unavailable("the watch failed: " + error)));
    return queue;
  }

  @Override
  public void compact(long revision) {
    await(
        kv.compact(
            revision,
            io.etcd.jetcd.options.CompactOption.builder().withCompactPhysical(true).build()));
    await(kv.put(bytes(compactKey), bytes(Long.toString(revision))));
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (QueuedWatch watch : List.copyOf(watches)) {
      watch.end(unavailable("the storage was closed"));
    }
    client.close();
  }

  /** The end of the range of keys that start with a prefix, as etcd's clients compute it. */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if ((end[i] & 0xff) < 0xff) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return new byte[] {0};
  }
}
