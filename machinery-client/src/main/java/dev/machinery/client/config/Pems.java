package dev.machinery.client.config;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM certificates and unencrypted private keys as Go's {@code tls.X509KeyPair} reads them: PKCS#8
 * ({@code PRIVATE KEY}, RSA or EC), PKCS#1 ({@code RSA PRIVATE KEY}) and SEC1 ({@code EC PRIVATE
 * KEY}); PKCS#1 and SEC1 are wrapped into PKCS#8 for the JDK's key factories. Failures are {@link
 * IllegalArgumentException}s whose message the caller places in its own context. Stateless.
 */
final class Pems {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);
  private static final byte[] RSA_ENCRYPTION = {
    0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01
  };
  private static final byte[] EC_PUBLIC_KEY = {
    0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01
  };

  private Pems() {}

  record Block(String type, boolean encrypted, byte[] der) {}

  static List<Block> blocks(byte[] pem) {
    String text = new String(pem, StandardCharsets.US_ASCII);
    List<Block> blocks = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      String body = m.group(2);
      boolean encrypted = body.contains("Proc-Type:") && body.contains("ENCRYPTED");
      StringBuilder base64 = new StringBuilder();
      for (String line : body.split("\\r?\\n")) {
        if (!line.contains(":")) {
          base64.append(line.strip());
        }
      }
      try {
        blocks.add(new Block(m.group(1), encrypted, Base64.getDecoder().decode(base64.toString())));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "the PEM block " + m.group(1) + " is not valid base64: " + e.getMessage(), e);
      }
    }
    return blocks;
  }

  /**
   * Reads every {@code CERTIFICATE} block.
   *
   * @param pem the PEM bytes
   * @return the certificates, at least one
   */
  static List<X509Certificate> certificates(byte[] pem) {
    List<X509Certificate> certificates = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (Block block : blocks(pem)) {
        if (block.type().equals("CERTIFICATE")) {
          certificates.add(
              (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
        }
      }
    } catch (CertificateException e) {
      throw new IllegalArgumentException("a CERTIFICATE block is not a valid X.509 certificate", e);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException("no PEM block CERTIFICATE found");
    }
    return certificates;
  }

  /**
   * Reads the first private key.
   *
   * @param pem the PEM bytes
   * @return the key
   */
  static PrivateKey privateKey(byte[] pem) {
    for (Block block : blocks(pem)) {
      switch (block.type()) {
        case "ENCRYPTED PRIVATE KEY" ->
            throw new IllegalArgumentException(
                "the PEM block ENCRYPTED PRIVATE KEY is encrypted, which kubectl does not read"
                    + " either");
        case "PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY" -> {
          if (block.encrypted()) {
            throw new IllegalArgumentException(
                "the PEM block " + block.type() + " is encrypted, which kubectl does not read");
          }
          byte[] pkcs8 =
              switch (block.type()) {
                case "PRIVATE KEY" -> block.der();
                case "RSA PRIVATE KEY" -> wrap(RSA_ENCRYPTION, nul(), block.der());
                default -> wrap(EC_PUBLIC_KEY, curveOf(block.der()), block.der());
              };
          return pkcs8(pkcs8, block.type());
        }
        default -> {
          // Certificates, EC PARAMETERS: not a key.
        }
      }
    }
    throw new IllegalArgumentException(
        "no private key found: expected a PEM block PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY");
  }

  /**
   * Checks that a key is the private key of a certificate, as Go's {@code tls.X509KeyPair} does: a
   * signature made with the key verifies with the certificate's public key.
   */
  static void checkPair(PrivateKey key, X509Certificate certificate) {
    String algorithm = key.getAlgorithm();
    if (!algorithm.equals(certificate.getPublicKey().getAlgorithm())) {
      throw new IllegalArgumentException(
          "the private key ("
              + algorithm
              + ") does not match the certificate's public key ("
              + certificate.getPublicKey().getAlgorithm()
              + ")");
    }
    try {
      String signing = algorithm.equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
      byte[] probe = "kubeconfig key check".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(signing);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(signing);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      if (!verifier.verify(signature)) {
        throw new IllegalArgumentException("private key does not match public key");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("private key does not match public key: " + e, e);
    }
  }

  private static PrivateKey pkcs8(byte[] der, String type) {
    Der info = Der.read(der, 0, der.length, 0x30, "PrivateKeyInfo");
    Der version = info.first(0x02, "version");
    Der algorithm = version.next(0x30, "algorithm").first(0x06, "algorithm");
    String name;
    if (algorithm.equalsEncoding(RSA_ENCRYPTION)) {
      name = "RSA";
    } else if (algorithm.equalsEncoding(EC_PUBLIC_KEY)) {
      name = "EC";
    } else {
      throw new IllegalArgumentException(
          "the PEM block " + type + " holds a key that is neither RSA nor EC");
    }
    try {
      return KeyFactory.getInstance(name).generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the PEM block " + type + " is not a valid " + name + " key: " + e.getMessage(), e);
    }
  }

  /** The namedCurve OID (its full encoding) of an RFC 5915 ECPrivateKey's [0] parameters. */
  private static byte[] curveOf(byte[] sec1) {
    Der key = Der.read(sec1, 0, sec1.length, 0x30, "ECPrivateKey");
    Der field = key.first(0x02, "version").next(0x04, "privateKey");
    while (field.hasNext()) {
      field = field.next(-1, "parameters");
      if (field.tag == 0xa0) {
        Der oid = field.first(0x06, "namedCurve");
        return oid.encoding();
      }
    }
    throw new IllegalArgumentException(
        "the PEM block EC PRIVATE KEY names no curve (no [0] parameters)");
  }

  private static byte[] nul() {
    return new byte[] {0x05, 0x00};
  }

  /** PrivateKeyInfo { INTEGER 0, SEQUENCE { oid, parameters }, OCTET STRING key }. */
  private static byte[] wrap(byte[] oid, byte[] parameters, byte[] key) {
    byte[] algorithm = tlv(0x30, concat(oid, parameters));
    return tlv(0x30, concat(new byte[] {0x02, 0x01, 0x00}, algorithm, tlv(0x04, key)));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private static byte[] tlv(int tag, byte[] contents) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = contents.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = length > 0xffffff ? 4 : length > 0xffff ? 3 : length > 0xff ? 2 : 1;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(contents);
    return out.toByteArray();
  }

  /** One DER element inside a buffer: its tag, where it starts, its contents and its end. */
  private static final class Der {
    private final byte[] buffer;
    private final int start;
    private final int limit;
    private final int tag;
    private final int contents;
    private final int end;

    private Der(byte[] buffer, int start, int limit, int tag, int contents, int end) {
      this.buffer = buffer;
      this.start = start;
      this.limit = limit;
      this.tag = tag;
      this.contents = contents;
      this.end = end;
    }

    /** Reads the element at {@code start}, within {@code limit}. */
    static Der read(byte[] buffer, int start, int limit, int expectedTag, String what) {
      int p = start;
      if (p + 2 > limit) {
        throw new IllegalArgumentException("truncated DER at " + what);
      }
      int tag = buffer[p++] & 0xff;
      if (expectedTag >= 0 && tag != expectedTag) {
        throw new IllegalArgumentException(
            "malformed DER at "
                + what
                + ": tag "
                + tag
                + " where "
                + expectedTag
                + " was expected");
      }
      int length = buffer[p++] & 0xff;
      if (length >= 0x80) {
        int bytes = length & 0x7f;
        if (bytes == 0 || bytes > 3 || p + bytes > limit) {
          throw new IllegalArgumentException("malformed DER length at " + what);
        }
        length = 0;
        for (int i = 0; i < bytes; i++) {
          length = (length << 8) | (buffer[p++] & 0xff);
        }
      }
      if (p + length > limit) {
        throw new IllegalArgumentException("truncated DER at " + what);
      }
      return new Der(buffer, start, limit, tag, p, p + length);
    }

    boolean hasNext() {
      return end < limit;
    }

    /** The first element inside this one's contents. */
    Der first(int expectedTag, String what) {
      return read(buffer, contents, end, expectedTag, what);
    }

    /** The element after this one, at the same level. */
    Der next(int expectedTag, String what) {
      return read(buffer, end, limit, expectedTag, what);
    }

    byte[] encoding() {
      return Arrays.copyOfRange(buffer, start, end);
    }

    boolean equalsEncoding(byte[] expected) {
      return Arrays.equals(encoding(), expected);
    }
  }
}
