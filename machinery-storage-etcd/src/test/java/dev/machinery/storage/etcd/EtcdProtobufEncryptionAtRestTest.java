package dev.machinery.storage.etcd;

import dev.machinery.apiserver.storage.StorageMediaType;

/**
 * Encryption at rest over {@link EtcdStorage} on a real etcd, of values stored in protobuf (as
 * kube-apiserver stores them): the encrypted value is the protobuf envelope, transformed.
 */
class EtcdProtobufEncryptionAtRestTest extends EtcdEncryptionAtRestTest {
  @Override
  protected StorageMediaType storageMediaType() {
    return StorageMediaType.PROTOBUF;
  }
}
