package dev.machinery.apiserver.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.testing.client.ClientVerbsContract;
import dev.machinery.apiserver.testing.client.WidgetServer;
import dev.machinery.client.Client;
import dev.machinery.client.transport.HttpTransport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import org.junit.jupiter.api.Test;

/**
 * The client's verbs over plain HTTP/1.1 to the server on the Netty binding, with a bearer token:
 * the whole contract, and the protocol checked.
 */
class NettyHttp1ClientTest extends ClientVerbsContract {
  private HttpBinding binding;
  private URI uri;

  @Override
  protected Client connect(ApiServer server) throws Exception {
    binding =
        server.serve(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            NettyBinding.starter(NettyOptions.defaults()));
    uri = URI.create("http://127.0.0.1:" + binding.port());
    return common(
            Client.builder(
                HttpTransport.builder(uri).bearerToken(WidgetServer.ADMIN_TOKEN).build()))
        .build();
  }

  @Override
  protected void disconnect() {
    if (binding != null) {
      binding.close();
    }
  }

  @Test
  void theClientSettingsSpeakHttp11() throws Exception {
    assertEquals(HttpClient.Version.HTTP_1_1, ClientCertificates.probe(uri, null));
  }
}
