package dev.machinery.apiserver.storage.testing;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageWatch;
import java.util.Optional;

/**
 * A storage that passes every call to another, for tests that count, hold or change some of them:
 * override what the test watches. Thread-safe when the store it forwards to is.
 */
public class ForwardingStorage implements Storage {
  /** The store every call goes to. */
  protected final Storage store;

  /**
   * Forwards to a store.
   *
   * @param store the store
   */
  public ForwardingStorage(Storage store) {
    this.store = store;
  }

  @Override
  public boolean answersFromMemory() {
    return store.answersFromMemory();
  }

  @Override
  public boolean isStale(KeyValue kv) {
    return store.isStale(kv);
  }

  @Override
  public long currentRevision() {
    return store.currentRevision();
  }

  @Override
  public long compactedRevision() {
    return store.compactedRevision();
  }

  @Override
  public Optional<KeyValue> get(String key) {
    return store.get(key);
  }

  @Override
  public ListResult list(String prefix, long revision, String startKey, int limit) {
    return store.list(prefix, revision, startKey, limit);
  }

  @Override
  public ListResult list(
      String prefix, long revision, String startKey, int limit, boolean countRemaining) {
    return store.list(prefix, revision, startKey, limit, countRemaining);
  }

  @Override
  public RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
    return store.checkUnchanged(prefix, afterRevision, keysAtAfter);
  }

  @Override
  public boolean unchangedSince(
      String prefix, long afterRevision, long atRevision, long keysAtAfter) {
    return store.unchangedSince(prefix, afterRevision, atRevision, keysAtAfter);
  }

  @Override
  public boolean tellsUnchanged() {
    return store.tellsUnchanged();
  }

  @Override
  public KeyValue create(String key, byte[] value) {
    return store.create(key, value);
  }

  @Override
  public KeyValue update(String key, long expectedModRevision, byte[] value) {
    return store.update(key, expectedModRevision, value);
  }

  @Override
  public KeyValue create(String key, byte[] value, long ttlSeconds) {
    return store.create(key, value, ttlSeconds);
  }

  @Override
  public KeyValue update(String key, long expectedModRevision, byte[] value, long ttlSeconds) {
    return store.update(key, expectedModRevision, value, ttlSeconds);
  }

  @Override
  public KeyValue delete(String key, long expectedModRevision) {
    return store.delete(key, expectedModRevision);
  }

  @Override
  public StorageWatch watch(String prefix, long afterRevision) {
    return store.watch(prefix, afterRevision);
  }

  @Override
  public void compact(long revision) {
    store.compact(revision);
  }

  @Override
  public void close() {
    store.close();
  }
}
