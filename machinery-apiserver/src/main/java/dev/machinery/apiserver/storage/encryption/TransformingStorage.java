package dev.machinery.apiserver.storage.encryption;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One resource's view of the server's storage with its values transformed: written through the
 * transformer's first provider, read through whichever provider's prefix matches. A value no
 * provider reads is a {@link ValueTransformException} naming its key and the resource (a watch that
 * meets one ends with that error); the other keys are read as before. A value read with any but the
 * first provider or key is remembered as stale (by key and revision) until it is written again, so
 * that an update that changes nothing still rewrites it ({@link #isStale}). Closing the view leaves
 * the shared storage open.
 *
 * <p>Thread-safe: the storage and the transformer are; the stale keys are a concurrent map.
 */
final class TransformingStorage implements Storage {
  private final Storage storage;
  private final ValueTransformer transformer;
  private final String keyPrefix;
  private final String resource;
  private final Map<String, Long> stale = new ConcurrentHashMap<>();

  TransformingStorage(
      Storage storage, ValueTransformer transformer, String keyPrefix, String resource) {
    this.storage = storage;
    this.transformer = transformer;
    this.keyPrefix = keyPrefix;
    this.resource = resource;
  }

  private byte[] context(String key) {
    return (keyPrefix + key).getBytes(StandardCharsets.UTF_8);
  }

  private KeyValue read(KeyValue kv) {
    if (kv == null) {
      return null;
    }
    ValueTransformer.Read read;
    try {
      read = transformer.fromStorage(kv.value(), context(kv.key()));
    } catch (ValueTransformException e) {
      throw new ValueTransformException(
          "unable to transform key \""
              + keyPrefix
              + kv.key()
              + "\" of "
              + resource
              + ": "
              + e.getMessage());
    }
    if (read.stale()) {
      stale.put(kv.key(), kv.modRevision());
    }
    return withValue(kv, read.value());
  }

  private static KeyValue withValue(KeyValue kv, byte[] value) {
    return new KeyValue(kv.key(), value, kv.createRevision(), kv.modRevision(), kv.version());
  }

  @Override
  public boolean answersFromMemory() {
    return storage.answersFromMemory();
  }

  @Override
  public boolean isStale(KeyValue kv) {
    Long revision = stale.get(kv.key());
    return revision != null && revision == kv.modRevision();
  }

  @Override
  public long currentRevision() {
    return storage.currentRevision();
  }

  @Override
  public long compactedRevision() {
    return storage.compactedRevision();
  }

  @Override
  public Optional<KeyValue> get(String key) {
    return storage.get(key).map(this::read);
  }

  @Override
  public boolean tellsUnchanged() {
    return storage.tellsUnchanged();
  }

  @Override
  public RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
    return storage.checkUnchanged(prefix, afterRevision, keysAtAfter);
  }

  @Override
  public boolean unchangedSince(
      String prefix, long afterRevision, long atRevision, long keysAtAfter) {
    return storage.unchangedSince(prefix, afterRevision, atRevision, keysAtAfter);
  }

  @Override
  public ListResult list(String prefix, long revision, String startKey, int limit) {
    return list(prefix, revision, startKey, limit, false);
  }

  @Override
  public ListResult list(
      String prefix, long revision, String startKey, int limit, boolean countRemaining) {
    ListResult page = storage.list(prefix, revision, startKey, limit, countRemaining);
    List<KeyValue> items = new ArrayList<>(page.items().size());
    for (KeyValue kv : page.items()) {
      items.add(read(kv));
    }
    return new ListResult(items, page.revision(), page.more(), page.remaining());
  }

  @Override
  public KeyValue create(String key, byte[] value, long ttlSeconds) {
    KeyValue written = storage.create(key, transformer.toStorage(value, context(key)), ttlSeconds);
    stale.remove(key);
    return withValue(written, value);
  }

  @Override
  public KeyValue update(String key, long expectedModRevision, byte[] value, long ttlSeconds) {
    KeyValue written =
        storage.update(
            key, expectedModRevision, transformer.toStorage(value, context(key)), ttlSeconds);
    stale.remove(key);
    return withValue(written, value);
  }

  @Override
  public KeyValue delete(String key, long expectedModRevision) {
    KeyValue deleted = storage.delete(key, expectedModRevision);
    stale.remove(key);
    return read(deleted);
  }

  @Override
  public StorageWatch watch(String prefix, long afterRevision) {
    return new Watch(storage.watch(prefix, afterRevision));
  }

  @Override
  public void compact(long revision) {
    storage.compact(revision);
  }

  /** A view: the shared storage stays open. */
  @Override
  public void close() {}

  /** The storage's watch with each event's values read; a value no provider reads ends it. */
  private final class Watch implements StorageWatch {
    private final StorageWatch watch;
    private volatile StorageException failure;

    Watch(StorageWatch watch) {
      this.watch = watch;
    }

    @Override
    public StorageEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
      if (failure != null) {
        return null;
      }
      StorageEvent event = watch.poll(timeout, unit);
      if (event == null) {
        return null;
      }
      try {
        KeyValue previous = event.previous() == null ? null : readOrNull(event.previous());
        return new StorageEvent(event.type(), read(event.kv()), previous);
      } catch (ValueTransformException e) {
        failure =
            new StorageException(
                StorageException.Kind.UNAVAILABLE,
                event.kv().key(),
                event.revision(),
                e.getMessage());
        watch.close();
        return null;
      }
    }

    /** A previous value that no longer reads is left out, as a store that forgot it. */
    private KeyValue readOrNull(KeyValue kv) {
      try {
        return read(kv);
      } catch (ValueTransformException e) {
        return null;
      }
    }

    @Override
    public boolean isDone() {
      return failure != null || watch.isDone();
    }

    @Override
    public StorageException error() {
      return failure != null ? failure : watch.error();
    }

    @Override
    public void close() {
      watch.close();
    }
  }
}
