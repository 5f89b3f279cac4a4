package dev.machinery.examples.server;

/** {@link SampleServerTlsKubectlTest} against the Netty binding ({@code --http-binding=netty}). */
class SampleServerTlsKubectlNettyTest extends SampleServerTlsKubectlTest {
  @Override
  String httpBinding() {
    return "netty";
  }
}
