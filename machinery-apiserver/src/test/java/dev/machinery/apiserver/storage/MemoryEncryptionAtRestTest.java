package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.EncryptionAtRestContract;

/** Encryption at rest over {@link MemoryStorage}. */
class MemoryEncryptionAtRestTest extends EncryptionAtRestContract {
  @Override
  protected Storage newStorage() {
    return new MemoryStorage();
  }
}
