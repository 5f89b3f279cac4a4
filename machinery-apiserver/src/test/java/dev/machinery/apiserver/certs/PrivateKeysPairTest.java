package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import org.junit.jupiter.api.Test;

/** {@link PrivateKeys#isKeyOf}: the one check of a key against a certificate. */
class PrivateKeysPairTest {
  private static final SecureRandom RANDOM = new SecureRandom(new byte[] {7});

  private static KeyPair ec() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static KeyPair rsa() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    return generator.generateKeyPair();
  }

  private static X509Certificate certificate(KeyPair pair) {
    return CertificateBuilder.forKey(pair.getPublic(), RANDOM)
        .commonName("pair")
        .selfSign(pair.getPrivate());
  }

  @Test
  void theKeyOfACertificateIsItsKey() throws Exception {
    KeyPair ec = ec();
    KeyPair rsa = rsa();
    assertTrue(PrivateKeys.isKeyOf(ec.getPrivate(), certificate(ec)));
    assertTrue(PrivateKeys.isKeyOf(rsa.getPrivate(), certificate(rsa)));
  }

  @Test
  void anotherKeyOfTheSameOrAnotherAlgorithmIsNot() throws Exception {
    KeyPair ec = ec();
    KeyPair rsa = rsa();
    assertFalse(PrivateKeys.isKeyOf(ec().getPrivate(), certificate(ec)));
    assertFalse(PrivateKeys.isKeyOf(rsa().getPrivate(), certificate(rsa)));
    assertFalse(PrivateKeys.isKeyOf(rsa.getPrivate(), certificate(ec)));
  }
}
