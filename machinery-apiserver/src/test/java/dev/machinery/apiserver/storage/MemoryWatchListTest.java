package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.WatchListContract;

/** Watch lists and bookmarks on {@link MemoryStorage}. */
class MemoryWatchListTest extends WatchListContract {
  @Override
  protected Storage newStorage() {
    return new MemoryStorage();
  }
}
