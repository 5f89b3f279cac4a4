package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.SignatureException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;

class CertificateBuilderTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final KeyPair CA_KEYS = KeyAlgorithm.ECDSA_P256.generate(RANDOM);
  private static final KeyPair KEYS = KeyAlgorithm.RSA_2048.generate(RANDOM);

  @Test
  void aClientCertificateCarriesOrganizationsThenTheCommonName() throws Exception {
    X509Certificate ca =
        CertificateBuilder.forKey(CA_KEYS.getPublic(), RANDOM)
            .commonName("client-ca")
            .ca(true)
            .keyUsage(KeyUsage.KEY_CERT_SIGN)
            .selfSign(CA_KEYS.getPrivate());
    X509Certificate jane =
        CertificateBuilder.forKey(KEYS.getPublic(), RANDOM)
            .organization("dev")
            .organization("ops")
            .commonName("jane")
            .serial(BigInteger.valueOf(42))
            .keyUsage(KeyUsage.DIGITAL_SIGNATURE, KeyUsage.KEY_ENCIPHERMENT)
            .clientAuth()
            .signWith(ca, CA_KEYS.getPrivate());
    // X500Principal prints the RDNs last first.
    assertEquals("CN=jane,O=ops,O=dev", jane.getSubjectX500Principal().getName());
    assertEquals(new X500Principal("CN=client-ca"), jane.getIssuerX500Principal());
    assertEquals(BigInteger.valueOf(42), jane.getSerialNumber());
    assertEquals(List.of("1.3.6.1.5.5.7.3.2"), jane.getExtendedKeyUsage());
    assertEquals(null, jane.getSubjectAlternativeNames());
    assertEquals("SHA256withECDSA", jane.getSigAlgName());
    jane.verify(CA_KEYS.getPublic());
    assertThrows(SignatureException.class, () -> jane.verify(caKeysOfAnother()));
    // The CN is the last RDN, a UTF8String, as Go writes it.
    assertArrayEquals(
        Der.sequence(Der.oid("2.5.4.3"), Der.utf8String("jane")), lastRdnAttribute(jane));
  }

  private static java.security.PublicKey caKeysOfAnother() {
    return KeyAlgorithm.ECDSA_P256.generate(RANDOM).getPublic();
  }

  /** The one attribute of the subject's last RDN, as encoded. */
  private static byte[] lastRdnAttribute(X509Certificate certificate) {
    Der.Reader rdns =
        new Der.Reader(certificate.getSubjectX500Principal().getEncoded()).next().children();
    Der.Element last = null;
    while (rdns.hasNext()) {
      last = rdns.next(Der.SET, "an RDN");
    }
    return last.children().next(Der.SEQUENCE, "an attribute").encoded();
  }

  @Test
  void validityAfter2049IsGeneralizedTimeAndReadsBack() {
    Instant notBefore = Instant.parse("2049-06-01T12:00:00.750Z");
    Instant notAfter = Instant.parse("2051-06-01T12:00:00Z");
    X509Certificate certificate =
        CertificateBuilder.forKey(KEYS.getPublic(), RANDOM)
            .commonName("long")
            .validity(notBefore, notAfter)
            .selfSign(KEYS.getPrivate());
    assertEquals(Date.from(Instant.parse("2049-06-01T12:00:00Z")), certificate.getNotBefore());
    assertEquals(Date.from(notAfter), certificate.getNotAfter());
    assertEquals("SHA256withRSA", certificate.getSigAlgName());
    assertEquals(Set.of("2.5.29.19"), certificate.getCriticalExtensionOIDs());
  }

  @Test
  void refusesProgrammingMistakes() {
    CertificateBuilder builder = CertificateBuilder.forKey(KEYS.getPublic(), RANDOM);
    assertEquals(
        "a serial number is positive and at most 20 bytes, got 0",
        assertThrows(IllegalArgumentException.class, () -> builder.serial(BigInteger.ZERO))
            .getMessage());
    assertEquals(
        "a serial number is positive and at most 20 bytes, got " + BigInteger.TWO.pow(160),
        assertThrows(IllegalArgumentException.class, () -> builder.serial(BigInteger.TWO.pow(160)))
            .getMessage());
    assertEquals(
        "notAfter 2020-01-01T00:00:00Z is before notBefore 2021-01-01T00:00:00Z",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    builder.validity(
                        Instant.parse("2021-01-01T00:00:00Z"),
                        Instant.parse("2020-01-01T00:00:00Z")))
            .getMessage());
  }

  @Test
  void aCertificateWithoutSubjectNamesItsHostsInACriticalExtension() throws Exception {
    assertEquals(
        "a self-signed certificate needs a subject: set a common name or an organization",
        assertThrows(
                IllegalStateException.class,
                () ->
                    CertificateBuilder.forKey(KEYS.getPublic(), RANDOM).selfSign(KEYS.getPrivate()))
            .getMessage());
    X509Certificate ca =
        CertificateBuilder.forKey(CA_KEYS.getPublic(), RANDOM)
            .commonName("ca")
            .ca(true)
            .selfSign(CA_KEYS.getPrivate());
    X509Certificate anonymous =
        CertificateBuilder.forKey(KEYS.getPublic(), RANDOM)
            .dnsName("api.example.test")
            .signWith(ca, CA_KEYS.getPrivate());
    assertEquals("", anonymous.getSubjectX500Principal().getName());
    assertEquals(Set.of("2.5.29.17", "2.5.29.19"), anonymous.getCriticalExtensionOIDs());
  }

  @Test
  void randomSerialsArePositiveAndDiffer() {
    BigInteger first =
        CertificateBuilder.forKey(KEYS.getPublic(), RANDOM)
            .commonName("serial")
            .selfSign(KEYS.getPrivate())
            .getSerialNumber();
    BigInteger second =
        CertificateBuilder.forKey(KEYS.getPublic(), RANDOM)
            .commonName("serial")
            .selfSign(KEYS.getPrivate())
            .getSerialNumber();
    assertEquals(1, first.signum());
    assertEquals(1, second.signum());
    assertEquals(false, first.equals(second));
  }
}
