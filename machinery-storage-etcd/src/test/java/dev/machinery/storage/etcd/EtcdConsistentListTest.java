package dev.machinery.storage.etcd;

import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.testing.ConsistentListContract;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Consistent lists over a real etcd (one member, started for this class), a writing and a reading
 * server each with a store of its own over the test's prefix.
 */
class EtcdConsistentListTest extends ConsistentListContract {
  private static final AtomicInteger TESTS = new AtomicInteger();
  private static EtcdProcess etcd;
  private final String prefix = "/consistent-" + TESTS.incrementAndGet() + "/";

  @BeforeAll
  static void startEtcd() throws IOException {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() throws IOException {
    etcd.close();
  }

  /**
   * Whether the stores under test make their unary calls over etcd's gRPC API.
   *
   * @return false: the JSON gateway
   */
  protected boolean grpc() {
    return false;
  }

  @Override
  protected Storage storage() {
    return EtcdStorage.builder(etcd.endpoint())
        .grpc(grpc())
        .prefix(prefix)
        .resumeFor(Duration.ofSeconds(20))
        .build();
  }
}
