package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.StorageMediaTypeContract;

/** A change of the storage media type over {@link MemoryStorage}. */
class MemoryStorageMediaTypeTest extends StorageMediaTypeContract {
  @Override
  protected Storage newStorage() {
    return new MemoryStorage();
  }
}
