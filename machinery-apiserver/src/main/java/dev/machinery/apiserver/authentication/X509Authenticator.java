package dev.machinery.apiserver.authentication;

import dev.machinery.apiserver.http.ApiRequest;
import java.security.GeneralSecurityException;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * Authenticates a request by the client certificate of its TLS handshake ({@link
 * ApiRequest#peerCertificates()}), as kube-apiserver's x509 authenticator with {@code
 * --client-ca-file}: the chain must lead to one of the client CAs, be valid now and allow client
 * authentication; the subject's common name (CN) is the user name, its organizations (O) the
 * groups. A request without a certificate, or whose certificate has no common name, is not this
 * authenticator's; a certificate that fails verification fails the request.
 */
public final class X509Authenticator implements Authenticator {
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  private static final String ANY_EXTENDED_KEY_USAGE = "2.5.29.37.0";

  private final List<X509Certificate> clientCAs;
  private final Set<TrustAnchor> anchors = new HashSet<>();

  /**
   * Creates the authenticator.
   *
   * @param clientCAs the CAs that sign client certificates; not empty
   */
  public X509Authenticator(List<X509Certificate> clientCAs) {
    this.clientCAs = List.copyOf(clientCAs);
    if (this.clientCAs.isEmpty()) {
      throw new IllegalArgumentException("no client CA");
    }
    for (X509Certificate ca : this.clientCAs) {
      anchors.add(new TrustAnchor(ca, null));
    }
  }

  @Override
  public Optional<UserInfo> authenticate(ApiRequest request) throws AuthenticationException {
    List<X509Certificate> chain = request.peerCertificates();
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    X509Certificate leaf = chain.get(0);
    verify(chain);
    String commonName = null;
    List<String> groups = new ArrayList<>();
    try {
      // LdapName lists the RDNs in the certificate's order (the reverse of the RFC 2253 string's).
      for (Rdn rdn : new LdapName(leaf.getSubjectX500Principal().getName()).getRdns()) {
        String type = rdn.getType();
        if (type.equalsIgnoreCase("CN") && commonName == null) {
          commonName = String.valueOf(rdn.getValue());
        } else if (type.equalsIgnoreCase("O")) {
          groups.add(String.valueOf(rdn.getValue()));
        }
      }
    } catch (InvalidNameException e) {
      throw new AuthenticationException("the client certificate's subject cannot be read", e);
    }
    if (commonName == null || commonName.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(UserInfo.of(commonName, groups));
  }

  private void verify(List<X509Certificate> chain) throws AuthenticationException {
    List<X509Certificate> path = new ArrayList<>();
    for (X509Certificate certificate : chain) {
      if (!clientCAs.contains(certificate)) {
        path.add(certificate);
      }
    }
    if (path.isEmpty()) {
      throw new AuthenticationException("the client presented a CA certificate as its own");
    }
    try {
      List<String> usages = path.get(0).getExtendedKeyUsage();
      if (usages != null
          && !usages.contains(CLIENT_AUTH)
          && !usages.contains(ANY_EXTENDED_KEY_USAGE)) {
        throw new AuthenticationException(
            "x509: the client certificate does not allow client authentication");
      }
      CertPath certPath = CertificateFactory.getInstance("X.509").generateCertPath(path);
      PKIXParameters parameters = new PKIXParameters(anchors);
      parameters.setRevocationEnabled(false);
      CertPathValidator.getInstance("PKIX").validate(certPath, parameters);
    } catch (GeneralSecurityException e) {
      throw new AuthenticationException(
          "x509: the client certificate is not valid or no client CA signed it: " + e.getMessage(),
          e);
    }
  }
}
