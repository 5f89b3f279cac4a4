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
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
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
 * @param certificateChain the serving certificate, then its intermediates
 * @param privateKey the serving certificate's private key
 * @param clientCAs the CAs whose client certificates the server asks for; empty to ask for none
 */
public record TlsConfig(
    List<X509Certificate> certificateChain,
    PrivateKey privateKey,
    List<X509Certificate> clientCAs) {
  /** The protocols offered, newest first. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  /**
   * Copies the lists.
   *
   * @param certificateChain see the record description
   * @param privateKey see the record description
   * @param clientCAs see the record description
   */
  public TlsConfig {
    certificateChain = List.copyOf(certificateChain);
    if (certificateChain.isEmpty()) {
      throw new IllegalArgumentException("the certificate chain is empty");
    }
    Objects.requireNonNull(privateKey, "privateKey");
    clientCAs = List.copyOf(clientCAs);
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
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      char[] password = new char[0];
      store.setKeyEntry(
          "serving", privateKey, password, certificateChain.toArray(X509Certificate[]::new));
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      SSLContext context = SSLContext.getInstance("TLS");
      TrustManager[] trust =
          clientCAs.isEmpty() ? null : new TrustManager[] {new ClientCertificates(clientCAs)};
      context.init(keys.getKeyManagers(), trust, new SecureRandom());
      return context;
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
