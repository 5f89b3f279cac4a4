package dev.machinery.apiserver.http;

import dev.machinery.apiserver.certs.CertificateDataException;
import dev.machinery.apiserver.certs.PrivateKeys;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * What the server needs to serve HTTPS, as kube-apiserver's {@code --tls-cert-file}, {@code
 * --tls-private-key-file} and {@code --client-ca-file} give it: the serving certificate chain, its
 * private key, and optionally the client CAs.
 *
 * <p>Only TLS 1.3 and 1.2 are offered. With client CAs the server asks each client for a
 * certificate (it wants one but does not need one, so clients with a token or none still connect)
 * and names the CAs in its request; a certificate is not refused in the handshake but handed on in
 * {@link ApiRequest#peerCertificates()}, for an authenticator to verify, as kube-apiserver verifies
 * client certificates in its x509 authenticator and answers 401 for one it does not trust.
 *
 * <p>With SNI certificates ({@code --tls-sni-cert-key}) the certificate is chosen by the server
 * name a client asks for, as kube-apiserver chooses it: a name given with a certificate first, then
 * a name of the certificate (its CN unless an IP address, and its DNS names), an exact name before
 * a wildcard one ({@code *.example.com} for {@code api.example.com}), an earlier certificate before
 * a later one; a client that asks for no name, or a name none has, gets the serving certificate.
 *
 * <p>Read with {@link #fromPemFilesReloading}, the serving certificate and key are read again from
 * their files when the files change, as kube-apiserver reloads {@code --tls-cert-file} and {@code
 * --tls-private-key-file}: a handshake after the change gets the new certificate, connections
 * already open keep theirs, and files that cannot be read (half written, a key that does not fit
 * the certificate) leave the last good pair in use.
 *
 * @param certificateChain the serving certificate, then its intermediates
 * @param privateKey the serving certificate's private key
 * @param clientCAs the CAs whose client certificates the server asks for; empty to ask for none
 * @param sniCertificates the certificates chosen by server name, in precedence order; mostly none
 * @param servingFiles where the serving certificate and key are read again from when they change;
 *     {@code null} to serve {@code certificateChain} and {@code privateKey} as they are
 */
public record TlsConfig(
    List<X509Certificate> certificateChain,
    PrivateKey privateKey,
    List<X509Certificate> clientCAs,
    List<SniCertificate> sniCertificates,
    ServingFiles servingFiles) {
  /** The protocols offered, newest first. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  /**
   * Copies the lists.
   *
   * @param certificateChain see the record description
   * @param privateKey see the record description
   * @param clientCAs see the record description
   * @param sniCertificates see the record description
   * @param servingFiles see the record description
   */
  public TlsConfig {
    certificateChain = List.copyOf(certificateChain);
    if (certificateChain.isEmpty()) {
      throw new IllegalArgumentException("the certificate chain is empty");
    }
    Objects.requireNonNull(privateKey, "privateKey");
    clientCAs = List.copyOf(clientCAs);
    sniCertificates = List.copyOf(sniCertificates);
  }

  /**
   * A configuration whose serving certificate and key are not read again.
   *
   * @param certificateChain the serving certificate, then its intermediates
   * @param privateKey the serving certificate's private key
   * @param clientCAs the CAs whose client certificates the server asks for; empty to ask for none
   * @param sniCertificates the certificates chosen by server name, in precedence order
   */
  public TlsConfig(
      List<X509Certificate> certificateChain,
      PrivateKey privateKey,
      List<X509Certificate> clientCAs,
      List<SniCertificate> sniCertificates) {
    this(certificateChain, privateKey, clientCAs, sniCertificates, null);
  }

  /**
   * Where a serving certificate and key are read again from when they change.
   *
   * @param certFile the serving certificate, then any intermediates, in PEM
   * @param keyFile its private key in PEM
   * @param checkEvery how often, at most, a handshake looks at the files' modification times and
   *     sizes; {@link Duration#ZERO} for every handshake
   */
  public record ServingFiles(Path certFile, Path keyFile, Duration checkEvery) {
    /**
     * Checks the values.
     *
     * @param certFile see the record description
     * @param keyFile see the record description
     * @param checkEvery see the record description
     * @throws IllegalArgumentException when {@code checkEvery} is negative
     */
    public ServingFiles {
      Objects.requireNonNull(certFile, "certFile");
      Objects.requireNonNull(keyFile, "keyFile");
      Objects.requireNonNull(checkEvery, "checkEvery");
      if (checkEvery.isNegative()) {
        throw new IllegalArgumentException("checkEvery must not be negative, got " + checkEvery);
      }
    }
  }

  /**
   * A configuration without SNI certificates.
   *
   * @param certificateChain the serving certificate, then its intermediates
   * @param privateKey the serving certificate's private key
   * @param clientCAs the CAs whose client certificates the server asks for; empty to ask for none
   */
  public TlsConfig(
      List<X509Certificate> certificateChain,
      PrivateKey privateKey,
      List<X509Certificate> clientCAs) {
    this(certificateChain, privateKey, clientCAs, List.of());
  }

  /**
   * Returns this configuration with SNI certificates in place of its own.
   *
   * @param sniCertificates the certificates chosen by server name, in precedence order
   * @return the new configuration
   */
  public TlsConfig withSniCertificates(List<SniCertificate> sniCertificates) {
    return new TlsConfig(certificateChain, privateKey, clientCAs, sniCertificates, servingFiles);
  }

  /**
   * A certificate served to clients that ask for one of its names (kube-apiserver's {@code
   * --tls-sni-cert-key}).
   *
   * @param certificateChain the certificate, then its intermediates
   * @param privateKey its private key
   * @param names the server names it is chosen for, exact ({@code api.example.com}) or wildcard
   *     ({@code *.example.com}); empty to use the certificate's own names
   */
  public record SniCertificate(
      List<X509Certificate> certificateChain, PrivateKey privateKey, List<String> names) {
    /**
     * Copies the lists and lower-cases the names.
     *
     * @param certificateChain see the record description
     * @param privateKey see the record description
     * @param names see the record description
     */
    public SniCertificate {
      certificateChain = List.copyOf(certificateChain);
      if (certificateChain.isEmpty()) {
        throw new IllegalArgumentException("the certificate chain is empty");
      }
      Objects.requireNonNull(privateKey, "privateKey");
      names = names.stream().map(n -> n.toLowerCase(java.util.Locale.ROOT)).toList();
    }

    /**
     * Reads the PEM files of one {@code --tls-sni-cert-key}.
     *
     * @param certFile the certificate, then any intermediates
     * @param keyFile its private key, as {@link TlsConfig#readPrivateKey(Path)} reads it
     * @param names the server names; empty to use the certificate's own
     * @return the certificate
     * @throws IOException when a file cannot be read or holds no certificate or key
     */
    public static SniCertificate fromPemFiles(Path certFile, Path keyFile, List<String> names)
        throws IOException {
      return new SniCertificate(readCertificates(certFile), readPrivateKey(keyFile), names);
    }

    /**
     * Returns the names it is chosen for: those given, or else the certificate's CN (unless it is
     * an IP address) and its DNS names, as kube-apiserver takes them; IP addresses never, since a
     * client does not send one as a server name.
     *
     * @return the names, lower case, each once
     */
    public List<String> serverNames() {
      if (!names.isEmpty()) {
        return names;
      }
      List<String> found = new ArrayList<>();
      X509Certificate certificate = certificateChain.get(0);
      String cn = commonName(certificate);
      if (cn != null && !cn.isEmpty() && !cn.contains(":") && !cn.matches("[0-9.]+")) {
        found.add(cn.toLowerCase(java.util.Locale.ROOT));
      }
      try {
        if (certificate.getSubjectAlternativeNames() != null) {
          for (List<?> name : certificate.getSubjectAlternativeNames()) {
            if (Integer.valueOf(2).equals(name.get(0))) {
              found.add(((String) name.get(1)).toLowerCase(java.util.Locale.ROOT));
            }
          }
        }
      } catch (CertificateException e) {
        // An unreadable subjectAltName names nothing.
      }
      return found.stream().distinct().toList();
    }

    private static String commonName(X509Certificate certificate) {
      try {
        for (javax.naming.ldap.Rdn rdn :
            new javax.naming.ldap.LdapName(certificate.getSubjectX500Principal().getName())
                .getRdns()) {
          if (rdn.getType().equalsIgnoreCase("CN")) {
            return String.valueOf(rdn.getValue());
          }
        }
      } catch (javax.naming.InvalidNameException e) {
        return null;
      }
      return null;
    }
  }

  /**
   * Reads the PEM files kube-apiserver's flags name.
   *
   * @param certFile the serving certificate, then any intermediates ({@code --tls-cert-file})
   * @param keyFile its private key, PKCS#8, PKCS#1 or SEC1 PEM ({@code --tls-private-key-file}), as
   *     {@link #readPrivateKey(Path)} reads it
   * @param clientCaFile the client CA bundle ({@code --client-ca-file}), or {@code null} for none
   * @return the configuration
   * @throws IOException when a file cannot be read or holds no certificate or key
   */
  public static TlsConfig fromPemFiles(Path certFile, Path keyFile, Path clientCaFile)
      throws IOException {
    return new TlsConfig(
        readCertificates(certFile),
        readPrivateKey(keyFile),
        clientCaFile == null ? List.of() : readCertificates(clientCaFile));
  }

  /**
   * Reads the PEM files kube-apiserver's flags name, and reads the serving certificate and key
   * again when their files change, as kube-apiserver does.
   *
   * @param certFile the serving certificate, then any intermediates ({@code --tls-cert-file})
   * @param keyFile its private key ({@code --tls-private-key-file})
   * @param clientCaFile the client CA bundle ({@code --client-ca-file}), or {@code null} for none;
   *     read once
   * @param checkEvery how often, at most, a handshake looks whether the files changed
   * @return the configuration
   * @throws IOException when a file cannot be read, holds no certificate or key, or the key does
   *     not fit the certificate
   */
  public static TlsConfig fromPemFilesReloading(
      Path certFile, Path keyFile, Path clientCaFile, Duration checkEvery) throws IOException {
    List<X509Certificate> chain = readCertificates(certFile);
    PrivateKey key = readPrivateKey(keyFile);
    checkPair(chain.get(0), key, certFile, keyFile);
    return new TlsConfig(
        chain,
        key,
        clientCaFile == null ? List.of() : readCertificates(clientCaFile),
        List.of(),
        new ServingFiles(certFile, keyFile, checkEvery));
  }

  /** Refuses a private key that is not the one of the certificate. */
  static void checkPair(X509Certificate certificate, PrivateKey key, Path certFile, Path keyFile)
      throws IOException {
    if (!PrivateKeys.isKeyOf(key, certificate)) {
      throw new IOException(keyFile + ": private key does not match public key of " + certFile);
    }
  }

  /**
   * Reads every {@code CERTIFICATE} block of a PEM file.
   *
   * @param file the file
   * @return the certificates, in the file's order
   * @throws IOException when the file cannot be read, holds a bad block or no certificate
   */
  public static List<X509Certificate> readCertificates(Path file) throws IOException {
    List<X509Certificate> certificates = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (byte[] der : blocks(file, "CERTIFICATE")) {
        certificates.add(
            (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
      }
    } catch (CertificateException e) {
      throw new IOException(file + ": not a valid certificate: " + e.getMessage(), e);
    }
    if (certificates.isEmpty()) {
      throw new IOException(file + ": no PEM block of type CERTIFICATE");
    }
    return certificates;
  }

  /**
   * Reads the first private key of a PEM file, in any unencrypted form kube-apiserver reads: PKCS#8
   * ({@code BEGIN PRIVATE KEY}, RSA or EC), PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) or SEC1 ({@code
   * BEGIN EC PRIVATE KEY}, P-256, P-384 or P-521, with or without an {@code EC PARAMETERS} block),
   * as {@link PrivateKeys#fromPem(String)} reads it.
   *
   * @param file the file
   * @return the key
   * @throws IOException when the file cannot be read or holds no such key (an encrypted key
   *     included), the message naming the file
   */
  public static PrivateKey readPrivateKey(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.US_ASCII);
    try {
      return PrivateKeys.fromPem(text);
    } catch (CertificateDataException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  private static List<byte[]> blocks(Path file, String type) throws IOException {
    String text = Files.readString(file, StandardCharsets.US_ASCII);
    String begin = "-----BEGIN " + type + "-----";
    String end = "-----END " + type + "-----";
    List<byte[]> blocks = new ArrayList<>();
    int from = 0;
    while (true) {
      int start = text.indexOf(begin, from);
      if (start < 0) {
        return blocks;
      }
      int stop = text.indexOf(end, start);
      if (stop < 0) {
        throw new IOException(file + ": a " + type + " block has no END line");
      }
      try {
        blocks.add(Base64.getMimeDecoder().decode(text.substring(start + begin.length(), stop)));
      } catch (IllegalArgumentException e) {
        throw new IOException(file + ": a " + type + " block is not valid base64", e);
      }
      from = stop + end.length();
    }
  }

  /**
   * Builds the TLS context: the serving chain and key, and (with client CAs) a trust manager that
   * names the CAs to clients and accepts whatever certificate a client presents, leaving its
   * verification to the authenticator.
   *
   * @return the context
   * @throws IllegalStateException when the JDK refuses the key or chain
   */
  public SSLContext sslContext() {
    try {
      X509ExtendedKeyManager keys =
          servingFiles == null ? keyManager() : new ReloadingKeyManager(this, servingFiles);
      SSLContext context = SSLContext.getInstance("TLS");
      TrustManager[] trust =
          clientCAs.isEmpty() ? null : new TrustManager[] {new ClientCertificates(clientCAs)};
      context.init(new KeyManager[] {keys}, trust, new SecureRandom());
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build a TLS context: " + e.getMessage(), e);
    }
  }

  /**
   * The key manager of this configuration's certificates as they are.
   *
   * @throws IllegalStateException when the JDK refuses the key or chain
   */
  X509ExtendedKeyManager keyManager() {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      char[] password = new char[0];
      store.setKeyEntry(
          "serving", privateKey, password, certificateChain.toArray(X509Certificate[]::new));
      for (int i = 0; i < sniCertificates.size(); i++) {
        SniCertificate sni = sniCertificates.get(i);
        store.setKeyEntry(
            "sni-" + i,
            sni.privateKey(),
            password,
            sni.certificateChain().toArray(X509Certificate[]::new));
      }
      // With SNI certificates the key manager must know the entries by their own aliases, as the
      // SunX509 one does.
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(
              sniCertificates.isEmpty() ? KeyManagerFactory.getDefaultAlgorithm() : "SunX509");
      keys.init(store, password);
      X509ExtendedKeyManager manager = (X509ExtendedKeyManager) keys.getKeyManagers()[0];
      return sniCertificates.isEmpty()
          ? manager
          : new SniKeyManager(manager, serverNamesToAliases());
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot build a TLS context: " + e.getMessage(), e);
    }
  }

  /**
   * Returns the parameters each handshake runs with: TLS 1.3 and 1.2 only, and a client certificate
   * wanted (not needed) when there are client CAs.
   *
   * @param context the context from {@link #sslContext()}
   * @return the parameters
   */
  public SSLParameters sslParameters(SSLContext context) {
    SSLParameters parameters = context.getDefaultSSLParameters();
    parameters.setProtocols(PROTOCOLS.toArray(String[]::new));
    if (!clientCAs.isEmpty()) {
      parameters.setWantClientAuth(true);
    }
    return parameters;
  }

  /**
   * The key store alias of each server name, as kube-apiserver's BuildNamedCertificates maps them:
   * an earlier certificate's names before a later one's, names given explicitly before names taken
   * from a certificate.
   */
  private Map<String, String> serverNamesToAliases() {
    Map<String, String> byName = new HashMap<>();
    Map<String, String> explicit = new HashMap<>();
    for (int i = sniCertificates.size() - 1; i >= 0; i--) {
      SniCertificate sni = sniCertificates.get(i);
      for (String name : sni.serverNames()) {
        (sni.names().isEmpty() ? byName : explicit).put(name, "sni-" + i);
      }
    }
    byName.putAll(explicit);
    return byName;
  }

  /**
   * Chooses the certificate by the server name the client asked for: the exact name, then the name
   * with its first label replaced by {@code *}, else the serving certificate; a certificate whose
   * key does not fit the key type the handshake asks about is not offered for it.
   */
  private static final class SniKeyManager extends X509ExtendedKeyManager {
    private final X509ExtendedKeyManager keys;
    private final Map<String, String> aliases;

    SniKeyManager(X509ExtendedKeyManager keys, Map<String, String> aliases) {
      this.keys = keys;
      this.aliases = Map.copyOf(aliases);
    }

    private String alias(List<SNIServerName> requested) {
      for (SNIServerName name : requested) {
        if (name instanceof SNIHostName host) {
          String wanted = host.getAsciiName().toLowerCase(java.util.Locale.ROOT);
          String alias = aliases.get(wanted);
          if (alias == null && wanted.contains(".")) {
            alias = aliases.get("*" + wanted.substring(wanted.indexOf('.')));
          }
          if (alias != null) {
            return alias;
          }
        }
      }
      return "serving";
    }

    private String fitting(String alias, String keyType) {
      PrivateKey key = keys.getPrivateKey(alias);
      if (key == null) {
        return null;
      }
      String algorithm = key.getAlgorithm();
      boolean fits =
          keyType.equals(algorithm)
              || keyType.startsWith(algorithm + "_")
              || algorithm.equals("RSA") && keyType.equals("RSASSA-PSS");
      return fits ? alias : null;
    }

    private static List<SNIServerName> requested(javax.net.ssl.SSLSession session) {
      return session instanceof ExtendedSSLSession extended
          ? extended.getRequestedServerNames()
          : List.of();
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      return fitting(alias(requested(engine.getHandshakeSession())), keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      List<SNIServerName> names =
          socket instanceof SSLSocket ssl ? requested(ssl.getHandshakeSession()) : List.of();
      return fitting(alias(names), keyType);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return keys.getServerAliases(keyType, issuers);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return keys.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return keys.getPrivateKey(alias);
    }
  }

  /**
   * Names the client CAs in the certificate request and lets any client certificate through: the
   * x509 authenticator verifies it, so that an untrusted one is a 401 with a Status rather than a
   * failed handshake.
   */
  private static final class ClientCertificates extends X509ExtendedTrustManager {
    private final X509Certificate[] issuers;

    ClientCertificates(List<X509Certificate> clientCAs) {
      this.issuers = clientCAs.toArray(X509Certificate[]::new);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
      // Verified by the authenticator.
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
      // Verified by the authenticator.
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
      // Verified by the authenticator.
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      throw new CertificateException("a server does not verify servers");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      throw new CertificateException("a server does not verify servers");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("a server does not verify servers");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return issuers.clone();
    }
  }
}
