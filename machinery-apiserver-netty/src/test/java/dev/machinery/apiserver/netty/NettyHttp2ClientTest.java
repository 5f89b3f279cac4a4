package dev.machinery.apiserver.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.testing.client.ClientVerbsContract;
import dev.machinery.apiserver.testing.client.Widget;
import dev.machinery.apiserver.testing.client.WidgetServer;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's verbs over HTTPS to the server on the Netty binding, HTTP/2 negotiated by ALPN, the
 * client authenticated by its certificate (CN admin, O system:masters) with no token: the whole
 * contract, then a certificate of an unknown authority (401) and a certified user without rights
 * (403).
 */
class NettyHttp2ClientTest extends ClientVerbsContract {
  @TempDir static Path dir;
  private static ClientCertificates certs;
  private HttpBinding binding;
  private URI uri;

  @Override
  protected ApiServer.Builder configure(ApiServer.Builder builder) throws Exception {
    return builder.tls(certs.serverTls()).authenticator(certs.authenticator());
  }

  @BeforeAll
  static void certificates() throws Exception {
    certs = ClientCertificates.make(dir, "NettyHttp2ClientTest");
  }

  @Override
  protected Client connect(ApiServer server) throws Exception {
    binding =
        server.serve(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            NettyBinding.starter(NettyOptions.defaults()));
    uri = URI.create("https://127.0.0.1:" + binding.port());
    return common(
            Client.builder(
                HttpTransport.builder(uri).sslContext(certs.clientContext("admin")).build()))
        .build();
  }

  @Override
  protected void disconnect() {
    if (binding != null) {
      binding.close();
    }
  }

  private Client as(String certificate) throws Exception {
    return Client.builder(
            HttpTransport.builder(uri).sslContext(certs.clientContext(certificate)).build())
        .scheme(WidgetServer.SCHEME)
        .restMapper(client.restMapper())
        .rateLimiter(RateLimiter.unlimited())
        .build();
  }

  @Test
  void theClientSettingsNegotiateHttp2() throws Exception {
    assertEquals(
        HttpClient.Version.HTTP_2, ClientCertificates.probe(uri, certs.clientContext("admin")));
  }

  @Test
  void aCertificateOfAnUnknownAuthorityIsUnauthorized() throws Exception {
    try (Client stranger = as("stranger")) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> stranger.resources(Widget.class).inNamespace("ns").list(new ListOptions()));
      assertTrue(ApiErrors.isUnauthorized(refused), refused.getMessage());
      assertEquals(401, refused.statusCode());
    }
  }

  @Test
  void noCertificateAndNoTokenIsUnauthorized() throws Exception {
    try (Client anonymous = as(null)) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> anonymous.resources(Widget.class).inNamespace("ns").get("a"));
      assertEquals(401, refused.statusCode(), refused.getMessage());
    }
  }

  @Test
  void aCertifiedUserWithoutRightsIsForbidden() throws Exception {
    try (Client nobody = as("nobody")) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> nobody.resources(Widget.class).inNamespace("ns").get("a"));
      assertTrue(ApiErrors.isForbidden(refused), refused.getMessage());
      assertTrue(refused.getMessage().contains("User \"nobody\""), refused.getMessage());
    }
  }
}
