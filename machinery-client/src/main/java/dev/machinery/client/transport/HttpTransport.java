package dev.machinery.client.transport;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A {@link Transport} on the JDK's {@link HttpClient}: HTTP/2 over TLS (ALPN chooses, HTTP/1.1 when
 * the server offers only that), HTTP/1.1 over plain HTTP. Each request gets the credentials' {@code
 * Authorization} header, the impersonation headers and the user agent; a 401 asks the credentials
 * to {@link Credentials#refresh() refresh} (an exec plugin's new token) and, when they did, sends
 * the request once more. Bodies of answers are streamed; a streaming request (a watch) has no
 * request timeout.
 *
 * <p>Immutable once built and safe for concurrent use.
 */
public final class HttpTransport implements Transport {
  /** The user agent when none is set. */
  public static final String DEFAULT_USER_AGENT = "machinery-client/0.1 (java)";

  private final HttpClient client;
  private final URI base;
  private final Credentials credentials;
  private final Map<String, List<String>> impersonation;
  private final String userAgent;
  private final Duration requestTimeout;
  private volatile boolean closed;

  /**
   * Where the {@code Authorization} header of each request comes from: a fixed bearer token, a
   * token file read again when it changes, an exec plugin's credential. Implementations must be
   * safe for concurrent use.
   */
  public interface Credentials {
    /** No credentials: no {@code Authorization} header. */
    Credentials NONE = Optional::empty;

    /**
     * Returns the header's value for the next request.
     *
     * @return such as {@code Bearer abc}, or empty for none
     */
    Optional<String> authorization();

    /**
     * Called when the server answered 401: obtains new credentials if it can. The default cannot.
     *
     * @return true when new credentials are ready and the request should be sent again
     */
    default boolean refresh() {
      return false;
    }

    /**
     * Credentials from a supplier that is asked on every request and never refreshed.
     *
     * @param supplier the header's value, or empty
     * @return the credentials
     */
    static Credentials of(Supplier<Optional<String>> supplier) {
      Objects.requireNonNull(supplier, "supplier");
      return supplier::get;
    }

    /**
     * A fixed bearer token.
     *
     * @param token the token
     * @return the credentials
     */
    static Credentials bearerToken(String token) {
      if (token == null || token.isBlank()) {
        throw new IllegalArgumentException("token must not be empty");
      }
      Optional<String> header = Optional.of("Bearer " + token);
      return () -> header;
    }
  }

  private HttpTransport(Builder builder) {
    HttpClient.Builder http =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(builder.connectTimeout);
    boolean tls = builder.base.getScheme().equalsIgnoreCase("https");
    http.version(tls ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);
    SSLContext context;
    try {
      context = builder.sslContext != null ? builder.sslContext : SSLContext.getDefault();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no default TLS context", e);
    }
    http.sslContext(context);
    SSLParameters parameters = context.getDefaultSSLParameters();
    if (builder.tlsServerName != null) {
      // The JDK's client keeps these names for a URI whose host is an IP address (it sends none
      // of its own then), and its trust manager checks the certificate against the SNI name.
      parameters.setServerNames(List.of(new SNIHostName(builder.tlsServerName)));
    }
    http.sslParameters(parameters);
    this.client = http.build();
    String path = builder.base.getRawPath();
    this.base =
        URI.create(
            builder.base.getScheme()
                + "://"
                + builder.base.getRawAuthority()
                + (path == null || path.equals("/") ? "" : stripSlash(path)));
    this.credentials = builder.credentials;
    this.impersonation = Map.copyOf(builder.impersonation);
    this.userAgent = builder.userAgent;
    this.requestTimeout = builder.requestTimeout;
  }

  private static String stripSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  /**
   * Starts building a transport to a server.
   *
   * @param base the server's URI, {@code https://host:port} (a path prefix is kept)
   * @return the builder
   * @throws IllegalArgumentException when the URI is not http or https with a host
   */
  public static Builder builder(URI base) {
    return new Builder(base);
  }

  /**
   * Returns the server's URI.
   *
   * @return the URI, without a trailing slash
   */
  public URI base() {
    return base;
  }

  @Override
  public TransportResponse send(TransportRequest request) throws IOException {
    if (closed) {
      throw new IOException("the transport is closed");
    }
    Optional<String> authorization = credentials.authorization();
    TransportResponse response = exchange(request, authorization);
    if (response.status() == 401 && credentials.refresh()) {
      response.close();
      response = exchange(request, credentials.authorization());
    }
    return response;
  }

  private TransportResponse exchange(TransportRequest request, Optional<String> authorization)
      throws IOException {
    URI uri = URI.create(base + request.encodedPathAndQuery());
    HttpRequest.BodyPublisher body =
        request.body().length == 0
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(request.body());
    HttpRequest.Builder http = HttpRequest.newBuilder(uri).method(request.method(), body);
    if (!request.streaming() && requestTimeout != null) {
      http.timeout(requestTimeout);
    }
    request.headers().forEach((name, values) -> values.forEach(v -> http.header(name, v)));
    authorization.ifPresent(value -> http.setHeader("Authorization", value));
    impersonation.forEach((name, values) -> values.forEach(v -> http.header(name, v)));
    http.setHeader("User-Agent", userAgent);
    HttpResponse<java.io.InputStream> response;
    try {
      response = client.send(http.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException("interrupted while waiting for " + uri);
      interrupted.initCause(e);
      throw interrupted;
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return new TransportResponse(response.statusCode(), response.headers().map(), response.body());
  }

  /** Marks the transport closed; the JDK's client releases its connections when unreferenced. */
  @Override
  public void close() {
    closed = true;
  }

  /** Collects a transport's settings. Not thread-safe; build once. */
  public static final class Builder {
    private final URI base;
    private SSLContext sslContext;
    private String tlsServerName;
    private Credentials credentials = Credentials.NONE;
    private final Map<String, List<String>> impersonation = new LinkedHashMap<>();
    private String userAgent = DEFAULT_USER_AGENT;
    private Duration connectTimeout = Duration.ofSeconds(30);
    private Duration requestTimeout;

    private Builder(URI base) {
      Objects.requireNonNull(base, "base");
      String scheme = base.getScheme();
      if (scheme == null
          || !(scheme.equalsIgnoreCase("https") || scheme.equalsIgnoreCase("http"))
          || base.getHost() == null) {
        throw new IllegalArgumentException(
            "server: \"" + base + "\" is not an http or https URI with a host");
      }
      if (base.getRawQuery() != null || base.getRawFragment() != null) {
        throw new IllegalArgumentException(
            "server: \"" + base + "\" must not have a query or fragment");
      }
      this.base = base;
    }

    /**
     * Sets the TLS context: the trusted certificate authorities and the client's certificate.
     * Without one, the JDK's default context (its trusted authorities) is used.
     *
     * @param context the context
     * @return this builder
     */
    public Builder sslContext(SSLContext context) {
      this.sslContext = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * Sets the name the server's certificate is checked against and sent as SNI, instead of the
     * URI's host (kubeconfig's {@code tls-server-name}): for a server reached by IP address whose
     * certificate names it by DNS name.
     *
     * @param name a DNS name
     * @return this builder
     * @throws IllegalArgumentException when the name is not a valid host name, or the URI's host is
     *     a DNS name: the JDK's client then sends that name and checks the certificate against it,
     *     whatever is set here
     */
    public Builder tlsServerName(String name) {
      if (!base.getScheme().equalsIgnoreCase("https")) {
        throw new IllegalArgumentException(
            "tlsServerName: the server \"" + base + "\" is not https");
      }
      if (!isIpLiteral(base.getHost())) {
        throw new IllegalArgumentException(
            "tlsServerName: the server \""
                + base
                + "\" names its host by DNS name, which the JDK's HTTP client sends and checks"
                + " instead; give the server's IP address in the URI");
      }
      try {
        new SNIHostName(Objects.requireNonNull(name, "name"));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "tlsServerName: \"" + name + "\" is not a host name: " + e.getMessage(), e);
      }
      this.tlsServerName = name;
      return this;
    }

    private static boolean isIpLiteral(String host) {
      if (host.startsWith("[")) {
        return true;
      }
      return host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }

    /**
     * Sets where the {@code Authorization} header comes from.
     *
     * @param credentials the credentials
     * @return this builder
     */
    public Builder credentials(Credentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /**
     * Sends a fixed bearer token.
     *
     * @param token the token
     * @return this builder
     */
    public Builder bearerToken(String token) {
      return credentials(Credentials.bearerToken(token));
    }

    /**
     * Acts as another user ({@code Impersonate-User}, {@code Impersonate-Group}, {@code
     * Impersonate-Extra-*}), as kubectl's {@code --as} and {@code --as-group} do.
     *
     * @param user the user's name
     * @param groups the groups
     * @param extra extra fields, by key
     * @return this builder
     */
    public Builder impersonate(String user, List<String> groups, Map<String, List<String>> extra) {
      if (user == null || user.isEmpty()) {
        throw new IllegalArgumentException("impersonate: the user must not be empty");
      }
      impersonation.clear();
      impersonation.put("Impersonate-User", List.of(user));
      if (!groups.isEmpty()) {
        impersonation.put("Impersonate-Group", List.copyOf(groups));
      }
      extra.forEach(
          (key, values) -> {
            List<String> copy = new ArrayList<>(values);
            impersonation.put("Impersonate-Extra-" + encodeExtraKey(key), copy);
          });
      return this;
    }

    /** Percent-encodes an extra key as client-go does for the header name. */
    private static String encodeExtraKey(String key) {
      StringBuilder out = new StringBuilder();
      for (byte b : key.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
        int c = b & 0xff;
        boolean legal =
            (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || "!#$&'*+-.^_`|~".indexOf(c) >= 0;
        if (legal) {
          out.append((char) c);
        } else {
          out.append('%').append(String.format(java.util.Locale.ROOT, "%02X", c));
        }
      }
      return out.toString();
    }

    /**
     * Sets the user agent.
     *
     * @param userAgent the user agent
     * @return this builder
     */
    public Builder userAgent(String userAgent) {
      if (userAgent == null || userAgent.isBlank()) {
        throw new IllegalArgumentException("userAgent must not be empty");
      }
      this.userAgent = userAgent;
      return this;
    }

    /**
     * Sets how long connecting may take (30 seconds by default).
     *
     * @param timeout the timeout, positive
     * @return this builder
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connectTimeout");
      return this;
    }

    /**
     * Sets how long a request may wait for its answer's headers, watches excepted (none by default,
     * as client-go's {@code Timeout} of 0).
     *
     * @param timeout the timeout, positive
     * @return this builder
     */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive(timeout, "requestTimeout");
      return this;
    }

    private static Duration positive(Duration d, String name) {
      if (d == null || d.isZero() || d.isNegative()) {
        throw new IllegalArgumentException(name + " must be positive, got " + d);
      }
      return d;
    }

    /**
     * Builds the transport.
     *
     * @return the transport
     */
    public HttpTransport build() {
      return new HttpTransport(this);
    }
  }
}
