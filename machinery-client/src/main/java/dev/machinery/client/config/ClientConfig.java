package dev.machinery.client.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * How a client reaches and authenticates to one API server: client-go's {@code rest.Config}. The
 * server's URI; the TLS context (the certificate authorities that are trusted, or every server with
 * {@code insecure-skip-tls-verify}, and the client certificate, fixed or from an exec plugin); the
 * name the server's certificate is checked against when it is not the URI's host ({@code
 * tls-server-name}); a proxy; the credentials; impersonation; the namespace of the context; and the
 * client-side rate limits (client-go's defaults: 5 queries a second, bursts of 10).
 *
 * <p>Made by {@link KubeconfigLoader}, {@link InClusterConfig} or {@link #builder()}. Immutable and
 * thread-safe; its {@link CredentialSource} is thread-safe too.
 */
public final class ClientConfig {
  /** client-go's {@code DefaultQPS}. */
  public static final float DEFAULT_QPS = 5.0f;

  /** client-go's {@code DefaultBurst}. */
  public static final int DEFAULT_BURST = 10;

  /** The namespace of a context that names none. */
  public static final String DEFAULT_NAMESPACE = "default";

  private final URI server;
  private final SSLContext sslContext;
  private final boolean insecureSkipTlsVerify;
  private final Optional<String> tlsServerName;
  private final Optional<URI> proxy;
  private final CredentialSource credentials;
  private final Impersonation impersonation;
  private final String namespace;
  private final boolean namespaceExplicit;
  private final float qps;
  private final int burst;
  private final boolean disableCompression;
  private final String contextName;

  private ClientConfig(Builder b, URI server, SSLContext sslContext) {
    this.server = server;
    this.sslContext = sslContext;
    this.insecureSkipTlsVerify = b.insecureSkipTlsVerify;
    this.tlsServerName = Optional.ofNullable(b.tlsServerName).filter(s -> !s.isEmpty());
    this.proxy = Optional.ofNullable(b.proxy);
    this.credentials = b.credentials;
    this.impersonation = b.impersonation;
    this.namespace = b.namespace == null || b.namespace.isEmpty() ? DEFAULT_NAMESPACE : b.namespace;
    this.namespaceExplicit = b.namespaceExplicit;
    this.qps = b.qps;
    this.burst = b.burst;
    this.disableCompression = b.disableCompression;
    this.contextName = b.contextName == null ? "" : b.contextName;
  }

  /**
   * Starts a programmatic configuration.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the server's URI, such as {@code https://10.0.0.1:6443} or {@code
   * https://example.com/prefix}: the kubeconfig's {@code server} without query or fragment, with
   * {@code https://} (or {@code http://} when nothing configures TLS) before a server named without
   * a scheme, as client-go does.
   *
   * @return the URI
   */
  public URI server() {
    return server;
  }

  /**
   * Whether requests go over TLS: the server's scheme is {@code https}.
   *
   * @return true for {@code https}
   */
  public boolean isTls() {
    return "https".equals(server.getScheme());
  }

  /**
   * Returns the TLS context: trust of the configured certificate authorities (which then replace
   * the JDK's), of every server with {@link #insecureSkipTlsVerify()}, or of the JDK's authorities;
   * and the client certificate, if any. A certificate from an exec plugin is asked for at every
   * handshake.
   *
   * @return the context, initialised
   */
  public SSLContext sslContext() {
    return sslContext;
  }

  /**
   * Whether the server's certificate is not verified ({@code insecure-skip-tls-verify}). The
   * transport should then also skip checking the host name.
   *
   * @return true when not verified
   */
  public boolean insecureSkipTlsVerify() {
    return insecureSkipTlsVerify;
  }

  /**
   * Returns the name the server's certificate is verified against, and sent as SNI, instead of the
   * URI's host ({@code tls-server-name}).
   *
   * @return the name, or empty to use the URI's host
   */
  public Optional<String> tlsServerName() {
    return tlsServerName;
  }

  /**
   * Returns the proxy requests go through ({@code proxy-url}: {@code http}, {@code https} or {@code
   * socks5}).
   *
   * @return the proxy's URI, or empty for direct connections (or the JDK's proxy selector)
   */
  public Optional<URI> proxy() {
    return proxy;
  }

  /**
   * Returns where the {@code Authorization} header comes from. For a server over plain HTTP it is
   * {@link CredentialSource#none()} when loaded from a kubeconfig, as client-go sends credentials
   * only over TLS.
   *
   * @return the source
   */
  public CredentialSource credentials() {
    return credentials;
  }

  /**
   * Returns who the client acts as.
   *
   * @return the impersonation, {@link Impersonation#NONE} when none
   */
  public Impersonation impersonation() {
    return impersonation;
  }

  /**
   * Returns the namespace of the context (or of the override, or of the pod), {@code default} when
   * none is named.
   *
   * @return the namespace
   */
  public String namespace() {
    return namespace;
  }

  /**
   * Whether the namespace was given explicitly (an override, as kubectl's {@code --namespace}),
   * rather than taken from the context or defaulted.
   *
   * @return true when overridden
   */
  public boolean namespaceExplicit() {
    return namespaceExplicit;
  }

  /**
   * Returns the queries per second the client's rate limiter allows; a negative value disables the
   * limiter, as in client-go.
   *
   * @return the rate
   */
  public float qps() {
    return qps;
  }

  /**
   * Returns the burst the client's rate limiter allows.
   *
   * @return the burst
   */
  public int burst() {
    return burst;
  }

  /**
   * Whether responses are requested without compression ({@code disable-compression}).
   *
   * @return true when compression is not requested
   */
  public boolean disableCompression() {
    return disableCompression;
  }

  /**
   * Returns the kubeconfig context this configuration was made from.
   *
   * @return the context's name, or an empty string for a programmatic or in-cluster configuration
   */
  public String contextName() {
    return contextName;
  }

  /**
   * Returns a builder holding this configuration's values, to change the namespace, rate limits,
   * impersonation or credentials. Its TLS context is carried over as built, unless the builder is
   * given certificate authorities or a client certificate, which then build a new one.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.server = server.toString();
    b.carriedSslContext = sslContext;
    b.insecureSkipTlsVerify = insecureSkipTlsVerify;
    b.tlsServerName = tlsServerName.orElse(null);
    b.proxy = proxy.orElse(null);
    b.credentials = credentials;
    b.impersonation = impersonation;
    b.namespace = namespace;
    b.namespaceExplicit = namespaceExplicit;
    b.qps = qps;
    b.burst = burst;
    b.disableCompression = disableCompression;
    b.contextName = contextName;
    return b;
  }

  @Override
  public String toString() {
    return "ClientConfig{server="
        + server
        + (contextName.isEmpty() ? "" : ", context=" + contextName)
        + ", namespace="
        + namespace
        + ", credentials="
        + credentials
        + (impersonation.isPresent() ? ", " + impersonation : "")
        + (insecureSkipTlsVerify ? ", insecure-skip-tls-verify" : "")
        + "}";
  }

  /**
   * Collects a configuration. Not thread-safe: one thread builds, then shares the built, immutable
   * {@link ClientConfig}.
   */
  public static final class Builder {
    private String server;
    private List<X509Certificate> certificateAuthorities;
    private List<X509Certificate> clientChain;
    private PrivateKey clientKey;
    private Supplier<Optional<ClientKeys.Pair>> execCertificate;
    private SSLContext sslContext;
    private SSLContext carriedSslContext;
    private boolean insecureSkipTlsVerify;
    private String tlsServerName;
    private URI proxy;
    private CredentialSource credentials = CredentialSource.none();
    private Impersonation impersonation = Impersonation.NONE;
    private String namespace;
    private boolean namespaceExplicit;
    private float qps = DEFAULT_QPS;
    private int burst = DEFAULT_BURST;
    private boolean disableCompression;
    private String contextName;

    private Builder() {}

    /**
     * Sets the server.
     *
     * @param server the URI, such as {@code https://127.0.0.1:6443}
     * @return this builder
     */
    public Builder server(URI server) {
      this.server = Objects.requireNonNull(server, "server").toString();
      return this;
    }

    /**
     * Sets the server from text, as a kubeconfig's {@code server}; a server without a scheme gets
     * {@code https://} when TLS is configured, {@code http://} otherwise.
     *
     * @param server the server
     * @return this builder
     */
    public Builder server(String server) {
      this.server = Objects.requireNonNull(server, "server");
      return this;
    }

    /**
     * Trusts the certificate authorities of a PEM text ({@code certificate-authority-data}), in
     * place of the JDK's.
     *
     * @param pem one or more {@code CERTIFICATE} blocks
     * @return this builder
     * @throws KubeconfigException when the text holds no valid certificate
     */
    public Builder certificateAuthority(byte[] pem) {
      try {
        return certificateAuthority(Pems.certificates(pem));
      } catch (IllegalArgumentException e) {
        throw new KubeconfigException(
            "",
            "certificate-authority-data",
            "unable to read the certificate authority: " + e.getMessage(),
            e);
      }
    }

    /**
     * Trusts certificate authorities, in place of the JDK's.
     *
     * @param certificates the authorities' certificates, at least one
     * @return this builder
     */
    public Builder certificateAuthority(List<X509Certificate> certificates) {
      if (certificates.isEmpty()) {
        throw new KubeconfigException(
            "", "certificate-authority-data", "no certificate authority given");
      }
      this.certificateAuthorities = List.copyOf(certificates);
      return this;
    }

    /**
     * Presents a client certificate read from PEM ({@code client-certificate-data} and {@code
     * client-key-data}); the key may be PKCS#8, PKCS#1 (RSA) or SEC1 (EC), unencrypted.
     *
     * @param certificatePem the certificate, then any intermediates
     * @param keyPem the private key
     * @return this builder
     * @throws KubeconfigException when either cannot be read, or the key is not the certificate's
     */
    public Builder clientCertificate(byte[] certificatePem, byte[] keyPem) {
      List<X509Certificate> chain;
      try {
        chain = Pems.certificates(certificatePem);
      } catch (IllegalArgumentException e) {
        throw new KubeconfigException(
            "",
            "client-certificate-data",
            "unable to read the client certificate: " + e.getMessage(),
            e);
      }
      PrivateKey key;
      try {
        key = Pems.privateKey(keyPem);
      } catch (IllegalArgumentException e) {
        throw new KubeconfigException(
            "", "client-key-data", "unable to read the client key: " + e.getMessage(), e);
      }
      return clientCertificate(chain, key);
    }

    /**
     * Presents a client certificate.
     *
     * @param chain the certificate, then any intermediates
     * @param key its private key
     * @return this builder
     * @throws KubeconfigException when the key is not the certificate's
     */
    public Builder clientCertificate(List<X509Certificate> chain, PrivateKey key) {
      if (chain.isEmpty()) {
        throw new KubeconfigException("", "client-certificate-data", "no client certificate");
      }
      try {
        Pems.checkPair(key, chain.get(0));
      } catch (IllegalArgumentException e) {
        throw new KubeconfigException(
            "",
            "client-key-data",
            "the client key is not the key of the client certificate: " + e.getMessage(),
            e);
      }
      this.clientChain = List.copyOf(chain);
      this.clientKey = key;
      return this;
    }

    Builder execCertificate(Supplier<Optional<ClientKeys.Pair>> source) {
      this.execCertificate = source;
      return this;
    }

    /**
     * Uses a TLS context made elsewhere, in place of one built from the certificate authorities,
     * client certificate and {@link #insecureSkipTlsVerify(boolean)}, which must then not be set.
     *
     * @param context an initialised context
     * @return this builder
     */
    public Builder sslContext(SSLContext context) {
      this.sslContext = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * Skips verifying the server's certificate ({@code insecure-skip-tls-verify}); not allowed
     * together with certificate authorities.
     *
     * @param insecure true to skip
     * @return this builder
     */
    public Builder insecureSkipTlsVerify(boolean insecure) {
      this.insecureSkipTlsVerify = insecure;
      return this;
    }

    /**
     * Sets the name the server's certificate is verified against ({@code tls-server-name}).
     *
     * @param name the name, or {@code null} for the URI's host
     * @return this builder
     */
    public Builder tlsServerName(String name) {
      this.tlsServerName = name;
      return this;
    }

    /**
     * Sets the proxy ({@code proxy-url}).
     *
     * @param proxy an {@code http}, {@code https} or {@code socks5} URI, or {@code null}
     * @return this builder
     * @throws KubeconfigException for another scheme, or a URI without a host
     */
    public Builder proxy(URI proxy) {
      if (proxy != null) {
        String problem = proxyProblem(proxy);
        if (problem != null) {
          throw new KubeconfigException(
              "", "proxy-url", "invalid 'proxy-url' \"" + proxy + "\": " + problem);
        }
      }
      this.proxy = proxy;
      return this;
    }

    /**
     * Sets the credentials.
     *
     * @param source the source, not null
     * @return this builder
     */
    public Builder credentials(CredentialSource source) {
      this.credentials = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * Sends a bearer token.
     *
     * @param token the token
     * @return this builder
     */
    public Builder bearerToken(String token) {
      return credentials(CredentialSource.bearerToken(token));
    }

    /**
     * Sets who the client acts as.
     *
     * @param impersonation the impersonation, not null
     * @return this builder
     */
    public Builder impersonation(Impersonation impersonation) {
      this.impersonation = Objects.requireNonNull(impersonation, "impersonation");
      return this;
    }

    /**
     * Sets the namespace, as kubectl's {@code --namespace} does.
     *
     * @param namespace the namespace, or {@code null} for {@code default}
     * @return this builder
     */
    public Builder namespace(String namespace) {
      this.namespace = namespace;
      this.namespaceExplicit = namespace != null && !namespace.isEmpty();
      return this;
    }

    Builder contextNamespace(String namespace) {
      this.namespace = namespace;
      this.namespaceExplicit = false;
      return this;
    }

    /**
     * Sets the rate limit.
     *
     * @param qps queries per second; negative to disable the limiter
     * @return this builder
     * @throws KubeconfigException when zero or not a number
     */
    public Builder qps(float qps) {
      if (qps == 0 || Float.isNaN(qps)) {
        throw new KubeconfigException(
            "", "qps", "qps " + qps + " is invalid: positive, or negative to disable the limit");
      }
      this.qps = qps;
      return this;
    }

    /**
     * Sets the burst of the rate limit.
     *
     * @param burst the burst, positive
     * @return this builder
     * @throws KubeconfigException when not positive
     */
    public Builder burst(int burst) {
      if (burst <= 0) {
        throw new KubeconfigException("", "burst", "burst " + burst + " is not positive");
      }
      this.burst = burst;
      return this;
    }

    /**
     * Asks for responses without compression ({@code disable-compression}).
     *
     * @param disable true to not ask for compression
     * @return this builder
     */
    public Builder disableCompression(boolean disable) {
      this.disableCompression = disable;
      return this;
    }

    Builder contextName(String name) {
      this.contextName = name;
      return this;
    }

    /**
     * Builds the configuration and its TLS context.
     *
     * @return the configuration
     * @throws KubeconfigException when no server is set, it is not a valid http or https URI, or
     *     certificate authorities are combined with {@code insecure-skip-tls-verify}
     */
    public ClientConfig build() {
      if (server == null || server.isEmpty()) {
        throw new KubeconfigException("", "server", "cluster has no server defined");
      }
      boolean tlsConfigured =
          certificateAuthorities != null
              || clientChain != null
              || insecureSkipTlsVerify
              || sslContext != null;
      URI uri = serverUri(server, tlsConfigured);
      if (insecureSkipTlsVerify && certificateAuthorities != null) {
        throw new KubeconfigException(
            "",
            "insecure-skip-tls-verify",
            "specifying a root certificates file with the insecure flag is not allowed");
      }
      boolean material =
          certificateAuthorities != null || clientChain != null || execCertificate != null;
      SSLContext context;
      if (sslContext != null) {
        if (material || insecureSkipTlsVerify) {
          throw new KubeconfigException(
              "",
              "sslContext",
              "a TLS context cannot be combined with certificate authorities, a client"
                  + " certificate or insecure-skip-tls-verify");
        }
        context = sslContext;
      } else if (carriedSslContext != null && !material) {
        context = carriedSslContext;
      } else {
        context = buildSslContext();
      }
      return new ClientConfig(this, uri, context);
    }

    private SSLContext buildSslContext() {
      try {
        TrustManager[] trust = null;
        if (insecureSkipTlsVerify) {
          trust = new TrustManager[] {TrustAll.INSTANCE};
        } else if (certificateAuthorities != null) {
          KeyStore store = KeyStore.getInstance("PKCS12");
          store.load(null, null);
          int i = 0;
          for (X509Certificate ca : certificateAuthorities) {
            store.setCertificateEntry("ca-" + i++, ca);
          }
          TrustManagerFactory factory =
              TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
          factory.init(store);
          trust = factory.getTrustManagers();
        }
        KeyManager[] keys = null;
        if (clientChain != null || execCertificate != null) {
          ClientKeys.Pair fixed =
              clientChain == null ? null : new ClientKeys.Pair(clientChain, clientKey);
          keys = new KeyManager[] {new ClientKeys(fixed, execCertificate)};
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, trust, null);
        return context;
      } catch (GeneralSecurityException | java.io.IOException e) {
        throw new IllegalStateException("the JDK cannot build a TLS context: " + e, e);
      }
    }
  }

  /** client-go's {@code parseProxyURL}: http, https or socks5, with a host. */
  static String proxyProblem(URI proxy) {
    String scheme = proxy.getScheme() == null ? "" : proxy.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") && !scheme.equals("socks5")) {
      return "unsupported scheme \"" + scheme + "\", must be http, https, or socks5";
    }
    if (proxy.getHost() == null) {
      return "the URL has no host";
    }
    return null;
  }

  /** client-go's {@code DefaultServerURL}, and the query and fragment dropped. */
  static URI serverUri(String server, boolean tlsConfigured) {
    String text = server;
    if (!text.contains("://")) {
      text = (tlsConfigured ? "https://" : "http://") + text;
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new KubeconfigException(
          "", "server", "the server \"" + server + "\" is not a URL: " + e.getMessage(), e);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new KubeconfigException(
          "",
          "server",
          "the server \""
              + server
              + "\" has the scheme \""
              + scheme
              + "\"; http or https expected");
    }
    if (uri.getHost() == null) {
      throw new KubeconfigException("", "server", "the server \"" + server + "\" has no host");
    }
    try {
      return new URI(
          scheme,
          uri.getRawUserInfo() == null ? null : uri.getUserInfo(),
          uri.getHost(),
          uri.getPort(),
          uri.getPath(),
          null,
          null);
    } catch (URISyntaxException e) {
      throw new KubeconfigException(
          "", "server", "the server \"" + server + "\" is not a URL: " + e.getMessage(), e);
    }
  }
}
