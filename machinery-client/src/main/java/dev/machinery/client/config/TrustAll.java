package dev.machinery.client.config;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts every server certificate: {@code insecure-skip-tls-verify: true}. Stateless and
 * thread-safe.
 */
final class TrustAll extends X509ExtendedTrustManager {
  static final TrustAll INSTANCE = new TrustAll();

  private TrustAll() {}

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("a client's trust manager trusts no client certificates");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
    // insecure-skip-tls-verify: every server is trusted.
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("a client's trust manager trusts no client certificates");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    // insecure-skip-tls-verify: every server is trusted.
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a client's trust manager trusts no client certificates");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) {
    // insecure-skip-tls-verify: every server is trusted.
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
