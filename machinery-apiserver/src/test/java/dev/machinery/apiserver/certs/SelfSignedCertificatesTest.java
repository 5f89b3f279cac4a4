package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.Certificates;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SelfSignedCertificatesTest {
  @TempDir Path dir;

  private static final Instant NOW = Instant.parse("2026-11-26T00:30:00Z");

  private static SelfSignedCertificates.CertKey make(KeyAlgorithm algorithm) throws Exception {
    return SelfSignedCertificates.generate(
        "10.0.0.1",
        List.of(InetAddress.getByName("192.168.7.8"), InetAddress.getByName("fd00::1")),
        List.of("kubernetes.default.svc", "api.example.test"),
        algorithm,
        NOW,
        new SecureRandom());
  }

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void namesAndValidityAreKubeApiserversAndTheCaSignsTheServingCertificate(KeyAlgorithm algorithm)
      throws Exception {
    SelfSignedCertificates.CertKey made = make(algorithm);
    X509Certificate ca = made.caCertificate();
    X509Certificate serving = made.certificate();
    long unix = NOW.getEpochSecond();
    assertEquals("CN=10.0.0.1-ca@" + unix, ca.getSubjectX500Principal().getName());
    assertEquals(ca.getSubjectX500Principal(), ca.getIssuerX500Principal());
    assertEquals("CN=10.0.0.1@" + unix, serving.getSubjectX500Principal().getName());
    assertEquals(ca.getSubjectX500Principal(), serving.getIssuerX500Principal());
    assertEquals(Date.from(NOW.minus(Duration.ofHours(1))), serving.getNotBefore());
    assertEquals(
        Date.from(NOW.minus(Duration.ofHours(1)).plus(Duration.ofDays(365))),
        serving.getNotAfter());
    assertEquals(3, serving.getVersion());
    assertEquals(Integer.MAX_VALUE, ca.getBasicConstraints());
    assertEquals(-1, serving.getBasicConstraints());
    assertEquals(List.of("1.3.6.1.5.5.7.3.1"), serving.getExtendedKeyUsage());
    boolean rsa = algorithm == KeyAlgorithm.RSA_2048;
    assertArrayEquals(
        new boolean[] {true, false, rsa, false, false, true, false, false, false},
        java.util.Arrays.copyOf(ca.getKeyUsage(), 9));
    assertArrayEquals(
        new boolean[] {true, false, rsa, false, false, false, false, false, false},
        java.util.Arrays.copyOf(serving.getKeyUsage(), 9));
    assertEquals(Set.of("2.5.29.15", "2.5.29.19"), serving.getCriticalExtensionOIDs());
    assertEquals(Set.of("2.5.29.15", "2.5.29.19"), ca.getCriticalExtensionOIDs());
    assertEquals(
        List.of(
            List.of(2, "localhost"),
            List.of(2, "kubernetes.default.svc"),
            List.of(2, "api.example.test"),
            List.of(7, "10.0.0.1"),
            List.of(7, "127.0.0.1"),
            List.of(7, "192.168.7.8"),
            List.of(7, "fd00:0:0:0:0:0:0:1")),
        serving.getSubjectAlternativeNames().stream().map(List::copyOf).toList());
    assertEquals(rsa ? "SHA256withRSA" : "SHA256withECDSA", serving.getSigAlgName());
    serving.verify(ca.getPublicKey());
    ca.verify(ca.getPublicKey());
    // subjectKeyIdentifier of the CA is the serving certificate's authorityKeyIdentifier.
    byte[] caKeyId = CertificateBuilder.keyIdentifier(ca.getPublicKey());
    assertArrayEquals(Der.octetString(caKeyId), unwrap(ca.getExtensionValue("2.5.29.14")));
    assertArrayEquals(
        Der.sequence(Der.element(0x80, caKeyId)), unwrap(serving.getExtensionValue("2.5.29.35")));
    assertNotEquals(ca.getSerialNumber(), serving.getSerialNumber());
    assertTrue(serving.getSerialNumber().signum() > 0);
  }

  private static byte[] unwrap(byte[] extensionValue) {
    return new Der.Reader(extensionValue).next(Der.OCTET_STRING, "extension").contents();
  }

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void thePkixValidatorAcceptsTheChainUnderTheCa(KeyAlgorithm algorithm) throws Exception {
    SelfSignedCertificates.CertKey made = make(algorithm);
    PKIXParameters parameters =
        new PKIXParameters(Set.of(new TrustAnchor(made.caCertificate(), null)));
    parameters.setRevocationEnabled(false);
    parameters.setDate(Date.from(NOW));
    CertPathValidator.getInstance("PKIX")
        .validate(
            CertificateFactory.getInstance("X.509").generateCertPath(List.of(made.certificate())),
            parameters);
  }

  @ParameterizedTest
  @EnumSource(KeyAlgorithm.class)
  void aTlsClientTrustingTheCaConnectsByEveryNameAndNoOther(KeyAlgorithm algorithm)
      throws Exception {
    SelfSignedCertificates.CertKey made =
        SelfSignedCertificates.generate(
            "10.0.0.1", List.of(), List.of("api.example.test"), algorithm);
    try (JdkHttpBinding binding = TlsProbe.serve(TlsProbe.config(made))) {
      X509Certificate ca = made.caCertificate();
      for (String name : List.of("localhost", "127.0.0.1", "api.example.test", "10.0.0.1")) {
        assertEquals("ok", TlsProbe.get(binding.port(), ca, name, "TLSv1.3"), name);
      }
      assertEquals("ok", TlsProbe.get(binding.port(), ca, "localhost", "TLSv1.2"));
      SSLHandshakeException wrongName =
          assertThrows(
              SSLHandshakeException.class,
              () -> TlsProbe.get(binding.port(), ca, "other.example.test", "TLSv1.3"));
      assertTrue(
          wrongName.getMessage().contains("No subject alternative DNS name matching"),
          wrongName.getMessage());
      X509Certificate stranger =
          SelfSignedCertificates.generate("stranger", List.of(), List.of(), algorithm)
              .caCertificate();
      SSLHandshakeException untrusted =
          assertThrows(
              SSLHandshakeException.class,
              () -> TlsProbe.get(binding.port(), stranger, "localhost", "TLSv1.3"));
      assertTrue(
          untrusted.getMessage().contains("unable to find valid certification path"),
          untrusted.getMessage());
    }
  }

  @Test
  void openSslVerifiesTheChainTheHostNameAndTheIpAddress() throws Exception {
    Certificates.require(
        "SelfSignedCertificatesTest.openSslVerifiesTheChainTheHostNameAndTheIpAddress");
    for (KeyAlgorithm algorithm : KeyAlgorithm.values()) {
      SelfSignedCertificates.CertDirectory files =
          SelfSignedCertificates.ensure(
              dir.resolve(algorithm.name()),
              "127.0.0.1",
              List.of(),
              List.of("api.example.test"),
              algorithm);
      Path leaf = files.certFile().resolveSibling("leaf.crt");
      Files.writeString(
          leaf, Pem.encode("CERTIFICATE", files.certKey().certificate().getEncoded()));
      Certificates openssl = new Certificates(files.certFile().getParent());
      openssl.openssl(
          "verify",
          "-x509_strict",
          "-purpose",
          "sslserver",
          "-CAfile",
          "apiserver-ca.crt",
          "-verify_hostname",
          "api.example.test",
          "leaf.crt");
      openssl.openssl(
          "verify",
          "-x509_strict",
          "-CAfile",
          "apiserver-ca.crt",
          "-verify_ip",
          "127.0.0.1",
          "leaf.crt");
      openssl.openssl("pkey", "-in", "apiserver.key", "-noout");
      IllegalStateException wrongName =
          assertThrows(
              IllegalStateException.class,
              () ->
                  openssl.openssl(
                      "verify",
                      "-CAfile",
                      "apiserver-ca.crt",
                      "-verify_hostname",
                      "other.example.test",
                      "leaf.crt"));
      assertTrue(wrongName.getMessage().contains("hostname mismatch"), wrongName.getMessage());
    }
  }

  @Test
  void ensureWritesKubeApiserversFilesAndReusesThemOnRestart() throws Exception {
    Path certDir = dir.resolve("certs");
    SelfSignedCertificates.CertDirectory first =
        SelfSignedCertificates.ensure(
            certDir, "localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    assertTrue(first.generated());
    assertEquals(certDir.resolve("apiserver.crt"), first.certFile());
    assertEquals(certDir.resolve("apiserver.key"), first.keyFile());
    assertEquals(certDir.resolve("apiserver-ca.crt"), first.caFile());
    assertEquals(
        List.of(first.certKey().certificate(), first.certKey().caCertificate()),
        TlsConfig.readCertificates(first.certFile()));
    assertEquals(
        List.of(first.certKey().caCertificate()), TlsConfig.readCertificates(first.caFile()));
    assertEquals(first.certKey().privateKey(), TlsConfig.readPrivateKey(first.keyFile()));
    if (first.keyFile().getFileSystem().supportedFileAttributeViews().contains("posix")) {
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(first.keyFile())));
    }

    SelfSignedCertificates.CertDirectory second =
        SelfSignedCertificates.ensure(
            certDir, "localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    assertFalse(second.generated());
    assertEquals(first.certKey(), second.certKey());

    // A pair found without the CA file gets it back from the chain.
    Files.delete(first.caFile());
    SelfSignedCertificates.CertDirectory third =
        SelfSignedCertificates.ensure(
            certDir, "localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    assertFalse(third.generated());
    assertEquals(
        List.of(first.certKey().caCertificate()), TlsConfig.readCertificates(first.caFile()));
  }

  @Test
  void ensureRegeneratesAnExpiredPair() throws Exception {
    SelfSignedCertificates.CertKey old =
        SelfSignedCertificates.generate(
            "localhost",
            List.of(),
            List.of(),
            KeyAlgorithm.ECDSA_P256,
            Instant.now().minus(Duration.ofDays(400)),
            new SecureRandom());
    Files.writeString(dir.resolve("apiserver.crt"), old.certificateChainPem());
    Files.writeString(dir.resolve("apiserver.key"), old.privateKeyPem());
    SelfSignedCertificates.CertDirectory files =
        SelfSignedCertificates.ensure(
            dir, "localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    assertTrue(files.generated());
    files.certKey().certificate().checkValidity();
    assertEquals(
        files.certKey().certificate(), TlsConfig.readCertificates(files.certFile()).get(0));
  }

  @Test
  void ensureRefusesHalfAPairAPairThatDoesNotMatchAndGarbage() throws Exception {
    Files.writeString(dir.resolve("apiserver.crt"), make(KeyAlgorithm.ECDSA_P256).caPem());
    IOException half =
        assertThrows(
            IOException.class,
            () ->
                SelfSignedCertificates.ensure(
                    dir, "localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256));
    assertEquals(
        dir.resolve("apiserver.crt")
            + " exists but "
            + dir.resolve("apiserver.key")
            + " does not: remove it, or give both",
        half.getMessage());

    Files.writeString(dir.resolve("apiserver.key"), make(KeyAlgorithm.ECDSA_P256).privateKeyPem());
    IOException mismatch =
        assertThrows(
            IOException.class,
            () ->
                SelfSignedCertificates.ensure(
                    dir, "localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256));
    assertEquals(
        dir.resolve("apiserver.key")
            + " is not the key of the certificate in "
            + dir.resolve("apiserver.crt"),
        mismatch.getMessage());

    Files.writeString(dir.resolve("apiserver.key"), "not a key", StandardCharsets.US_ASCII);
    IOException garbage =
        assertThrows(
            IOException.class,
            () ->
                SelfSignedCertificates.ensure(
                    dir, "localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256));
    assertTrue(
        garbage
            .getMessage()
            .endsWith(
                "no private key: expected a PEM block PRIVATE KEY,"
                    + " RSA PRIVATE KEY or EC PRIVATE KEY"),
        garbage.getMessage());
  }

  @Test
  void refusesHostileNamesWithTypedErrors() {
    record Case(String host, List<String> dns, String subject, String value, String message) {}
    List<Case> cases =
        List.of(
            new Case(
                "bad host!",
                List.of(),
                "host",
                "bad host!",
                "not an IP address or DNS name for a certificate: \"bad host!\" (the label \"bad"
                    + " host!\" is not 1 to 63 letters, digits and inner hyphens)"),
            new Case(
                "localhost",
                List.of("evil\nname"),
                "alternate DNS name",
                "evil\nname",
                "not a DNS name for a certificate: \"evil\\u000aname\" (the label"
                    + " \"evil\\u000aname\" is not 1 to 63 letters, digits and inner hyphens)"),
            new Case(
                "localhost",
                List.of("a..b"),
                "alternate DNS name",
                "a..b",
                "not a DNS name for a certificate: \"a..b\" (it has an empty label)"),
            new Case(
                "localhost",
                List.of(""),
                "alternate DNS name",
                "",
                "not a DNS name for a certificate: \"\" (it is empty)"),
            new Case(
                "localhost",
                List.of("x".repeat(64) + ".test"),
                "alternate DNS name",
                "x".repeat(64) + ".test",
                "not a DNS name for a certificate: \""
                    + "x".repeat(64)
                    + ".test\" (the label \""
                    + "x".repeat(64)
                    + "\" is not 1 to 63 letters, digits and inner hyphens)"),
            new Case(
                "localhost",
                List.of("a.".repeat(127) + "bb"),
                "alternate DNS name",
                "a.".repeat(127) + "bb",
                "not a DNS name for a certificate: \""
                    + "a.".repeat(127)
                    + "bb\" (it is longer than 253 characters)"),
            new Case(
                "localhost",
                List.of("b\u00fccher.test"),
                "alternate DNS name",
                "b\u00fccher.test",
                "not a DNS name for a certificate: \"b\\u00fccher.test\" (the label"
                    + " \"b\\u00fccher\" is not 1 to 63 letters, digits and inner hyphens)"),
            new Case(
                "localhost",
                List.of("-lead.test"),
                "alternate DNS name",
                "-lead.test",
                "not a DNS name for a certificate: \"-lead.test\" (the label \"-lead\" is not 1 to"
                    + " 63 letters, digits and inner hyphens)"),
            new Case(
                "999.1.1.1",
                List.of(),
                "alternate IP address",
                "999.1.1.1",
                "not an IP address: \"999.1.1.1\""),
            new Case(
                "fe80::1%eth0",
                List.of(),
                "host",
                "fe80::1%eth0",
                "not an IP address or DNS name for a certificate: \"fe80::1%eth0\" (the label"
                    + " \"fe80::1%eth0\" is not 1 to 63 letters, digits and inner hyphens)"));
    for (Case c : cases) {
      CertificateDataException e =
          assertThrows(
              CertificateDataException.class,
              () ->
                  SelfSignedCertificates.generate(
                      c.host(), List.of(), c.dns(), KeyAlgorithm.ECDSA_P256),
              c.toString());
      assertEquals(c.message(), e.getMessage(), c.toString());
      assertEquals(c.subject(), e.subject(), c.toString());
      assertEquals(c.value(), e.value(), c.toString());
    }
    assertEquals(
        "not an IP address: \"1.2.3\"",
        assertThrows(
                CertificateDataException.class,
                () -> SelfSignedCertificates.parseIpAddress("1.2.3"))
            .getMessage());
    assertEquals(
        "not an IP address: \"example.test\"",
        assertThrows(
                CertificateDataException.class,
                () -> SelfSignedCertificates.parseIpAddress("example.test"))
            .getMessage());
    assertEquals("0:0:0:0:0:0:0:1", SelfSignedCertificates.parseIpAddress("::1").getHostAddress());
    assertEquals("*.example.test", CertificateBuilder.checkDnsName("*.example.test"));
  }

  @Test
  void theKeyStoreTakesTheGeneratedKeyAndChain() throws Exception {
    SelfSignedCertificates.CertKey made = make(KeyAlgorithm.ECDSA_P256);
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(
        "k", made.privateKey(), new char[0], made.chain().toArray(X509Certificate[]::new));
    assertEquals(made.certificate(), store.getCertificate("k"));
  }
}
