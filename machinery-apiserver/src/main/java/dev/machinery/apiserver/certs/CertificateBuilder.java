package dev.machinery.apiserver.certs;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes an X.509 v3 certificate (RFC 5280) in DER and signs it, as Go's {@code
 * x509.CreateCertificate} does from a template: subject (CN and O), validity, the subject's public
 * key, and the extensions basicConstraints (critical), keyUsage (critical), extendedKeyUsage,
 * subjectAltName (DNS names and IP addresses), subjectKeyIdentifier and, for a certificate signed
 * by another, authorityKeyIdentifier. Signed with SHA-256, ECDSA or RSA after the signing key.
 *
 * <p>A builder is mutable and not thread-safe; the certificates it makes are immutable.
 */
public final class CertificateBuilder {
  private static final Pattern LABEL =
      Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

  private final PublicKey publicKey;
  private String commonName = "";
  private final List<String> organizations = new ArrayList<>();
  private BigInteger serial;
  private Instant notBefore;
  private Instant notAfter;
  private boolean ca;
  private final Set<KeyUsage> keyUsages = EnumSet.noneOf(KeyUsage.class);
  private boolean serverAuth;
  private boolean clientAuth;
  private final Set<String> dnsNames = new LinkedHashSet<>();
  private final Set<InetAddress> ipAddresses = new LinkedHashSet<>();

  private CertificateBuilder(PublicKey publicKey, SecureRandom random) {
    this.publicKey = Objects.requireNonNull(publicKey, "publicKey");
    // A positive serial of 127 random bits: unique without coordination (RFC 5280 4.1.2.2).
    this.serial = new BigInteger(127, random).setBit(0);
    this.notBefore = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    this.notAfter = notBefore.plus(365, ChronoUnit.DAYS);
  }

  /**
   * Starts a certificate for a public key, with a random serial and a validity of a year from now.
   *
   * @param publicKey the subject's key, RSA or EC
   * @param random the randomness for the serial
   * @return the builder
   */
  public static CertificateBuilder forKey(PublicKey publicKey, SecureRandom random) {
    return new CertificateBuilder(publicKey, random);
  }

  /**
   * Sets the subject's common name (CN).
   *
   * @param commonName the name; empty for none
   * @return this builder
   */
  public CertificateBuilder commonName(String commonName) {
    this.commonName = Objects.requireNonNull(commonName, "commonName");
    return this;
  }

  /**
   * Adds an organization (O) to the subject, after those added before.
   *
   * @param organization the organization
   * @return this builder
   */
  public CertificateBuilder organization(String organization) {
    organizations.add(Objects.requireNonNull(organization, "organization"));
    return this;
  }

  /**
   * Sets the serial number.
   *
   * @param serial a positive number of at most 20 bytes
   * @return this builder
   * @throws IllegalArgumentException when it is not positive or too long
   */
  public CertificateBuilder serial(BigInteger serial) {
    if (serial.signum() <= 0 || serial.toByteArray().length > 20) {
      throw new IllegalArgumentException(
          "a serial number is positive and at most 20 bytes, got " + serial);
    }
    this.serial = serial;
    return this;
  }

  /**
   * Sets the validity, to the second.
   *
   * @param notBefore the first instant it is valid
   * @param notAfter the last instant it is valid
   * @return this builder
   * @throws IllegalArgumentException when notAfter is before notBefore
   */
  public CertificateBuilder validity(Instant notBefore, Instant notAfter) {
    if (notAfter.isBefore(notBefore)) {
      throw new IllegalArgumentException(
          "notAfter " + notAfter + " is before notBefore " + notBefore);
    }
    this.notBefore = notBefore.truncatedTo(ChronoUnit.SECONDS);
    this.notAfter = notAfter.truncatedTo(ChronoUnit.SECONDS);
    return this;
  }

  /**
   * Makes it a CA's certificate (basicConstraints CA:TRUE) or not (CA:FALSE, the default).
   *
   * @param ca whether it may sign certificates
   * @return this builder
   */
  public CertificateBuilder ca(boolean ca) {
    this.ca = ca;
    return this;
  }

  /**
   * Adds key usages.
   *
   * @param usages the usages
   * @return this builder
   */
  public CertificateBuilder keyUsage(KeyUsage... usages) {
    keyUsages.addAll(List.of(usages));
    return this;
  }

  /**
   * Adds the extended key usage serverAuth (TLS servers).
   *
   * @return this builder
   */
  public CertificateBuilder serverAuth() {
    this.serverAuth = true;
    return this;
  }

  /**
   * Adds the extended key usage clientAuth (TLS clients).
   *
   * @return this builder
   */
  public CertificateBuilder clientAuth() {
    this.clientAuth = true;
    return this;
  }

  /**
   * Adds a DNS name to the subjectAltName; a name given twice is kept once.
   *
   * @param name a host name of RFC 1123 labels (letters, digits, hyphens), optionally starting with
   *     {@code *.}; at most 253 characters
   * @return this builder
   * @throws CertificateDataException when it is not such a name
   */
  public CertificateBuilder dnsName(String name) {
    dnsNames.add(checkDnsName(name));
    return this;
  }

  /**
   * Adds an IP address, IPv4 or IPv6, to the subjectAltName; one given twice is kept once.
   *
   * @param address the address
   * @return this builder
   */
  public CertificateBuilder ipAddress(InetAddress address) {
    ipAddresses.add(Objects.requireNonNull(address, "address"));
    return this;
  }

  /**
   * Checks a DNS name as {@link #dnsName(String)} takes it.
   *
   * @param name the name
   * @return the name
   * @throws CertificateDataException when it is not a DNS name
   */
  public static String checkDnsName(String name) {
    Objects.requireNonNull(name, "name");
    String rest = name.startsWith("*.") ? name.substring(2) : name;
    String problem = null;
    if (name.isEmpty()) {
      problem = "it is empty";
    } else if (name.length() > 253) {
      problem = "it is longer than 253 characters";
    } else {
      for (String label : rest.split("\\.", -1)) {
        if (!LABEL.matcher(label).matches()) {
          problem =
              label.isEmpty()
                  ? "it has an empty label"
                  : "the label \""
                      + printable(label)
                      + "\" is not 1 to 63 letters, digits and inner hyphens";
          break;
        }
      }
    }
    if (problem != null) {
      throw new CertificateDataException(
          "alternate DNS name",
          name,
          String.format(
              Locale.ROOT,
              "not a DNS name for a certificate: \"%s\" (%s)",
              printable(name),
              problem));
    }
    return name;
  }

  /** The value with control and non-ASCII characters escaped, for a message. */
  static String printable(String value) {
    StringBuilder out = new StringBuilder();
    value
        .codePoints()
        .forEach(
            c -> {
              if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                out.append(String.format(Locale.ROOT, "\\u%04x", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }

  /**
   * Signs the certificate with its own key: a self-signed certificate, whose issuer is its subject.
   *
   * @param privateKey the private key of this builder's public key
   * @return the certificate, parsed back by the JDK
   * @throws IllegalStateException when the subject is empty, or the JDK cannot sign or parse it
   */
  public X509Certificate selfSign(PrivateKey privateKey) {
    if (commonName.isEmpty() && organizations.isEmpty()) {
      // Its issuer would be empty, which RFC 5280 (4.1.2.4) forbids.
      throw new IllegalStateException(
          "a self-signed certificate needs a subject: set a common name or an organization");
    }
    return sign(privateKey, null);
  }

  /**
   * Signs the certificate with an issuer's key: the issuer is the issuer certificate's subject, and
   * the authorityKeyIdentifier its subjectKeyIdentifier.
   *
   * @param issuer the issuer's certificate
   * @param issuerKey the issuer's private key
   * @return the certificate, parsed back by the JDK
   * @throws IllegalStateException when the JDK cannot sign or parse it
   */
  public X509Certificate signWith(X509Certificate issuer, PrivateKey issuerKey) {
    return sign(issuerKey, Objects.requireNonNull(issuer, "issuer"));
  }

  private X509Certificate sign(PrivateKey signer, X509Certificate issuer) {
    KeyAlgorithm.Signing signing = KeyAlgorithm.signingWith(signer);
    byte[] subject = name();
    byte[] subjectKeyId = keyIdentifier(publicKey);
    byte[] tbs =
        Der.sequence(
            Der.element(0xa0, Der.integer(2)),
            Der.integer(serial),
            signing.algorithmIdentifier(),
            issuer == null ? subject : issuer.getSubjectX500Principal().getEncoded(),
            Der.sequence(Der.time(notBefore), Der.time(notAfter)),
            subject,
            publicKey.getEncoded(),
            Der.element(0xa3, Der.sequence(extensions(subjectKeyId, issuer))));
    try {
      Signature signature = Signature.getInstance(signing.jcaName());
      signature.initSign(signer);
      signature.update(tbs);
      byte[] der =
          Der.sequence(tbs, signing.algorithmIdentifier(), Der.bitString(signature.sign()));
      return (X509Certificate)
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign a certificate: " + e.getMessage(), e);
    }
  }

  /** The subject Name: one RDN per O, then the CN, as Go's pkix.Name orders them. */
  private byte[] name() {
    List<byte[]> rdns = new ArrayList<>();
    for (String organization : organizations) {
      rdns.add(Der.setOf(Der.sequence(Der.oid("2.5.4.10"), Der.utf8String(organization))));
    }
    if (!commonName.isEmpty()) {
      rdns.add(Der.setOf(Der.sequence(Der.oid("2.5.4.3"), Der.utf8String(commonName))));
    }
    return Der.sequence(rdns);
  }

  private List<byte[]> extensions(byte[] subjectKeyId, X509Certificate issuer) {
    List<byte[]> extensions = new ArrayList<>();
    if (!keyUsages.isEmpty()) {
      extensions.add(
          extension(
              "2.5.29.15", true, Der.namedBits(keyUsages.stream().map(KeyUsage::bit).toList())));
    }
    if (serverAuth || clientAuth) {
      List<byte[]> purposes = new ArrayList<>();
      if (serverAuth) {
        purposes.add(Der.oid("1.3.6.1.5.5.7.3.1"));
      }
      if (clientAuth) {
        purposes.add(Der.oid("1.3.6.1.5.5.7.3.2"));
      }
      extensions.add(extension("2.5.29.37", false, Der.sequence(purposes)));
    }
    extensions.add(
        extension("2.5.29.19", true, ca ? Der.sequence(Der.bool(true)) : Der.sequence()));
    extensions.add(extension("2.5.29.14", false, Der.octetString(subjectKeyId)));
    if (issuer != null) {
      byte[] authorityKeyId = keyIdentifier(issuer.getPublicKey());
      extensions.add(
          extension("2.5.29.35", false, Der.sequence(Der.element(0x80, authorityKeyId))));
    }
    if (!dnsNames.isEmpty() || !ipAddresses.isEmpty()) {
      List<byte[]> names = new ArrayList<>();
      for (String dns : dnsNames) {
        names.add(Der.element(0x82, dns.getBytes(StandardCharsets.US_ASCII)));
      }
      for (InetAddress ip : ipAddresses) {
        names.add(Der.element(0x87, ip.getAddress()));
      }
      // Critical when the subject is empty, as RFC 5280 4.2.1.6 requires.
      boolean critical = commonName.isEmpty() && organizations.isEmpty();
      extensions.add(extension("2.5.29.17", critical, Der.sequence(names)));
    }
    return extensions;
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    return critical
        ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octetString(value))
        : Der.sequence(Der.oid(oid), Der.octetString(value));
  }

  /** The key identifier of RFC 5280 4.2.1.2 method 1: the SHA-1 of the subjectPublicKey bits. */
  static byte[] keyIdentifier(PublicKey key) {
    Der.Reader spki =
        new Der.Reader(key.getEncoded()).next(Der.SEQUENCE, "a public key").children();
    spki.next(Der.SEQUENCE, "a public key's algorithm");
    byte[] bits = spki.next(Der.BIT_STRING, "a public key's bits").contents();
    try {
      return MessageDigest.getInstance("SHA-1")
          .digest(java.util.Arrays.copyOfRange(bits, 1, bits.length));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no SHA-1", e);
    }
  }
}
