package dev.machinery.apiserver.storage;

import dev.machinery.apiserver.storage.testing.EncryptionAtRestContract;

/** Encryption at rest over {@link MemoryStorage}, of values stored in protobuf. */
class MemoryProtobufEncryptionAtRestTest extends EncryptionAtRestContract {
  @Override
  protected Storage newStorage() {
    return new MemoryStorage();
  }

  @Override
  protected StorageMediaType storageMediaType() {
    return StorageMediaType.PROTOBUF;
  }
}
