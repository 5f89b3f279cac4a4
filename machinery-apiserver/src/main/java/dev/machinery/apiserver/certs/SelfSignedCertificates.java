package dev.machinery.apiserver.certs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The self-signed serving certificate kube-apiserver makes at start when it is given no {@code
 * --tls-cert-file} (client-go's {@code cert.GenerateSelfSignedCertKey}, written to {@code
 * --cert-dir} by the secure serving options): a CA named {@code <host>-ca@<unix time>} that signs a
 * serving certificate named {@code <host>@<unix time>} for the host, {@code localhost}, {@code
 * 127.0.0.1} and the alternate names and addresses given, valid from an hour ago for a year. The
 * CA's key is thrown away. Stateless and thread-safe; {@link #ensure} is not safe against another
 * process writing the same directory at the same time.
 */
public final class SelfSignedCertificates {
  /** kube-apiserver's pair name: the files are {@code apiserver.crt} and {@code apiserver.key}. */
  public static final String PAIR_NAME = "apiserver";

  /**
   * The file beside the pair that holds only the CA, for clients' {@code --certificate-authority}.
   */
  public static final String CA_FILE = "apiserver-ca.crt";

  private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+");
  private static final Duration MAX_AGE = Duration.ofDays(365);
  private static final Duration BACKDATE = Duration.ofHours(1);

  private SelfSignedCertificates() {}

  /**
   * A generated serving certificate, the CA that signed it, and the serving key.
   *
   * @param certificate the serving certificate
   * @param caCertificate the self-signed CA's certificate
   * @param privateKey the serving certificate's private key
   */
  public record CertKey(
      X509Certificate certificate, X509Certificate caCertificate, PrivateKey privateKey) {
    /**
     * Checks that nothing is missing.
     *
     * @param certificate see the record description
     * @param caCertificate see the record description
     * @param privateKey see the record description
     */
    public CertKey {
      Objects.requireNonNull(certificate, "certificate");
      Objects.requireNonNull(caCertificate, "caCertificate");
      Objects.requireNonNull(privateKey, "privateKey");
    }

    /**
     * Returns the chain as kube-apiserver writes {@code apiserver.crt}: the serving certificate,
     * then the CA's, in PEM.
     *
     * @return the PEM text
     */
    public String certificateChainPem() {
      return pem(certificate) + pem(caCertificate);
    }

    /**
     * Returns the CA's certificate in PEM, what a client trusts.
     *
     * @return the PEM text
     */
    public String caPem() {
      return pem(caCertificate);
    }

    /**
     * Returns the serving key in PKCS#8 PEM.
     *
     * @return the PEM text
     */
    public String privateKeyPem() {
      return PrivateKeys.toPem(privateKey);
    }

    /**
     * Returns the chain to serve: the serving certificate, then the CA's.
     *
     * @return the chain
     */
    public List<X509Certificate> chain() {
      return List.of(certificate, caCertificate);
    }

    private static String pem(X509Certificate certificate) {
      try {
        return Pem.encode("CERTIFICATE", certificate.getEncoded());
      } catch (java.security.cert.CertificateEncodingException e) {
        throw new IllegalStateException("cannot encode a certificate", e);
      }
    }
  }

  /**
   * The files in a certificate directory and whether they were made just now.
   *
   * @param certFile {@code apiserver.crt}: the serving certificate, then the CA's
   * @param keyFile {@code apiserver.key}: the serving key
   * @param caFile {@code apiserver-ca.crt}: the CA's certificate alone
   * @param certKey what the files hold
   * @param generated whether they were generated now rather than found
   */
  public record CertDirectory(
      Path certFile, Path keyFile, Path caFile, CertKey certKey, boolean generated) {
    /**
     * Checks that nothing is missing.
     *
     * @param certFile see the record description
     * @param keyFile see the record description
     * @param caFile see the record description
     * @param certKey see the record description
     * @param generated see the record description
     */
    public CertDirectory {
      Objects.requireNonNull(certFile, "certFile");
      Objects.requireNonNull(keyFile, "keyFile");
      Objects.requireNonNull(caFile, "caFile");
      Objects.requireNonNull(certKey, "certKey");
    }
  }

  /**
   * Generates a CA and a serving certificate for a host, valid from an hour ago for a year.
   *
   * @param host the host: an IP address or a DNS name, the serving certificate's first name
   * @param alternateIPs more IP addresses to serve as
   * @param alternateDNS more DNS names to serve as
   * @param algorithm the kind of both keys
   * @return the certificates and the serving key
   * @throws CertificateDataException when the host or an alternate name is not an IP address or a
   *     DNS name
   */
  public static CertKey generate(
      String host,
      List<InetAddress> alternateIPs,
      List<String> alternateDNS,
      KeyAlgorithm algorithm) {
    return generate(host, alternateIPs, alternateDNS, algorithm, Instant.now(), new SecureRandom());
  }

  /**
   * Generates a CA and a serving certificate for a host at a given time, as {@link
   * #generate(String, List, List, KeyAlgorithm)}.
   *
   * @param host the host: an IP address or a DNS name
   * @param alternateIPs more IP addresses
   * @param alternateDNS more DNS names
   * @param algorithm the kind of both keys
   * @param now the time the names' suffix and the validity are counted from
   * @param random the randomness for keys and serials
   * @return the certificates and the serving key
   * @throws CertificateDataException when the host or an alternate name is not an IP address or a
   *     DNS name
   */
  public static CertKey generate(
      String host,
      List<InetAddress> alternateIPs,
      List<String> alternateDNS,
      KeyAlgorithm algorithm,
      Instant now,
      SecureRandom random) {
    Objects.requireNonNull(host, "host");
    InetAddress hostIp = isIpLiteral(host) ? parseIpAddress(host) : null;
    if (hostIp == null) {
      checkHost(host);
    }
    List<String> dns = new ArrayList<>();
    for (String name : alternateDNS) {
      dns.add(CertificateBuilder.checkDnsName(name));
    }
    Instant notBefore = now.minus(BACKDATE);
    Instant notAfter = notBefore.plus(MAX_AGE);
    long unix = now.getEpochSecond();

    KeyPair caKeys = algorithm.generate(random);
    CertificateBuilder ca =
        CertificateBuilder.forKey(caKeys.getPublic(), random)
            .commonName(host + "-ca@" + unix)
            .validity(notBefore, notAfter)
            .ca(true)
            .keyUsage(KeyUsage.DIGITAL_SIGNATURE, KeyUsage.KEY_CERT_SIGN);
    if (algorithm == KeyAlgorithm.RSA_2048) {
      ca.keyUsage(KeyUsage.KEY_ENCIPHERMENT);
    }
    X509Certificate caCertificate = ca.selfSign(caKeys.getPrivate());

    KeyPair servingKeys = algorithm.generate(random);
    CertificateBuilder serving =
        CertificateBuilder.forKey(servingKeys.getPublic(), random)
            .commonName(host + "@" + unix)
            .validity(notBefore, notAfter)
            .keyUsage(KeyUsage.DIGITAL_SIGNATURE)
            .serverAuth();
    if (algorithm == KeyAlgorithm.RSA_2048) {
      serving.keyUsage(KeyUsage.KEY_ENCIPHERMENT);
    }
    if (hostIp != null) {
      serving.ipAddress(hostIp);
    } else {
      serving.dnsName(host);
    }
    serving.dnsName("localhost");
    serving.ipAddress(parseIpAddress("127.0.0.1"));
    for (InetAddress ip : alternateIPs) {
      serving.ipAddress(ip);
    }
    for (String name : dns) {
      serving.dnsName(name);
    }
    X509Certificate certificate = serving.signWith(caCertificate, caKeys.getPrivate());
    return new CertKey(certificate, caCertificate, servingKeys.getPrivate());
  }

  /**
   * Finds the pair {@code apiserver.crt} and {@code apiserver.key} in a directory and uses it, or
   * generates one there as {@link #generate(String, List, List, KeyAlgorithm)} when neither file
   * exists or the certificate is no longer valid (regenerating an expired pair is more than
   * kube-apiserver does). The CA is also written alone to {@code apiserver-ca.crt}, from the
   * chain's last certificate when the pair was found without it. The key is written readable by its
   * owner only where the file system has POSIX permissions.
   *
   * @param certDir the directory ({@code --cert-dir}); created when missing
   * @param host the host, as {@code generate} takes it
   * @param alternateIPs more IP addresses
   * @param alternateDNS more DNS names
   * @param algorithm the kind of keys to generate
   * @return the files and what they hold
   * @throws IOException when a file cannot be read or written, only one of the pair exists, or the
   *     pair does not hold a certificate chain and its key
   * @throws CertificateDataException when a name is refused, as {@code generate} refuses it
   */
  public static CertDirectory ensure(
      Path certDir,
      String host,
      List<InetAddress> alternateIPs,
      List<String> alternateDNS,
      KeyAlgorithm algorithm)
      throws IOException {
    Path certFile = certDir.resolve(PAIR_NAME + ".crt");
    Path keyFile = certDir.resolve(PAIR_NAME + ".key");
    Path caFile = certDir.resolve(CA_FILE);
    boolean haveCert = Files.exists(certFile);
    boolean haveKey = Files.exists(keyFile);
    if (haveCert != haveKey) {
      throw new IOException(
          (haveCert ? certFile : keyFile)
              + " exists but "
              + (haveCert ? keyFile : certFile)
              + " does not: remove it, or give both");
    }
    if (haveCert) {
      CertKey found = read(certFile, keyFile);
      if (isCurrent(found.certificate()) && isCurrent(found.caCertificate())) {
        if (!Files.exists(caFile)) {
          write(caFile, found.caPem(), false);
        }
        return new CertDirectory(certFile, keyFile, caFile, found, false);
      }
    }
    CertKey made = generate(host, alternateIPs, alternateDNS, algorithm);
    Files.createDirectories(certDir);
    write(keyFile, made.privateKeyPem(), true);
    write(certFile, made.certificateChainPem(), false);
    write(caFile, made.caPem(), false);
    return new CertDirectory(certFile, keyFile, caFile, made, true);
  }

  private static boolean isCurrent(X509Certificate certificate) {
    try {
      certificate.checkValidity();
      return true;
    } catch (CertificateException e) {
      return false;
    }
  }

  private static CertKey read(Path certFile, Path keyFile) throws IOException {
    List<X509Certificate> chain = new ArrayList<>();
    PrivateKey key;
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (Pem.Block block : Pem.decode(Files.readAllBytes(certFile))) {
        if (block.type().equals("CERTIFICATE")) {
          chain.add(
              (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
        }
      }
      key = PrivateKeys.fromPem(Files.readString(keyFile, StandardCharsets.US_ASCII));
    } catch (CertificateException | CertificateDataException e) {
      throw new IOException(certFile + ", " + keyFile + ": " + e.getMessage(), e);
    }
    if (chain.isEmpty()) {
      throw new IOException(certFile + ": no PEM block of type CERTIFICATE");
    }
    if (!PrivateKeys.isKeyOf(key, chain.get(0))) {
      throw new IOException(keyFile + " is not the key of the certificate in " + certFile);
    }
    return new CertKey(chain.get(0), chain.get(chain.size() - 1), key);
  }

  private static void write(Path file, String text, boolean secret) throws IOException {
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(temporary);
    if (secret && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      try {
        Files.createFile(
            temporary,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (FileAlreadyExistsException e) {
        throw new IOException(temporary + " appeared while writing " + file, e);
      }
    }
    Files.writeString(temporary, text, StandardCharsets.US_ASCII);
    Files.move(
        temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Parses an IP address literal, IPv4 dotted or IPv6, without looking anything up.
   *
   * @param text the literal, such as {@code 10.0.0.1} or {@code ::1}
   * @return the address
   * @throws CertificateDataException when it is not an IP address literal
   */
  public static InetAddress parseIpAddress(String text) {
    Objects.requireNonNull(text, "text");
    if (isIpLiteral(text)) {
      boolean ok = true;
      if (IPV4.matcher(text).matches()) {
        for (String part : text.split("\\.")) {
          ok &= Integer.parseInt(part) <= 255;
        }
      }
      if (ok) {
        try {
          return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
          // Falls through to the refusal.
        }
      }
    }
    throw new CertificateDataException(
        "alternate IP address",
        text,
        "not an IP address: \"" + CertificateBuilder.printable(text) + "\"");
  }

  private static boolean isIpLiteral(String text) {
    return IPV4.matcher(text).matches() || text.contains(":") && IPV6.matcher(text).matches();
  }

  private static void checkHost(String host) {
    try {
      CertificateBuilder.checkDnsName(host);
    } catch (CertificateDataException e) {
      throw new CertificateDataException(
          "host", host, e.getMessage().replace("not a DNS name", "not an IP address or DNS name"));
    }
  }
}
