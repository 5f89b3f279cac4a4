package dev.machinery.apiserver.http;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A serving key manager that reads the certificate and key again when their files change: a
 * handshake looks at the files' modification times and sizes (at most once in {@link
 * TlsConfig.ServingFiles#checkEvery()}), and after a change reads both, checks that the key fits
 * the certificate, and serves the new pair from then on. Files that cannot be read leave the last
 * good pair in use, with a warning, until they change again.
 *
 * <p>The aliases it hands out name the pair's generation, so that a handshake that chose its alias
 * before a reload still gets the chain and key of one pair. Thread-safe.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingKeyManager.class);

  private final TlsConfig config;
  private final TlsConfig.ServingFiles files;
  private final Map<Integer, X509ExtendedKeyManager> generations = new ConcurrentHashMap<>();
  private volatile int generation;
  private long nextCheck;
  private String seen;

  ReloadingKeyManager(TlsConfig config, TlsConfig.ServingFiles files) {
    this.config = config;
    this.files = files;
    this.generations.put(0, config.keyManager());
    this.seen = stamp();
    this.nextCheck = System.nanoTime() + files.checkEvery().toNanos();
  }

  /** The files' modification times and sizes, or why they could not be read. */
  private String stamp() {
    return stamp(files.certFile()) + "|" + stamp(files.keyFile());
  }

  private static String stamp(Path file) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return attributes.lastModifiedTime().toMillis() + ":" + attributes.size();
    } catch (IOException e) {
      return "unreadable";
    }
  }

  /** The current generation, after reading the files again if it is time and they changed. */
  private int current() {
    synchronized (this) {
      long now = System.nanoTime();
      if (now - nextCheck < 0) {
        return generation;
      }
      nextCheck = now + files.checkEvery().toNanos();
      String stamp = stamp();
      if (stamp.equals(seen)) {
        return generation;
      }
      seen = stamp;
      try {
        List<X509Certificate> chain = TlsConfig.readCertificates(files.certFile());
        PrivateKey key = TlsConfig.readPrivateKey(files.keyFile());
        TlsConfig.checkPair(chain.get(0), key, files.certFile(), files.keyFile());
        X509ExtendedKeyManager loaded =
            new TlsConfig(chain, key, config.clientCAs(), config.sniCertificates()).keyManager();
        int next = generation + 1;
        generations.put(next, loaded);
        generation = next;
        generations.keySet().removeIf(g -> g < next - 1);
        LOG.info(
            "serving certificate reloaded from {}: {}",
            files.certFile(),
            chain.get(0).getSubjectX500Principal().getName());
      } catch (IOException | RuntimeException e) {
        LOG.warn("serving certificate not reloaded, the last good one is kept: {}", e.getMessage());
      }
      return generation;
    }
  }

  private static String alias(int generation, String alias) {
    return alias == null ? null : generation + "/" + alias;
  }

  /** The key manager of an alias's generation, or null when it is no longer held. */
  private X509ExtendedKeyManager of(String alias) {
    int slash = alias == null ? -1 : alias.indexOf('/');
    if (slash < 0) {
      return null;
    }
    try {
      return generations.get(Integer.parseInt(alias.substring(0, slash)));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    int g = current();
    X509ExtendedKeyManager keys = generations.get(g);
    return alias(g, keys.chooseEngineServerAlias(keyType, issuers, engine));
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    int g = current();
    X509ExtendedKeyManager keys = generations.get(g);
    return alias(g, keys.chooseServerAlias(keyType, issuers, socket));
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    int g = current();
    String[] aliases = generations.get(g).getServerAliases(keyType, issuers);
    if (aliases == null) {
      return null;
    }
    String[] named = new String[aliases.length];
    for (int i = 0; i < aliases.length; i++) {
      named[i] = alias(g, aliases[i]);
    }
    return named;
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    X509ExtendedKeyManager keys = of(alias);
    return keys == null ? null : keys.getCertificateChain(alias.substring(alias.indexOf('/') + 1));
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    X509ExtendedKeyManager keys = of(alias);
    return keys == null ? null : keys.getPrivateKey(alias.substring(alias.indexOf('/') + 1));
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }
}
