package dev.machinery.examples.server;

/** {@link Fabric8ClientTest} against the Netty binding ({@code --http-binding=netty}). */
class Fabric8ClientNettyTest extends Fabric8ClientTest {
  @Override
  String httpBinding() {
    return "netty";
  }
}
