package dev.machinery.examples.server;

/** {@link SampleServerHttpTest} against the Netty binding ({@code --http-binding=netty}). */
class SampleServerHttpNettyTest extends SampleServerHttpTest {
  @Override
  String httpBinding() {
    return "netty";
  }
}
