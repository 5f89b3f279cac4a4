package dev.machinery.apiserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.client.ClientVerbsContract;
import dev.machinery.apiserver.testing.client.Widget;
import dev.machinery.apiserver.testing.client.WidgetServer;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.config.CredentialSource;
import dev.machinery.client.config.Impersonation;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's verbs over {@link HttpTransport} to the server on the JDK's HTTP binding, over TLS
 * with a bearer token: the same contract as in process, and what only the network has (401, the
 * credentials' refresh, 403 for an authenticated user without rights).
 */
class HttpClientTest extends ClientVerbsContract {
  @TempDir Path certDir;
  private SelfSignedCertificates.CertDirectory certs;
  private JdkHttpBinding binding;
  private URI uri;

  @Override
  protected ApiServer.Builder configure(ApiServer.Builder builder) throws Exception {
    certs =
        SelfSignedCertificates.ensure(
            certDir,
            "localhost",
            List.of(InetAddress.getByName("127.0.0.1")),
            List.of(),
            KeyAlgorithm.ECDSA_P256);
    return builder.tls(TlsConfig.fromPemFiles(certs.certFile(), certs.keyFile(), null));
  }

  SSLContext trustingTheServer() throws Exception {
    return trusting(certs);
  }

  static SSLContext trusting(SelfSignedCertificates.CertDirectory certs) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", certs.certKey().caCertificate());
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  @Override
  protected Client connect(ApiServer server) throws Exception {
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    uri = URI.create("https://127.0.0.1:" + binding.port());
    HttpTransport transport =
        HttpTransport.builder(uri)
            .sslContext(trustingTheServer())
            .bearerToken(WidgetServer.ADMIN_TOKEN)
            .build();
    return common(Client.builder(transport)).build();
  }

  @Override
  protected void disconnect() {
    binding.close();
  }

  private Client withCredentials(CredentialSource credentials) throws Exception {
    return Client.builder(
            HttpTransport.builder(uri)
                .sslContext(trustingTheServer())
                .credentials(credentials)
                .build())
        .scheme(WidgetServer.SCHEME)
        .restMapper(client.restMapper())
        .rateLimiter(RateLimiter.unlimited())
        .build();
  }

  @Test
  void theJdkBindingAnswersHttp11ToAClientThatOffersHttp2() throws Exception {
    // HttpTransport asks for HTTP/2 over TLS; the JDK's server offers no ALPN protocol, so the
    // exchange is HTTP/1.1.
    java.net.http.HttpResponse<Void> response =
        java.net.http.HttpClient.newBuilder()
            .version(java.net.http.HttpClient.Version.HTTP_2)
            .sslContext(trustingTheServer())
            .build()
            .send(
                java.net.http.HttpRequest.newBuilder(uri.resolve("/version"))
                    .header("Authorization", "Bearer " + WidgetServer.ADMIN_TOKEN)
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.discarding());
    assertEquals(200, response.statusCode());
    assertEquals(java.net.http.HttpClient.Version.HTTP_1_1, response.version());
  }

  @Test
  void aWrongTokenIsUnauthorized() throws Exception {
    try (Client wrong = withCredentials(CredentialSource.bearerToken("wrong"))) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> wrong.resources(Widget.class).inNamespace("ns").list(new ListOptions()));
      assertTrue(ApiErrors.isUnauthorized(refused), refused.getMessage());
      assertEquals(401, refused.statusCode());
    }
  }

  @Test
  void a401RefreshesTheCredentialsAndRetriesOnce() throws Exception {
    AtomicReference<String> token = new AtomicReference<>("stale");
    AtomicInteger refreshes = new AtomicInteger();
    CredentialSource refreshing =
        new CredentialSource() {
          @Override
          public Optional<String> authorization() {
            return Optional.of("Bearer " + token.get());
          }

          @Override
          public boolean invalidate() {
            refreshes.incrementAndGet();
            token.set(WidgetServer.ADMIN_TOKEN);
            return true;
          }
        };
    try (Client refreshed = withCredentials(refreshing)) {
      assertEquals(
          0,
          refreshed
              .resources(Widget.class)
              .inNamespace("ns")
              .list(new ListOptions())
              .items()
              .size());
      assertEquals(1, refreshes.get());
      refreshed.resources(Widget.class).inNamespace("ns").list(new ListOptions());
      assertEquals(1, refreshes.get(), "the new token holds");
    }
  }

  @Test
  void anAuthenticatedUserWithoutRightsIsForbidden() throws Exception {
    try (Client nobody = withCredentials(CredentialSource.bearerToken(WidgetServer.NOBODY_TOKEN))) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> nobody.resources(Widget.class).inNamespace("ns").get("a"));
      assertTrue(ApiErrors.isForbidden(refused), refused.getMessage());
      assertEquals(403, refused.statusCode());
    }
  }

  @Test
  void aServerThatIsNotThereIsATransportException() throws Exception {
    binding.close();
    assertThrows(
        dev.machinery.client.TransportException.class,
        () -> client.resources(Widget.class).inNamespace("ns").get("a"));
  }

  @Test
  void theCertificateIsCheckedAgainstTheTlsServerName(@TempDir Path otherDir) throws Exception {
    SelfSignedCertificates.CertDirectory named =
        SelfSignedCertificates.ensure(
            otherDir, "kubernetes.internal", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    ApiServer other =
        WidgetServer.builder()
            .tls(TlsConfig.fromPemFiles(named.certFile(), named.keyFile(), null))
            .build();
    try (JdkHttpBinding served =
        other.serve(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0))) {
      // 127.0.0.2: an address the certificate does not name (it names 127.0.0.1 besides its host)
      URI byAddress = URI.create("https://127.0.0.2:" + served.port());
      try (Client byName =
              Client.builder(
                      HttpTransport.builder(byAddress)
                          .sslContext(trusting(named))
                          .tlsServerName("kubernetes.internal")
                          .bearerToken(WidgetServer.ADMIN_TOKEN)
                          .build())
                  .scheme(WidgetServer.SCHEME)
                  .rateLimiter(RateLimiter.unlimited())
                  .build();
          Client byIp =
              Client.builder(
                      HttpTransport.builder(byAddress)
                          // a context of its own: a shared one would resume the first's session
                          .sslContext(trusting(named))
                          .bearerToken(WidgetServer.ADMIN_TOKEN)
                          .build())
                  .scheme(WidgetServer.SCHEME)
                  .rateLimiter(RateLimiter.unlimited())
                  .build()) {
        assertEquals(
            0,
            byName
                .resources(Widget.class)
                .inNamespace("ns")
                .list(new ListOptions())
                .items()
                .size());
        dev.machinery.client.TransportException refused =
            assertThrows(
                dev.machinery.client.TransportException.class,
                () -> byIp.discovery().serverGroups());
        assertTrue(
            refused.getCause() instanceof javax.net.ssl.SSLHandshakeException,
            String.valueOf(refused.getCause()));
      }
    } finally {
      other.close();
    }
  }

  @Test
  void aTlsServerNameNeedsAnAddressInTheUri() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> HttpTransport.builder(URI.create("https://example.dev:6443")).tlsServerName("x"));
    assertTrue(refused.getMessage().startsWith("tlsServerName: the server"), refused.getMessage());
  }

  @Test
  void impersonationActsAsAnotherUser() throws Exception {
    try (Client asNobody =
        Client.builder(
                HttpTransport.builder(uri)
                    .sslContext(trustingTheServer())
                    .bearerToken(WidgetServer.ADMIN_TOKEN)
                    .impersonate(
                        new Impersonation(
                            "nobody", "", List.of("system:authenticated"), java.util.Map.of()))
                    .userAgent("client-test/1.0")
                    .build())
            .scheme(WidgetServer.SCHEME)
            .restMapper(client.restMapper())
            .rateLimiter(RateLimiter.unlimited())
            .build()) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> asNobody.resources(Widget.class).inNamespace("ns").list(new ListOptions()));
      assertTrue(ApiErrors.isForbidden(refused), refused.getMessage());
      assertTrue(refused.getMessage().contains("User \"nobody\""), refused.getMessage());
    }
  }
}
