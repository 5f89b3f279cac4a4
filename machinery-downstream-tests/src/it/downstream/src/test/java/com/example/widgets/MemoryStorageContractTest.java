package com.example.widgets;

import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.testing.StorageContract;

/** The storage contract suite, taken from the published test jar as another store's tests would. */
class MemoryStorageContractTest extends StorageContract {
  @Override
  protected Storage newStorage() {
    return new MemoryStorage();
  }
}
