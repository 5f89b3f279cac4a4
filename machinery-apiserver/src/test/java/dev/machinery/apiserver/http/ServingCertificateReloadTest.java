package dev.machinery.apiserver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A serving certificate read with {@link TlsConfig#fromPemFilesReloading} is read again when its
 * files change, as kube-apiserver reloads {@code --tls-cert-file}: a new connection gets the new
 * certificate; files that cannot be read, or a key that does not fit, leave the last good pair.
 */
class ServingCertificateReloadTest {
  @TempDir Path dir;

  private static SelfSignedCertificates.CertKey pair(KeyAlgorithm algorithm) {
    return SelfSignedCertificates.generate("127.0.0.1", List.of(), List.of(), algorithm);
  }

  private void write(String chain, String key, int second) throws IOException {
    Files.writeString(dir.resolve("tls.crt"), chain, StandardCharsets.US_ASCII);
    Files.writeString(dir.resolve("tls.key"), key, StandardCharsets.US_ASCII);
    // Distinct modification times even on file systems with coarse clocks.
    FileTime time = FileTime.from(Instant.parse("2030-01-01T00:00:00Z").plusSeconds(second));
    Files.setLastModifiedTime(dir.resolve("tls.crt"), time);
    Files.setLastModifiedTime(dir.resolve("tls.key"), time);
  }

  /** The certificate a new connection is served, trusting every CA given. */
  private static X509Certificate served(int port, List<SelfSignedCertificates.CertKey> trusted)
      throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    for (int i = 0; i < trusted.size(); i++) {
      trust.setCertificateEntry("ca-" + i, trusted.get(i).caCertificate());
    }
    TrustManagerFactory managers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    managers.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, managers.getTrustManagers(), null);
    try (SSLSocket socket =
        (SSLSocket)
            context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(30_000);
      socket.startHandshake();
      return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }
  }

  @Test
  void aNewConnectionGetsTheCertificateWrittenSinceAndBadFilesKeepTheLastGoodOne()
      throws Exception {
    SelfSignedCertificates.CertKey first = pair(KeyAlgorithm.ECDSA_P256);
    SelfSignedCertificates.CertKey second = pair(KeyAlgorithm.RSA_2048);
    SelfSignedCertificates.CertKey third = pair(KeyAlgorithm.ECDSA_P256);
    List<SelfSignedCertificates.CertKey> all = List.of(first, second, third);
    write(first.certificateChainPem(), first.privateKeyPem(), 1);
    TlsConfig tls =
        TlsConfig.fromPemFilesReloading(
            dir.resolve("tls.crt"), dir.resolve("tls.key"), null, Duration.ZERO);
    try (JdkHttpBinding binding =
        JdkHttpBinding.start(
            request -> ApiResponse.of(200, "text/plain", new byte[0]),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            4,
            null,
            tls)) {
      assertEquals(first.certificate(), served(binding.port(), all));

      write(second.certificateChainPem(), second.privateKeyPem(), 2);
      assertEquals(second.certificate(), served(binding.port(), all), "reloaded");

      write("-----BEGIN CERTIFICATE-----\nnot base64\n", third.privateKeyPem(), 3);
      assertEquals(second.certificate(), served(binding.port(), all), "a broken file is not used");

      write(third.certificateChainPem(), first.privateKeyPem(), 4);
      assertEquals(
          second.certificate(), served(binding.port(), all), "a key that does not fit is not used");

      write(third.certificateChainPem(), third.privateKeyPem(), 5);
      assertEquals(third.certificate(), served(binding.port(), all), "good files again");
    }
  }

  @Test
  void aKeyThatDoesNotFitItsCertificateIsRefusedAtStart() throws Exception {
    SelfSignedCertificates.CertKey first = pair(KeyAlgorithm.ECDSA_P256);
    SelfSignedCertificates.CertKey second = pair(KeyAlgorithm.ECDSA_P256);
    write(first.certificateChainPem(), second.privateKeyPem(), 1);
    IOException refused =
        assertThrows(
            IOException.class,
            () ->
                TlsConfig.fromPemFilesReloading(
                    dir.resolve("tls.crt"), dir.resolve("tls.key"), null, Duration.ZERO));
    assertTrue(
        refused.getMessage().contains("private key does not match public key"),
        refused.getMessage());
  }

  @Test
  void filesAreLookedAtNoMoreOftenThanAsked() throws Exception {
    SelfSignedCertificates.CertKey first = pair(KeyAlgorithm.ECDSA_P256);
    SelfSignedCertificates.CertKey second = pair(KeyAlgorithm.ECDSA_P256);
    write(first.certificateChainPem(), first.privateKeyPem(), 1);
    TlsConfig tls =
        TlsConfig.fromPemFilesReloading(
            dir.resolve("tls.crt"), dir.resolve("tls.key"), null, Duration.ofDays(1));
    try (JdkHttpBinding binding =
        JdkHttpBinding.start(
            request -> ApiResponse.of(200, "text/plain", new byte[0]),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            4,
            null,
            tls)) {
      write(second.certificateChainPem(), second.privateKeyPem(), 2);
      assertEquals(
          first.certificate(),
          served(binding.port(), List.of(first, second)),
          "not looked at again within a day");
    }
  }

  @Test
  void aNegativeIntervalIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new TlsConfig.ServingFiles(
                    dir.resolve("tls.crt"), dir.resolve("tls.key"), Duration.ofSeconds(-1)));
    assertEquals("checkEvery must not be negative, got PT-1S", e.getMessage());
  }
}
