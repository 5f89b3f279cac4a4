package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.ListResourceVersionContract;

/** A list's options over a memory store. */
class MemoryListResourceVersionTest extends ListResourceVersionContract {
  @Override
  protected Storage storage() {
    return new MemoryStorage();
  }
}
