package dev.machinery.storage.etcd;

/**
 * {@link EtcdConsistentListTest} again, the stores' reads, checks and writes over etcd's gRPC API
 * instead of the JSON gateway.
 */
class EtcdConsistentListGrpcTest extends EtcdConsistentListTest {
  @Override
  protected boolean grpc() {
    return true;
  }
}
