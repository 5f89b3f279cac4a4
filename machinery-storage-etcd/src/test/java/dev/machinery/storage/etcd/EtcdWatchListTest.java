package dev.machinery.storage.etcd;

import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.testing.WatchListContract;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Watch lists and bookmarks served over {@link EtcdStorage} on a real etcd (one member, started for
 * this class), each test under a prefix of its own.
 */
class EtcdWatchListTest extends WatchListContract {
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
        .prefix("/watchlist-" + TESTS.incrementAndGet() + "/")
        .resumeFor(Duration.ofSeconds(20))
        .build();
  }
}
