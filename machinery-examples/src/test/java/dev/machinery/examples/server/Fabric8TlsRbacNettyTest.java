package dev.machinery.examples.server;

/**
 * {@link Fabric8TlsRbacTest} against the Netty binding ({@code --http-binding=netty}), where
 * fabric8's JDK HTTP client speaks HTTP/2.
 */
class Fabric8TlsRbacNettyTest extends Fabric8TlsRbacTest {
  @Override
  String httpBinding() {
    return "netty";
  }
}
