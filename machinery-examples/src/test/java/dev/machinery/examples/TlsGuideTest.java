package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.unversioned.discovery.Enablement;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS section of docs/security.md: a server on a generated certificate, and a client. */
class TlsGuideTest {
  @TempDir Path certDir;

  @Test
  void aServerOnAGeneratedCertificateAnswersAClientThatTrustsItsCa() throws Exception {
    ApiServer.Builder builder =
        SampleServer.builder(
            Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100);
    // kube-apiserver's --cert-dir: generated the first time, reused while valid.
    SelfSignedCertificates.CertDirectory certs =
        SelfSignedCertificates.ensure(
            certDir, "127.0.0.1", List.of(), List.of("api.example.test"), KeyAlgorithm.ECDSA_P256);
    builder.tls(new TlsConfig(certs.certKey().chain(), certs.certKey().privateKey(), List.of()));
    // Clients trust certs.caFile(), apiserver-ca.crt: kubectl --certificate-authority FILE.
    try (JdkHttpBinding binding =
        builder.build().serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("ca", TlsConfig.readCertificates(certs.caFile()).get(0));
      TrustManagerFactory trusts =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trusts.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trusts.getTrustManagers(), null);
      HttpResponse<String> version =
          HttpClient.newBuilder()
              .sslContext(context)
              .build()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("https://127.0.0.1:" + binding.port() + "/version"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, version.statusCode());
      assertTrue(version.body().contains("gitVersion"), version.body());
    }
  }
}
