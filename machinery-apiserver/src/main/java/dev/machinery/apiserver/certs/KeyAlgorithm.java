package dev.machinery.apiserver.certs;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.interfaces.ECKey;
import java.security.spec.ECGenParameterSpec;

/** The kinds of key the generated certificates have, and how each signs. */
public enum KeyAlgorithm {
  /** ECDSA on P-256 (secp256r1), signing with SHA-256: small and fast; the default here. */
  ECDSA_P256,
  /** RSA of 2,048 bits, signing SHA256withRSA: what kube-apiserver generates. */
  RSA_2048;

  /**
   * Generates a key pair of this kind.
   *
   * @param random the randomness
   * @return the pair
   */
  public KeyPair generate(SecureRandom random) {
    try {
      if (this == ECDSA_P256) {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), random);
        return generator.generateKeyPair();
      }
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048, random);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot generate a " + this + " key", e);
    }
  }

  /**
   * The JCA signature algorithm and its X.509 AlgorithmIdentifier for a signing key: SHA-256 with
   * ECDSA or RSA.
   */
  record Signing(String jcaName, byte[] algorithmIdentifier) {}

  static Signing signingWith(PrivateKey key) {
    if (key instanceof ECKey || key.getAlgorithm().equals("EC")) {
      // ecdsa-with-SHA256 (RFC 5758): the parameters are absent.
      return new Signing("SHA256withECDSA", Der.sequence(Der.oid("1.2.840.10045.4.3.2")));
    }
    if (key.getAlgorithm().equals("RSA")) {
      // sha256WithRSAEncryption (RFC 4055): the parameters are NULL.
      return new Signing(
          "SHA256withRSA", Der.sequence(Der.oid("1.2.840.113549.1.1.11"), Der.nul()));
    }
    throw new IllegalArgumentException(
        "a signing key is RSA or EC, got \"" + key.getAlgorithm() + "\"");
  }
}
