package dev.machinery.examples.server;

/** {@link SampleServerKubectlTest} against the Netty binding ({@code --http-binding=netty}). */
class SampleServerKubectlNettyTest extends SampleServerKubectlTest {
  @Override
  String httpBinding() {
    return "netty";
  }
}
