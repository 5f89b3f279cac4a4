package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/** A webhook's CA bundle as a TLS context, and bundles that hold no certificate refused. */
class CaBundlesTest {
  @Test
  void aBundleOfCertificatesIsTrusted() {
    SelfSignedCertificates.CertKey pair =
        SelfSignedCertificates.generate("localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    SSLContext context =
        CaBundles.trusting(
            Pem.encode("CERTIFICATE", encoded(pair)).getBytes(StandardCharsets.US_ASCII));
    assertNotNull(context.getSocketFactory());
  }

  @Test
  void bytesWithoutACertificateAreRefusedInKubeApiserversWords() {
    for (String bundle : List.of("", "not a certificate", "-----BEGIN CERTIFICATE-----\n!!\n")) {
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () -> CaBundles.trusting(bundle.getBytes(StandardCharsets.US_ASCII)),
              bundle);
      assertEquals(
          "unable to load root certificates: unable to parse bytes as PEM block",
          refused.getMessage(),
          bundle);
    }
  }

  private static byte[] encoded(SelfSignedCertificates.CertKey pair) {
    try {
      return pair.caCertificate().getEncoded();
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new AssertionError(e);
    }
  }
}
