package dev.machinery.storage.etcd;

import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.testing.StorageMediaTypeContract;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A change of the storage media type over {@link EtcdStorage} on a real etcd (one member, started
 * for this class), each test under a prefix of its own.
 */
class EtcdStorageMediaTypeTest extends StorageMediaTypeContract {
  private static final AtomicInteger TESTS = new AtomicInteger();
  private static EtcdProcess etcd;

  @BeforeAll
  static void startEtcd() throws IOException {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() throws IOException {
    etcd.close();
  }

  @Override
  protected Storage newStorage() {
    return EtcdStorage.builder(etcd.endpoint())
        .prefix("/media-type-" + TESTS.incrementAndGet() + "/")
        .build();
  }
}
