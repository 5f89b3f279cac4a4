package dev.machinery.storage.etcd;

import dev.machinery.apiserver.certs.CertificateDataException;
import dev.machinery.apiserver.certs.PrivateKeys;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * How the client speaks TLS to an {@code https} endpoint: the context (the authorities it trusts
 * and the certificate it presents, as kube-apiserver's {@code --etcd-cafile}, {@code
 * --etcd-certfile} and {@code --etcd-keyfile} give them; the JDK's default context when none is
 * given), and the member's name checked against its certificate's names (an IP address against its
 * IP addresses), as Go's TLS client checks them. An {@code http} endpoint is spoken to in clear.
 * Immutable and thread-safe.
 */
final class EtcdTls {
  /** The JDK's default context for {@code https} endpoints. */
  static final EtcdTls DEFAULT = new EtcdTls(null);

  private final SSLContext context;

  EtcdTls(SSLContext context) {
    this.context = context;
  }

  /** Whether an endpoint is spoken to over TLS: its scheme is {@code https}. */
  static boolean secure(URI endpoint) {
    return "https".equalsIgnoreCase(endpoint.getScheme());
  }

  /** The endpoint's port, or its scheme's: 443 for {@code https}, 80 for {@code http}. */
  static int port(URI endpoint) {
    return endpoint.getPort() >= 0 ? endpoint.getPort() : secure(endpoint) ? 443 : 80;
  }

  /** The context: the one given, or the JDK's default. */
  SSLContext context() {
    if (context != null) {
      return context;
    }
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no default TLS context: " + e.getMessage(), e);
    }
  }

  /**
   * Wraps a connected socket in TLS and completes the handshake, the member's certificate checked
   * against the endpoint's host.
   *
   * @throws IOException when the handshake fails: the member's certificate is not trusted or does
   *     not name the host, or the member refused this client's certificate (or its lack of one)
   */
  Socket wrap(Socket plain, URI endpoint) throws IOException {
    SSLSocket socket =
        (SSLSocket)
            context()
                .getSocketFactory()
                .createSocket(plain, endpoint.getHost(), port(endpoint), true);
    socket.setSSLParameters(checkingHost(socket.getSSLParameters()));
    try {
      socket.startHandshake();
    } catch (IOException e) {
      socket.close();
      throw new IOException("TLS with " + endpoint + " failed: " + e.getMessage(), e);
    }
    return socket;
  }

  /** An engine for a client's side of a connection to an endpoint, offering these protocols. */
  SSLEngine engine(URI endpoint, String... applicationProtocols) {
    SSLEngine engine = context().createSSLEngine(endpoint.getHost(), port(endpoint));
    engine.setUseClientMode(true);
    SSLParameters parameters = checkingHost(engine.getSSLParameters());
    parameters.setApplicationProtocols(applicationProtocols);
    engine.setSSLParameters(parameters);
    return engine;
  }

  /** The parameters of an {@code HttpClient}: the JDK's client checks the host itself. */
  SSLParameters clientParameters() {
    return checkingHost(context().getDefaultSSLParameters());
  }

  private static SSLParameters checkingHost(SSLParameters parameters) {
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    return parameters;
  }

  /**
   * Reads kube-apiserver's three files: the authorities to trust (PEM certificates), and, when both
   * are given, this client's certificate chain and its private key (PEM, RSA or EC).
   *
   * @param caFile the trusted authorities, or null for the JDK's
   * @param certFile the client's certificate chain, or null for none
   * @param keyFile the client's key, or null for none
   * @throws IllegalArgumentException when a file cannot be read or holds no certificate or key,
   *     when only one of the certificate and the key is given, or when the key is not the
   *     certificate's; the message names the file
   */
  static EtcdTls fromFiles(Path caFile, Path certFile, Path keyFile) {
    if ((certFile == null) != (keyFile == null)) {
      throw new IllegalArgumentException(
          "an etcd client certificate needs both its file and its key's file; given only the "
              + (certFile == null
                  ? "key's (" + keyFile + ")"
                  : "certificate's (" + certFile + ")"));
    }
    try {
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      if (caFile == null) {
        trust.init((KeyStore) null);
      } else {
        KeyStore authorities = KeyStore.getInstance(KeyStore.getDefaultType());
        authorities.load(null, null);
        int i = 0;
        for (X509Certificate ca : certificates(caFile)) {
          authorities.setCertificateEntry("ca-" + i++, ca);
        }
        trust.init(authorities);
      }
      KeyManagerFactory keys = null;
      if (certFile != null) {
        List<X509Certificate> chain = certificates(certFile);
        PrivateKey key;
        try {
          key = PrivateKeys.fromPem(Files.readString(keyFile, StandardCharsets.US_ASCII));
        } catch (CertificateDataException e) {
          throw new IllegalArgumentException(
              "the etcd client key file " + keyFile + " holds no usable key: " + e.getMessage(), e);
        }
        if (!PrivateKeys.isKeyOf(key, chain.get(0))) {
          throw new IllegalArgumentException(
              "the etcd client key file "
                  + keyFile
                  + " does not hold the key of the certificate in "
                  + certFile);
        }
        KeyStore own = KeyStore.getInstance(KeyStore.getDefaultType());
        own.load(null, null);
        own.setKeyEntry("client", key, new char[0], chain.toArray(new Certificate[0]));
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(own, new char[0]);
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
      return new EtcdTls(context);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read an etcd TLS file: " + e, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot make etcd's TLS context: " + e.getMessage(), e);
    }
  }

  private static List<X509Certificate> certificates(Path file) throws IOException {
    byte[] pem = Files.readAllBytes(file);
    Collection<? extends Certificate> read;
    try {
      read =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the etcd TLS file " + file + " holds no PEM certificate: " + e.getMessage(), e);
    }
    if (read.isEmpty()) {
      throw new IllegalArgumentException("the etcd TLS file " + file + " holds no PEM certificate");
    }
    return read.stream().map(X509Certificate.class::cast).toList();
  }
}
