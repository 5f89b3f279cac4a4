/**
 * Machinery storage on etcd v3: {@link dev.machinery.storage.etcd.EtcdStorage}, the API server's
 * {@code Storage} kept in etcd, through etcd's JSON gateway: unary calls on HTTP/1.1 connections of
 * its own, watches on the JDK's HTTP client.
 */
module dev.machinery.storage.etcd {
  requires transitive dev.machinery.apiserver;
  requires java.net.http;

  exports dev.machinery.storage.etcd;
}
