package dev.machinery.examples.server;

/**
 * {@link SampleServerTlsKubectlTest} against the Netty binding ({@code --http-binding=netty}),
 * which every kubectl speaks HTTP/2 to.
 */
class SampleServerTlsKubectlNettyTest extends SampleServerTlsKubectlTest {
  @Override
  String httpBinding() {
    return "netty";
  }

  @Override
  boolean speaksHttp2() {
    return true;
  }
}
