package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.ConsistentListContract;

/** Consistent lists over one memory store shared by a writing and a reading server. */
class MemoryConsistentListTest extends ConsistentListContract {
  // JUnit makes an instance per test, so each test has a store of its own.
  private final MemoryStorage shared = new MemoryStorage();

  @Override
  protected Storage storage() {
    return shared;
  }
}
