package dev.machinery.apiserver.certs;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes private keys in PEM, in every unencrypted form kube-apiserver reads (Go's {@code
 * keyutil.ParsePrivateKeyPEM}): PKCS#8 ({@code PRIVATE KEY}, RSA or EC), PKCS#1 ({@code RSA PRIVATE
 * KEY}) and SEC1 ({@code EC PRIVATE KEY}, on P-256, P-384 or P-521, with or without an {@code EC
 * PARAMETERS} block). PKCS#1 and SEC1 keys are wrapped into PKCS#8 for the JDK. Stateless and
 * thread-safe.
 */
public final class PrivateKeys {
  private static final String RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
  private static final String EC_PUBLIC_KEY = "1.2.840.10045.2.1";
  private static final Map<String, String> CURVES =
      Map.of(
          "1.2.840.10045.3.1.7", "P-256",
          "1.3.132.0.34", "P-384",
          "1.3.132.0.35", "P-521");

  private PrivateKeys() {}

  /**
   * Reads the first private key of a PEM text; other blocks (certificates, {@code EC PARAMETERS})
   * are skipped or used as a SEC1 key's curve.
   *
   * @param pem the text
   * @return the key, RSA or EC
   * @throws CertificateDataException when there is no private key, it is encrypted, malformed, or
   *     on an unsupported curve
   */
  public static PrivateKey fromPem(String pem) {
    List<Pem.Block> blocks = Pem.decode(pem);
    byte[] curveParameters = null;
    for (Pem.Block block : blocks) {
      switch (block.type()) {
        case "EC PARAMETERS" -> curveParameters = block.der();
        case "ENCRYPTED PRIVATE KEY" -> throw encrypted(block.type());
        case "PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY" -> {
          if (block.headers().getOrDefault("Proc-Type", "").contains("ENCRYPTED")
              || block.headers().containsKey("DEK-Info")) {
            throw encrypted(block.type());
          }
          try {
            return switch (block.type()) {
              case "PRIVATE KEY" -> pkcs8(block.der());
              case "RSA PRIVATE KEY" -> pkcs8(wrapPkcs1(block.der()));
              default -> pkcs8(wrapSec1(block.der(), curveParameters));
            };
          } catch (IllegalArgumentException e) {
            throw new CertificateDataException(
                "private key",
                block.type(),
                "the PEM block \"" + block.type() + "\" is not a valid key: " + e.getMessage(),
                e);
          }
        }
        default -> {
          // Certificates and others: not a key.
        }
      }
    }
    throw new CertificateDataException(
        "private key",
        "",
        "no private key: expected a PEM block PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY");
  }

  /**
   * Writes a key as PKCS#8 PEM ({@code PRIVATE KEY}), which kube-apiserver, Go and OpenSSL read.
   *
   * @param key the key
   * @return the PEM text
   */
  public static String toPem(PrivateKey key) {
    return Pem.encode("PRIVATE KEY", key.getEncoded());
  }

  private static CertificateDataException encrypted(String type) {
    return new CertificateDataException(
        "private key",
        type,
        "the PEM block \""
            + type
            + "\" is an encrypted key, which kube-apiserver does not read either; decrypt it"
            + " with: openssl pkey -in KEY -out PLAIN.key");
  }

  private static PrivateKey pkcs8(byte[] der) {
    // The algorithm's OID says which key factory reads it.
    Der.Reader info = new Der.Reader(der).next(Der.SEQUENCE, "PrivateKeyInfo").children();
    info.next(Der.INTEGER, "PrivateKeyInfo version");
    Der.Reader algorithm = info.next(Der.SEQUENCE, "PrivateKeyInfo algorithm").children();
    String oid = Der.oidString(algorithm.next(Der.OID, "PrivateKeyInfo algorithm").contents());
    String name =
        switch (oid) {
          case RSA_ENCRYPTION -> "RSA";
          case EC_PUBLIC_KEY -> "EC";
          default ->
              throw new IllegalArgumentException(
                  "the key's algorithm " + oid + " is neither RSA nor EC");
        };
    try {
      return KeyFactory.getInstance(name).generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (InvalidKeySpecException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no " + name + " key factory", e);
    }
  }

  /** PrivateKeyInfo { 0, rsaEncryption NULL, OCTET STRING RSAPrivateKey } (RFC 5208, 8017). */
  static byte[] wrapPkcs1(byte[] rsaPrivateKey) {
    Der.Reader key = new Der.Reader(rsaPrivateKey).next(Der.SEQUENCE, "RSAPrivateKey").children();
    key.next(Der.INTEGER, "RSAPrivateKey version");
    key.next(Der.INTEGER, "RSAPrivateKey modulus");
    return Der.sequence(
        Der.integer(0),
        Der.sequence(Der.oid(RSA_ENCRYPTION), Der.nul()),
        Der.octetString(rsaPrivateKey));
  }

  /**
   * PrivateKeyInfo { 0, ecPublicKey namedCurve, OCTET STRING ECPrivateKey } (RFC 5915), the curve
   * from the key's own parameters or else from the EC PARAMETERS block.
   */
  static byte[] wrapSec1(byte[] ecPrivateKey, byte[] parametersBlock) {
    Der.Reader key = new Der.Reader(ecPrivateKey).next(Der.SEQUENCE, "ECPrivateKey").children();
    byte[] version = key.next(Der.INTEGER, "ECPrivateKey version").contents();
    if (version.length != 1 || version[0] != 1) {
      throw new IllegalArgumentException("ECPrivateKey version is not 1");
    }
    key.next(Der.OCTET_STRING, "ECPrivateKey privateKey");
    byte[] curve = null;
    if (key.hasNext() && key.peekTag() == 0xa0) {
      curve = key.next().children().next(Der.OID, "ECPrivateKey parameters").contents();
    } else if (parametersBlock != null) {
      curve = new Der.Reader(parametersBlock).next(Der.OID, "EC PARAMETERS").contents();
    }
    if (curve == null) {
      throw new IllegalArgumentException("the key names no curve and there is no EC PARAMETERS");
    }
    String oid = Der.oidString(curve);
    if (!CURVES.containsKey(oid)) {
      throw new IllegalArgumentException(
          "the curve " + oid + " is not supported; P-256, P-384 and P-521 are");
    }
    return Der.sequence(
        Der.integer(0),
        Der.sequence(Der.oid(EC_PUBLIC_KEY), Der.oid(oid)),
        Der.octetString(ecPrivateKey));
  }

  /**
   * Whether a private key is the one of a certificate: a signature made with the key verifies with
   * the certificate's public key (RSA, ECDSA and the other algorithms of {@link KeyAlgorithm}).
   *
   * @param key the private key
   * @param certificate the certificate
   * @return true when they are a pair; false for keys of another algorithm or kind
   */
  public static boolean isKeyOf(PrivateKey key, X509Certificate certificate) {
    if (!key.getAlgorithm().equals(certificate.getPublicKey().getAlgorithm())) {
      return false;
    }
    try {
      String algorithm = KeyAlgorithm.signingWith(key).jcaName();
      byte[] probe = "machinery key check".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }
}
