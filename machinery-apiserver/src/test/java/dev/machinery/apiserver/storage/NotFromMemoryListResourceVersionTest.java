package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.ListResourceVersionContract;
import dev.machinery.apiserver.storage.testing.RemoteMemoryStorage;

/**
 * A list's options over a memory store that says it does not answer from memory, so that reads take
 * the watch cache's path as on etcd.
 */
class NotFromMemoryListResourceVersionTest extends ListResourceVersionContract {
  @Override
  protected Storage storage() {
    return new RemoteMemoryStorage();
  }
}
