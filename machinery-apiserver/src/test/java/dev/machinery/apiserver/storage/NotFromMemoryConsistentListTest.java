package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.ConsistentListContract;
import dev.machinery.apiserver.storage.testing.ForwardingStorage;

/**
 * Consistent reads over one memory store that declares it does not answer from memory, so that
 * reads take the watch cache's path as on etcd.
 */
class NotFromMemoryConsistentListTest extends ConsistentListContract {
  private final MemoryStorage shared = new MemoryStorage();

  @Override
  protected Storage storage() {
    return new ForwardingStorage(shared) {
      @Override
      public boolean answersFromMemory() {
        return false;
      }

      @Override
      public void close() {
        // The shared store outlives each server's view of it.
      }
    };
  }
}
