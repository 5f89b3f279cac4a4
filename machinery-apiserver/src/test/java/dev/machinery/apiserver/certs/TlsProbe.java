package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/** Serves TLS through the server's binding and makes real handshakes against it. */
final class TlsProbe {
  private TlsProbe() {}

  /** Serves "ok" over HTTPS with the configuration, on a free loopback port. */
  static JdkHttpBinding serve(TlsConfig tls) throws java.io.IOException {
    return JdkHttpBinding.start(
        request -> ApiResponse.of(200, "text/plain", "ok".getBytes(StandardCharsets.UTF_8)),
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        2,
        null,
        tls);
  }

  /**
   * One GET to 127.0.0.1 over a fresh connection that trusts only the CA and checks the server's
   * certificate against a host name as an HTTPS client does; returns the body.
   */
  static String get(int port, X509Certificate ca, String hostName, String protocol)
      throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory trusts =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trusts.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trusts.getTrustManagers(), null);
    Socket plain = new Socket(InetAddress.getLoopbackAddress(), port);
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket(plain, hostName, port, true)) {
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      parameters.setProtocols(new String[] {protocol});
      socket.setSSLParameters(parameters);
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET /api HTTP/1.1\r\nHost: " + hostName + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(response.startsWith("HTTP/1.1 200"), response);
      return response.substring(response.indexOf("\r\n\r\n") + 4);
    }
  }

  /**
   * The certificate the server presents to a client that trusts the CA and asks for a server name
   * (none for an IP address), checking the host name.
   */
  static X509Certificate served(int port, X509Certificate ca, String hostName) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory trusts =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trusts.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trusts.getTrustManagers(), null);
    Socket plain = new Socket(InetAddress.getLoopbackAddress(), port);
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket(plain, hostName, port, true)) {
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      socket.setSSLParameters(parameters);
      socket.setSoTimeout(10_000);
      socket.startHandshake();
      return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }
  }

  /** The TLS configuration serving a generated pair. */
  static TlsConfig config(SelfSignedCertificates.CertKey made) {
    return new TlsConfig(made.chain(), made.privateKey(), List.of());
  }
}
