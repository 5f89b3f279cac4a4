package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PKCS#10 requests read as Go's {@code certificates.ParseCSR} and {@code CheckSignature} read them:
 * RSA, ECDSA and Ed25519 signatures verified with the request's own key, a forged signature refused
 * with Go's message for the key's algorithm, the subject's organizations in order and its common
 * name, a PEM block of another type and DER that is not a request refused.
 */
class CertificateRequestTest {
  private static CertificateRequest parse(String pem) throws Exception {
    return CertificateRequest.parse(pem.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void everyKeyAlgorithmVerifies() throws Exception {
    for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
      CertificateRequest request =
          parse(TestCsrs.pem(TestCsrs.der(algorithm, "jane", false, "dev", "ops")));
      request.checkSignature();
      assertEquals(List.of("dev", "ops"), request.organizations(), algorithm);
      assertEquals("jane", request.commonName(), algorithm);
    }
  }

  @Test
  void aForgedSignatureIsRefusedInGosWords() throws Exception {
    for (List<String> c :
        List.of(
            List.of("RSA", "crypto/rsa: verification error"),
            List.of("EC", "x509: ECDSA verification failure"),
            List.of("Ed25519", "x509: Ed25519 verification failure"))) {
      CertificateRequest request = parse(TestCsrs.pem(TestCsrs.der(c.get(0), "jane", true)));
      CertificateRequest.InvalidRequestException refused =
          assertThrows(CertificateRequest.InvalidRequestException.class, request::checkSignature);
      assertEquals(c.get(1), refused.getMessage());
    }
  }

  @Test
  void onlyACertificateRequestBlockIsRead() {
    String certificate =
        TestCsrs.pem(TestCsrs.der("jane", false)).replace("CERTIFICATE REQUEST", "CERTIFICATE");
    for (String pem : List.of("", "this is not a CSR", certificate)) {
      assertEquals(
          "PEM block type must be CERTIFICATE REQUEST",
          assertThrows(CertificateRequest.InvalidRequestException.class, () -> parse(pem))
              .getMessage(),
          pem);
    }
  }

  @Test
  void derThatIsNotARequestIsMalformed() {
    byte[] der = TestCsrs.der("jane", false);
    for (byte[] broken :
        List.of(
            Arrays.copyOf(der, der.length - 10),
            new byte[] {0x30, 0x03, 0x02, 0x01, 0x00},
            new byte[] {0x04, 0x00})) {
      assertEquals(
          "x509: malformed certificate request",
          assertThrows(
                  CertificateRequest.InvalidRequestException.class,
                  () -> parse(TestCsrs.pem(broken)))
              .getMessage());
    }
  }
}
