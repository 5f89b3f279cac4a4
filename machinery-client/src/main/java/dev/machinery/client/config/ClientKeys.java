package dev.machinery.client.config;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The client certificate a TLS handshake presents: the one an exec credential plugin answers with,
 * when it answers one, else the kubeconfig's own, else none. Asked at every handshake, so a
 * plugin's rotated certificate is used by the next connection. Thread-safe.
 */
final class ClientKeys extends X509ExtendedKeyManager {
  private static final String STATIC = "kubeconfig";
  private static final String DYNAMIC = "exec";

  /** A certificate chain and its private key. */
  record Pair(List<X509Certificate> chain, PrivateKey key) {
    Pair {
      chain = List.copyOf(chain);
    }
  }

  private final Pair fixed;
  private final Supplier<Optional<Pair>> dynamic;

  ClientKeys(Pair fixed, Supplier<Optional<Pair>> dynamic) {
    this.fixed = fixed;
    this.dynamic = dynamic;
  }

  private Optional<Pair> current() {
    if (dynamic != null) {
      try {
        Optional<Pair> pair = dynamic.get();
        if (pair.isPresent()) {
          return pair;
        }
      } catch (KubeconfigException e) {
        // The plugin failed: the handshake goes on with the kubeconfig's own certificate, if any;
        // the failure is reported again by the next request's credentials.
      }
    }
    return Optional.ofNullable(fixed);
  }

  private Pair pairOf(String alias) {
    if (DYNAMIC.equals(alias) && dynamic != null) {
      try {
        return dynamic.get().orElse(null);
      } catch (KubeconfigException e) {
        return null;
      }
    }
    return STATIC.equals(alias) ? fixed : null;
  }

  private String alias() {
    Optional<Pair> pair = current();
    if (pair.isEmpty()) {
      return null;
    }
    return pair.get() == fixed ? STATIC : DYNAMIC;
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    String alias = alias();
    return alias == null ? null : new String[] {alias};
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return alias();
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return alias();
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return null;
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    Pair pair = pairOf(alias);
    return pair == null ? null : pair.chain().toArray(X509Certificate[]::new);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    Pair pair = pairOf(alias);
    return pair == null ? null : pair.key();
  }
}
