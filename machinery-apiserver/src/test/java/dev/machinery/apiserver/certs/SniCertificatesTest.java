package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Certificates chosen by the server name a client asks for, as kube-apiserver's {@code
 * --tls-sni-cert-key} chooses them, proved by real handshakes through the binding.
 */
class SniCertificatesTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final KeyPair CA_KEYS = KeyAlgorithm.ECDSA_P256.generate(RANDOM);
  private static final X509Certificate CA =
      CertificateBuilder.forKey(CA_KEYS.getPublic(), RANDOM)
          .commonName("sni-ca")
          .ca(true)
          .keyUsage(KeyUsage.KEY_CERT_SIGN)
          .selfSign(CA_KEYS.getPrivate());

  /** A certificate signed by the CA, and its key. */
  private static TlsConfig.SniCertificate certificate(
      String commonName, KeyAlgorithm algorithm, List<String> dnsNames, List<String> given) {
    KeyPair keys = algorithm.generate(RANDOM);
    CertificateBuilder builder =
        CertificateBuilder.forKey(keys.getPublic(), RANDOM)
            .commonName(commonName)
            .keyUsage(KeyUsage.DIGITAL_SIGNATURE)
            .serverAuth();
    dnsNames.forEach(builder::dnsName);
    builder.ipAddress(SelfSignedCertificates.parseIpAddress("127.0.0.1"));
    return new TlsConfig.SniCertificate(
        List.of(builder.signWith(CA, CA_KEYS.getPrivate())), keys.getPrivate(), given);
  }

  @Test
  void theServerNameChoosesTheCertificateAsKubeApiserverDoes() throws Exception {
    TlsConfig.SniCertificate serving =
        certificate("serving", KeyAlgorithm.ECDSA_P256, List.of("localhost"), List.of());
    // Its own names: the CN and the DNS names (once each); an RSA key beside the others' EC keys.
    TlsConfig.SniCertificate own =
        certificate(
            "own.example.test",
            KeyAlgorithm.RSA_2048,
            List.of("own.example.test", "*.wild.example.test", "shared.example.test"),
            List.of());
    // Names given with it, which win over another's own names, and over its own.
    TlsConfig.SniCertificate given =
        certificate(
            "given",
            KeyAlgorithm.ECDSA_P256,
            List.of("shared.example.test", "given.example.test", "exact.wild.example.test"),
            List.of("Shared.Example.Test", "exact.wild.example.test"));
    // Later than "own", which has the same own name.
    TlsConfig.SniCertificate later =
        certificate("own.example.test", KeyAlgorithm.ECDSA_P256, List.of(), List.of());
    TlsConfig tls =
        new TlsConfig(serving.certificateChain(), serving.privateKey(), List.of())
            .withSniCertificates(List.of(own, given, later));
    assertEquals(
        List.of("own.example.test", "*.wild.example.test", "shared.example.test"),
        own.serverNames());
    assertEquals(List.of("shared.example.test", "exact.wild.example.test"), given.serverNames());
    try (JdkHttpBinding binding = TlsProbe.serve(tls)) {
      int port = binding.port();
      assertEquals("CN=own.example.test", subject(port, "own.example.test"));
      assertEquals(
          "RSA", TlsProbe.served(port, CA, "own.example.test").getPublicKey().getAlgorithm());
      assertEquals("CN=own.example.test", subject(port, "any.wild.example.test"));
      assertEquals("CN=given", subject(port, "exact.wild.example.test"));
      assertEquals("CN=given", subject(port, "shared.example.test"));
      // A name of the certificate, but not one given with it: the serving certificate.
      assertEquals("CN=serving", subject(port, "localhost"));
      // No server name (an IP address is not sent as one): the serving certificate.
      assertEquals("CN=serving", subject(port, "127.0.0.1"));
      assertEquals("ok", TlsProbe.get(port, CA, "any.wild.example.test", "TLSv1.2"));
      assertEquals("ok", TlsProbe.get(port, CA, "shared.example.test", "TLSv1.2"));
    }
  }

  private static String subject(int port, String hostName) throws Exception {
    return TlsProbe.served(port, CA, hostName).getSubjectX500Principal().getName();
  }
}
