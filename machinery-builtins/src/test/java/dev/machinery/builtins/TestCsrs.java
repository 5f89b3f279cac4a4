package dev.machinery.builtins;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * PKCS#10 requests for tests, written in DER by hand (the JDK has no public writer): an EC P-256
 * key, a subject of a common name and organizations, signed with SHA-256 ECDSA.
 */
final class TestCsrs {
  private TestCsrs() {}

  /** The PEM of a new request. */
  static String pem(String commonName, String... organizations) {
    return pem(der(commonName, false, organizations));
  }

  /** The PEM of a request whose signature does not verify. */
  static String badSignaturePem(String commonName) {
    return pem(der(commonName, true));
  }

  /** The PEM as {@code spec.request} holds it in JSON: base64. */
  static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }

  static String pem(byte[] der) {
    String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN CERTIFICATE REQUEST-----\n" + body + "\n-----END CERTIFICATE REQUEST-----\n";
  }

  static byte[] der(String commonName, boolean corrupt, String... organizations) {
    return der("EC", commonName, corrupt, organizations);
  }

  /** A request with a key of {@code EC} (P-256), {@code RSA} (2048) or {@code Ed25519}. */
  static byte[] der(
      String keyAlgorithm, String commonName, boolean corrupt, String... organizations) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(keyAlgorithm);
      if (!keyAlgorithm.equals("Ed25519")) {
        generator.initialize(keyAlgorithm.equals("RSA") ? 2048 : 256);
      }
      KeyPair keys = generator.generateKeyPair();
      List<byte[]> names = new ArrayList<>();
      for (String organization : organizations) {
        names.add(set(sequence(oid(new int[] {2, 5, 4, 10}), utf8(organization))));
      }
      names.add(set(sequence(oid(new int[] {2, 5, 4, 3}), utf8(commonName))));
      byte[] info =
          sequence(
              element(0x02, new byte[] {0}),
              sequence(names.toArray(byte[][]::new)),
              keys.getPublic().getEncoded(),
              element(0xa0, new byte[0]));
      String signatureAlgorithm =
          switch (keyAlgorithm) {
            case "RSA" -> "SHA256withRSA";
            case "Ed25519" -> "Ed25519";
            default -> "SHA256withECDSA";
          };
      Signature signer = Signature.getInstance(signatureAlgorithm);
      signer.initSign(keys.getPrivate());
      signer.update(info);
      byte[] signature = signer.sign();
      if (corrupt) {
        signature[signature.length - 1] ^= 1;
      }
      byte[] bits = new byte[signature.length + 1];
      System.arraycopy(signature, 0, bits, 1, signature.length);
      byte[] algorithm =
          switch (keyAlgorithm) {
            case "RSA" ->
                sequence(oid(new int[] {1, 2, 840, 113549, 1, 1, 11}), element(0x05, new byte[0]));
            case "Ed25519" -> sequence(oid(new int[] {1, 3, 101, 112}));
            default -> sequence(oid(new int[] {1, 2, 840, 10045, 4, 3, 2}));
          };
      return sequence(info, algorithm, element(0x03, bits));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] utf8(String text) {
    return element(0x0c, text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] set(byte[] content) {
    return element(0x31, content);
  }

  private static byte[] sequence(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return element(0x30, out.toByteArray());
  }

  private static byte[] oid(int[] arcs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(arcs[0] * 40 + arcs[1]);
    for (int i = 2; i < arcs.length; i++) {
      int v = arcs[i];
      int[] groups = new int[5];
      int n = 0;
      do {
        groups[n++] = v & 0x7f;
        v >>>= 7;
      } while (v != 0);
      for (int j = n - 1; j >= 0; j--) {
        out.write(groups[j] | (j > 0 ? 0x80 : 0));
      }
    }
    return element(0x06, out.toByteArray());
  }

  private static byte[] element(int tag, byte[] contents) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = contents.length;
    if (length < 0x80) {
      out.write(length);
    } else if (length < 0x100) {
      out.write(0x81);
      out.write(length);
    } else {
      out.write(0x82);
      out.write(length >> 8);
      out.write(length & 0xff);
    }
    out.writeBytes(contents);
    return out.toByteArray();
  }
}
