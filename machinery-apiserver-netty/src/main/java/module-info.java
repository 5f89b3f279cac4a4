/**
 * Machinery API server on Netty: {@link dev.machinery.apiserver.netty.NettyBinding} serves an
 * {@code ApiHandler}, such as {@code ApiServer}, over HTTP/1.1, and HTTPS with HTTP/2 offered by
 * ALPN, with Netty's HTTP codecs. A module apart from {@code dev.machinery.apiserver}, so that a
 * server on the JDK binding carries no Netty jars.
 */
module dev.machinery.apiserver.netty {
  requires transitive dev.machinery.apiserver;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.http;
  requires io.netty.codec.http2;
  requires io.netty.common;
  requires io.netty.handler;
  requires io.netty.transport;
  requires org.slf4j;

  exports dev.machinery.apiserver.netty;
}
