package dev.machinery.storage.etcd;

import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.testing.ForwardingStorage;
import dev.machinery.apiserver.storage.testing.ListResourceVersionContract;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A list's options over a real etcd (one member, started for this class, stopped with its store),
 * its compaction etcd's own.
 */
class EtcdListResourceVersionTest extends ListResourceVersionContract {
  @Override
  protected Storage storage() {
    EtcdProcess etcd;
    try {
      etcd = EtcdProcess.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ForwardingStorage(EtcdStorage.builder(etcd.endpoint()).grpc(true).build()) {
      @Override
      public void close() {
        try {
          super.close();
        } finally {
          try {
            etcd.close();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    };
  }
}
