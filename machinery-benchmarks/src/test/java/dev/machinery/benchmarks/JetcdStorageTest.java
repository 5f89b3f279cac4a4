package dev.machinery.benchmarks;

import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.testing.StorageContract;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The jetcd adapter that {@code EtcdClientLoad} measures against {@code EtcdStorage} meets the same
 * storage contract on a real etcd, so that the two clients are measured doing the same work.
 */
class JetcdStorageTest extends StorageContract {
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
    return new JetcdStorage(etcd.endpoint(), "/jetcd-" + TESTS.incrementAndGet() + "/");
  }
}
