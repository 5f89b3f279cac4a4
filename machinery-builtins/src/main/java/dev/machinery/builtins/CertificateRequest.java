package dev.machinery.builtins;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A PKCS#10 certificate signing request (RFC 2986) read from the PEM of a
 * CertificateSigningRequest's {@code spec.request}, as Go's {@code certificates.ParseCSR} and
 * {@code x509.ParseCertificateRequest} read it: the first PEM block must be a {@code CERTIFICATE
 * REQUEST}; the subject's organizations and common name are read, and {@link #checkSignature()}
 * verifies the request's self-signature with its own public key (RSA, ECDSA or Ed25519, as Go's
 * x509 supports them).
 *
 * <p>Immutable and thread-safe.
 */
final class CertificateRequest {
  private static final String ORGANIZATION = "2.5.4.10";
  private static final String COMMON_NAME = "2.5.4.3";

  /** Signature algorithms by OID: the JCA name and the key algorithm. */
  private static final Map<String, String[]> SIGNATURES =
      Map.ofEntries(
          Map.entry("1.2.840.113549.1.1.5", new String[] {"SHA1withRSA", "RSA"}),
          Map.entry("1.2.840.113549.1.1.11", new String[] {"SHA256withRSA", "RSA"}),
          Map.entry("1.2.840.113549.1.1.12", new String[] {"SHA384withRSA", "RSA"}),
          Map.entry("1.2.840.113549.1.1.13", new String[] {"SHA512withRSA", "RSA"}),
          Map.entry("1.2.840.10045.4.1", new String[] {"SHA1withECDSA", "EC"}),
          Map.entry("1.2.840.10045.4.3.2", new String[] {"SHA256withECDSA", "EC"}),
          Map.entry("1.2.840.10045.4.3.3", new String[] {"SHA384withECDSA", "EC"}),
          Map.entry("1.2.840.10045.4.3.4", new String[] {"SHA512withECDSA", "EC"}),
          Map.entry("1.3.101.112", new String[] {"Ed25519", "Ed25519"}));

  private final byte[] info;
  private final byte[] publicKeyInfo;
  private final String signatureAlgorithm;
  private final byte[] signature;
  private final List<String> organizations;
  private final String commonName;

  private CertificateRequest(
      byte[] info,
      byte[] publicKeyInfo,
      String signatureAlgorithm,
      byte[] signature,
      List<String> organizations,
      String commonName) {
    this.info = info;
    this.publicKeyInfo = publicKeyInfo;
    this.signatureAlgorithm = signatureAlgorithm;
    this.signature = signature;
    this.organizations = List.copyOf(organizations);
    this.commonName = commonName;
  }

  /** A request that cannot be read or verified, with Go's words for why. */
  static final class InvalidRequestException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidRequestException(String message) {
      super(message);
    }
  }

  /**
   * Reads the request from PEM, as {@code certificates.ParseCSR}.
   *
   * @param pem the PEM text (the decoded bytes of {@code spec.request})
   * @return the request
   * @throws InvalidRequestException when the first PEM block is not a {@code CERTIFICATE REQUEST}
   *     or its contents are not a PKCS#10 request
   */
  static CertificateRequest parse(byte[] pem) throws InvalidRequestException {
    byte[] der = firstBlock(pem, "CERTIFICATE REQUEST");
    try {
      Reader outer = new Reader(der);
      Element request = outer.next(0x30);
      if (outer.hasMore()) {
        throw malformed();
      }
      Reader parts = new Reader(request.contents);
      Element info = parts.next(0x30);
      Element algorithm = parts.next(0x30);
      Element bits = parts.next(0x03);
      Reader infoParts = new Reader(info.contents);
      infoParts.next(0x02);
      Element subject = infoParts.next(0x30);
      Element publicKey = infoParts.next(0x30);
      String algorithmOid = oid(new Reader(algorithm.contents).next(0x06).contents);
      if (bits.contents.length == 0 || bits.contents[0] != 0) {
        throw malformed();
      }
      List<String> organizations = new ArrayList<>();
      String commonName = "";
      Reader names = new Reader(subject.contents);
      while (names.hasMore()) {
        Reader set = new Reader(names.next(0x31).contents);
        while (set.hasMore()) {
          Reader attribute = new Reader(set.next(0x30).contents);
          String type = oid(attribute.next(0x06).contents);
          Element value = attribute.any();
          String text = new String(value.contents, StandardCharsets.UTF_8);
          if (type.equals(ORGANIZATION)) {
            organizations.add(text);
          } else if (type.equals(COMMON_NAME)) {
            commonName = text;
          }
        }
      }
      return new CertificateRequest(
          info.whole,
          publicKey.whole,
          algorithmOid,
          Arrays.copyOfRange(bits.contents, 1, bits.contents.length),
          organizations,
          commonName);
    } catch (IndexOutOfBoundsException e) {
      throw malformed();
    }
  }

  private static InvalidRequestException malformed() {
    return new InvalidRequestException("x509: malformed certificate request");
  }

  /**
   * The DER contents of the first PEM block, which must be of the given type, as Go's {@code
   * pem.Decode} and {@code ParseCSR} take it.
   */
  private static byte[] firstBlock(byte[] pem, String type) throws InvalidRequestException {
    String text = new String(pem, StandardCharsets.ISO_8859_1);
    String refused = "PEM block type must be " + type;
    int begin = text.indexOf("-----BEGIN ");
    if (begin < 0) {
      throw new InvalidRequestException(refused);
    }
    int typeEnd = text.indexOf("-----", begin + 11);
    if (typeEnd < 0) {
      throw new InvalidRequestException(refused);
    }
    String found = text.substring(begin + 11, typeEnd);
    String end = "-----END " + found + "-----";
    int endAt = text.indexOf(end, typeEnd + 5);
    if (endAt < 0 || !found.equals(type)) {
      throw new InvalidRequestException(refused);
    }
    String body = text.substring(typeEnd + 5, endAt);
    try {
      return Base64.getMimeDecoder().decode(body.replaceAll("\\s", ""));
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(refused);
    }
  }

  /** The organizations ({@code O}) of the request's subject, in order. */
  List<String> organizations() {
    return organizations;
  }

  /** The common name ({@code CN}) of the request's subject, or {@code ""}. */
  String commonName() {
    return commonName;
  }

  /**
   * Verifies the request's signature with its own public key, as Go's {@code
   * CertificateRequest.CheckSignature}.
   *
   * @throws InvalidRequestException with Go's message when the signature does not verify or its
   *     algorithm is not one Go verifies
   */
  void checkSignature() throws InvalidRequestException {
    String[] algorithm = SIGNATURES.get(signatureAlgorithm);
    if (algorithm == null) {
      throw new InvalidRequestException("x509: cannot verify signature: algorithm unimplemented");
    }
    boolean verified;
    try {
      PublicKey key =
          KeyFactory.getInstance(algorithm[1])
              .generatePublic(new X509EncodedKeySpec(publicKeyInfo));
      Signature verifier = Signature.getInstance(algorithm[0]);
      verifier.initVerify(key);
      verifier.update(info);
      verified = verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      verified = false;
    }
    if (!verified) {
      throw new InvalidRequestException(
          switch (algorithm[1]) {
            case "RSA" -> "crypto/rsa: verification error";
            case "EC" -> "x509: ECDSA verification failure";
            default -> "x509: Ed25519 verification failure";
          });
    }
  }

  /** An object identifier's dotted form. */
  private static String oid(byte[] contents) {
    if (contents.length == 0) {
      throw new IndexOutOfBoundsException("empty OID");
    }
    StringBuilder out = new StringBuilder();
    BigInteger value = BigInteger.ZERO;
    boolean first = true;
    for (byte b : contents) {
      value = value.shiftLeft(7).or(BigInteger.valueOf(b & 0x7f));
      if ((b & 0x80) == 0) {
        if (first) {
          int head = value.compareTo(BigInteger.valueOf(80)) >= 0 ? 2 : value.intValue() / 40;
          out.append(head).append('.').append(value.subtract(BigInteger.valueOf(head * 40L)));
          first = false;
        } else {
          out.append('.').append(value);
        }
        value = BigInteger.ZERO;
      }
    }
    return out.toString();
  }

  /** One DER element: its whole encoding and its contents. */
  private record Element(int tag, byte[] whole, byte[] contents) {}

  /** Reads DER elements one after another (definite lengths only, as DER has). */
  private static final class Reader {
    private final byte[] data;
    private int at;

    Reader(byte[] data) {
      this.data = data;
    }

    boolean hasMore() {
      return at < data.length;
    }

    Element next(int tag) throws InvalidRequestException {
      Element element = any();
      if (element.tag != tag) {
        throw malformed();
      }
      return element;
    }

    Element any() throws InvalidRequestException {
      int start = at;
      int tag = data[at++] & 0xff;
      if ((tag & 0x1f) == 0x1f) {
        throw malformed();
      }
      int length = data[at++] & 0xff;
      if (length >= 0x80) {
        int bytes = length & 0x7f;
        if (bytes == 0 || bytes > 4) {
          throw malformed();
        }
        length = 0;
        for (int i = 0; i < bytes; i++) {
          length = (length << 8) | (data[at++] & 0xff);
        }
        if (length < 0) {
          throw malformed();
        }
      }
      if (length > data.length - at) {
        throw malformed();
      }
      byte[] contents = Arrays.copyOfRange(data, at, at + length);
      at += length;
      return new Element(tag, Arrays.copyOfRange(data, start, at), contents);
    }
  }
}
