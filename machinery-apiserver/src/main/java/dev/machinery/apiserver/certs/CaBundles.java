package dev.machinery.apiserver.certs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A CA bundle ({@code caBundle} of a webhook's {@code clientConfig}: PEM certificates) as a TLS
 * context that trusts those certificates and nothing else, as kube-apiserver calls conversion and
 * admission webhooks. Stateless and safe for concurrent use.
 */
public final class CaBundles {
  private CaBundles() {}

  /**
   * Returns a TLS context whose trusted authorities are exactly a bundle's certificates.
   *
   * @param pem one or more PEM {@code CERTIFICATE} blocks
   * @return the context, with no key of its own
   * @throws IllegalArgumentException when the bytes hold no certificate, in kube-apiserver's words
   *     ({@code unable to load root certificates: unable to parse bytes as PEM block})
   */
  public static SSLContext trusting(byte[] pem) {
    Collection<? extends Certificate> certificates;
    try {
      certificates =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "unable to load root certificates: unable to parse bytes as PEM block", e);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException(
          "unable to load root certificates: unable to parse bytes as PEM block");
    }
    try {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (Certificate certificate : certificates) {
        trust.setCertificateEntry("ca-" + i++, certificate);
      }
      TrustManagerFactory managers =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      managers.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, managers.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("cannot trust the CA bundle: " + e.getMessage(), e);
    }
  }
}
