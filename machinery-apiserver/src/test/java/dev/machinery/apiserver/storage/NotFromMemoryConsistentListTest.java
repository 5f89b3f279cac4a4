package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.ConsistentListContract;
import java.util.Optional;

/**
 * Consistent reads over one memory store that declares it does not answer from memory, so that
 * reads take the watch cache's path as on etcd.
 */
class NotFromMemoryConsistentListTest extends ConsistentListContract {
  private final MemoryStorage shared = new MemoryStorage();

  @Override
  protected Storage storage() {
    return new Remote(shared);
  }

  /** The memory store, seen as a store across a network. */
  private static final class Remote implements Storage {
    private final Storage store;

    Remote(Storage store) {
      this.store = store;
    }

    @Override
    public boolean answersFromMemory() {
      return false;
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
    public boolean tellsUnchanged() {
      return store.tellsUnchanged();
    }

    @Override
    public boolean unchangedSince(
        String prefix, long afterRevision, long atRevision, long keysAtAfter) {
      return store.unchangedSince(prefix, afterRevision, atRevision, keysAtAfter);
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
      // The shared store outlives each server's view of it.
    }
  }
}
