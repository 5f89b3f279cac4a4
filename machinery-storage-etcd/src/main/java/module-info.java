/**
 * Machinery storage on etcd v3: {@link dev.machinery.storage.etcd.EtcdStorage}, the API server's
 * {@code Storage} kept in etcd. Its calls go through etcd's JSON gateway (unary calls on HTTP/1.1
 * connections of its own, watches on the JDK's HTTP client), or, when the builder asks for it, over
 * etcd's gRPC API on Netty's HTTP/2 codec (an optional dependency).
 */
module dev.machinery.storage.etcd {
  requires transitive dev.machinery.apiserver;
  requires java.net.http;
  requires org.slf4j;
  requires static io.netty.buffer;
  requires static io.netty.codec.http2;
  requires static io.netty.codec.http;
  requires static io.netty.common;
  requires static io.netty.handler;
  requires static io.netty.transport;

  exports dev.machinery.storage.etcd;
}
