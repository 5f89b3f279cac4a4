package dev.machinery.client;

import dev.machinery.client.config.ClientConfig;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.client.transport.Transport;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.LazyRESTMapper;
import dev.machinery.restmapper.RESTMapper;
import dev.machinery.restmapper.RESTMapping;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.protobuf.ProtobufEncoding;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A client of a Kubernetes-style API server: client-go's REST, dynamic and typed clients over one
 * {@link Transport}. {@link #resources(Class)} speaks for a class of the client's Scheme (its kind
 * from the Scheme, its resource from the REST mapper), {@link #resources(GroupVersionResource)} and
 * {@link #resources(GroupVersionKind)} for {@code Unstructured} objects. Every request takes a
 * token of the {@link RateLimiter} (client-go's 5 a second, burst 10, unless set), is retried on
 * 429 and 5xx answers that carry {@code Retry-After} (at most 10 times), and hands the server's
 * {@code Warning} headers to the {@link WarningHandler}. Resources are found from the server's
 * discovery (aggregated when served), read on first use and read again, at most once per refresh
 * interval, when a kind or resource is unknown.
 *
 * <pre>{@code
 * try (Client client = Client.builder(transport).scheme(scheme).build()) {
 *   Widget w = client.resources(Widget.class).inNamespace("default").get("w1");
 * }
 * }</pre>
 *
 * <p>Immutable once built and safe for concurrent use by any number of threads; {@link #close()}
 * closes the transport.
 */
public final class Client implements AutoCloseable {
  private final Transport transport;
  private final Scheme scheme;
  private final Codecs codecs;
  private final Requests requests;
  private final DiscoveryClient discovery;
  private final RESTMapper mapper;

  private Client(Builder builder) {
    this.transport = builder.transport;
    this.scheme = builder.scheme;
    CodecFactory metaFactory =
        CodecFactory.create(
            DiscoveryV2.addToScheme(MetaV1.addToScheme(Scheme.builder())).build(), builder.limits);
    this.codecs =
        new Codecs(
            scheme,
            CodecFactory.create(scheme, builder.limits),
            metaFactory,
            builder.protobufEncoding != null
                ? builder.protobufEncoding
                : builder.protobuf ? ProtobufCodec.create(scheme, builder.limits) : null,
            builder.limits);
    this.requests =
        new Requests(
            transport,
            codecs,
            builder.rateLimiter,
            builder.maxRetries,
            builder.warningHandler,
            Requests.SLEEP);
    this.discovery = new DiscoveryClient(requests, codecs);
    this.mapper =
        builder.restMapper != null
            ? builder.restMapper
            : new LazyRESTMapper(discovery::freshMapper, builder.discoveryRefreshInterval);
    discovery.attach(mapper);
  }

  /**
   * Starts building a client over a transport.
   *
   * @param transport the transport, such as an {@link dev.machinery.client.transport.HttpTransport}
   * @return the builder
   */
  public static Builder builder(Transport transport) {
    return new Builder(transport);
  }

  /**
   * Returns a builder of a client over HTTP for a configuration (a kubeconfig context, a pod's
   * service account, or one built in code): its transport from {@link
   * dev.machinery.client.transport.HttpTransport#forConfig}, its rate limits the configuration's.
   *
   * @param config the configuration
   * @return the builder
   * @throws IllegalArgumentException when the configuration's transport settings are refused (see
   *     {@link dev.machinery.client.transport.HttpTransport#forConfig})
   */
  public static Builder builder(ClientConfig config) {
    return new Builder(HttpTransport.forConfig(config).build())
        .rateLimit(config.qps(), config.burst());
  }

  /**
   * Returns the client of a typed class's resource: the class's kind from the Scheme, its resource
   * and scope from the REST mapper (on first use).
   *
   * @param type a class the Scheme registers under exactly one kind
   * @param <T> the class
   * @return the client, in no namespace
   * @throws IllegalArgumentException when the Scheme registers the class under no kind or several
   */
  public <T> ResourceClient<T> resources(Class<T> type) {
    Objects.requireNonNull(type, "type");
    List<GroupVersionKind> kinds = scheme.kindsFor(type);
    if (kinds.size() != 1) {
      throw new IllegalArgumentException(
          "class "
              + type.getName()
              + (kinds.isEmpty()
                  ? " is not registered in the client's Scheme"
                  : " is registered as "
                      + kinds.size()
                      + " kinds "
                      + kinds
                      + "; name one with"
                      + " resources(GroupVersionKind)"));
    }
    GroupVersionKind kind = kinds.get(0);
    return new RestResourceClient<>(
        this::mappingForKind, kind, ObjectKind.typed(type, kind, codecs), requests, codecs, "");
  }

  /**
   * Returns the client of a resource's objects as {@code Unstructured}.
   *
   * @param resource the resource, such as {@code apps/v1, Resource=deployments}
   * @return the client, in no namespace
   */
  public ResourceClient<Unstructured> resources(GroupVersionResource resource) {
    Objects.requireNonNull(resource, "resource");
    return new RestResourceClient<>(
        ignored -> mappingForResource(resource),
        null,
        ObjectKind.unstructured(codecs),
        requests,
        codecs,
        "");
  }

  /**
   * Returns the client of a kind's objects as {@code Unstructured}, its resource from the REST
   * mapper.
   *
   * @param kind the kind, such as {@code apps/v1, Kind=Deployment}
   * @return the client, in no namespace
   */
  public ResourceClient<Unstructured> resources(GroupVersionKind kind) {
    Objects.requireNonNull(kind, "kind");
    return new RestResourceClient<>(
        this::mappingForKind, kind, ObjectKind.unstructured(codecs), requests, codecs, "");
  }

  private RESTMapping mappingForKind(GroupVersionKind kind) {
    return mapper.restMapping(GroupKind.of(kind.group(), kind.kind()), kind.version());
  }

  private RESTMapping mappingForResource(GroupVersionResource resource) {
    GroupVersionResource full = mapper.resourceFor(resource);
    GroupVersionKind kind = mapper.kindFor(full);
    for (RESTMapping mapping :
        mapper.restMappings(GroupKind.of(kind.group(), kind.kind()), kind.version())) {
      if (mapping.resource().equals(full)) {
        return mapping;
      }
    }
    return mapper.restMapping(GroupKind.of(kind.group(), kind.kind()), kind.version());
  }

  /**
   * Returns the discovery client: the server's groups and resources, and the REST mapper built from
   * them.
   *
   * @return the discovery client
   */
  public DiscoveryClient discovery() {
    return discovery;
  }

  /**
   * Returns the REST mapper the client finds resources with.
   *
   * @return the mapper
   */
  public RESTMapper restMapper() {
    return mapper;
  }

  /**
   * Returns the Scheme.
   *
   * @return the Scheme
   */
  public Scheme scheme() {
    return scheme;
  }

  /** Closes the transport. */
  @Override
  public void close() {
    transport.close();
  }

  /** Collects a client's settings. Not thread-safe; build once. */
  public static final class Builder {
    private final Transport transport;
    private Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
    private WarningHandler warningHandler = WarningHandler.NONE;
    private RateLimiter rateLimiter =
        RateLimiter.tokenBucket(RateLimiter.DEFAULT_QPS, RateLimiter.DEFAULT_BURST);
    private int maxRetries = Requests.DEFAULT_MAX_RETRIES;
    private boolean protobuf;
    private ProtobufEncoding protobufEncoding;
    private RESTMapper restMapper;
    private Duration discoveryRefreshInterval = LazyRESTMapper.DEFAULT_MIN_REFRESH_INTERVAL;
    private CodecLimits limits = CodecLimits.DEFAULTS;

    private Builder(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
    }

    /**
     * Sets the Scheme typed classes are found in; by default only the {@code meta.k8s.io/v1} types,
     * enough for {@code Unstructured} objects.
     *
     * @param scheme the Scheme
     * @return this builder
     */
    public Builder scheme(Scheme scheme) {
      this.scheme = Objects.requireNonNull(scheme, "scheme");
      return this;
    }

    /**
     * Sets the handler of the server's warnings; by default they are dropped.
     *
     * @param handler the handler
     * @return this builder
     */
    public Builder warningHandler(WarningHandler handler) {
      this.warningHandler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /**
     * Sets a token bucket of {@code qps} requests a second and {@code burst} at once (client-go's
     * {@code QPS} and {@code Burst}; 5 and 10 by default).
     *
     * @param qps requests a second, above 0
     * @param burst requests at once, at least 1
     * @return this builder
     * @throws IllegalArgumentException when qps or burst is out of range
     */
    public Builder rateLimit(float qps, int burst) {
      this.rateLimiter = RateLimiter.tokenBucket(qps, burst);
      return this;
    }

    /**
     * Sets the rate limiter ({@link RateLimiter#unlimited()} for none).
     *
     * @param limiter the limiter
     * @return this builder
     */
    public Builder rateLimiter(RateLimiter limiter) {
      this.rateLimiter = Objects.requireNonNull(limiter, "limiter");
      return this;
    }

    /**
     * Sets how many times a request answered with 429 or 5xx and {@code Retry-After} is sent again
     * (10 by default, as client-go; 0 never retries).
     *
     * @param maxRetries the count, at least 0
     * @return this builder
     * @throws IllegalArgumentException when negative
     */
    public Builder maxRetries(int maxRetries) {
      if (maxRetries < 0) {
        throw new IllegalArgumentException("maxRetries must not be negative, got " + maxRetries);
      }
      this.maxRetries = maxRetries;
      return this;
    }

    /**
     * Sends and asks for Kubernetes' protobuf ({@code application/vnd.kubernetes.protobuf}) for
     * single objects of typed classes the library's protobuf codec can encode, JSON otherwise
     * (lists, watches, {@code Unstructured} objects, patches). Off by default.
     *
     * @param protobuf whether to use protobuf
     * @return this builder
     */
    public Builder protobuf(boolean protobuf) {
      this.protobuf = protobuf;
      return this;
    }

    /**
     * Sends and asks for Kubernetes' protobuf for single objects of the typed classes an encoding
     * can write, JSON otherwise: for Kubernetes' built-in kinds, {@code machinery-api}'s {@code
     * KubernetesProtobuf} made over a codec factory of this client's Scheme.
     *
     * @param encoding the encoding
     * @return this builder
     */
    public Builder protobuf(ProtobufEncoding encoding) {
      this.protobufEncoding = Objects.requireNonNull(encoding, "encoding");
      return this;
    }

    /**
     * Sets the REST mapper instead of the one read from discovery.
     *
     * @param mapper the mapper
     * @return this builder
     */
    public Builder restMapper(RESTMapper mapper) {
      this.restMapper = Objects.requireNonNull(mapper, "mapper");
      return this;
    }

    /**
     * Sets how old the discovery-built mapper must be before a miss reads discovery again (10
     * seconds by default; zero reads it on every miss).
     *
     * @param interval the interval, not negative
     * @return this builder
     */
    public Builder discoveryRefreshInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException(
            "discoveryRefreshInterval must not be negative, got " + interval);
      }
      this.discoveryRefreshInterval = interval;
      return this;
    }

    /**
     * Sets the limits responses are decoded under.
     *
     * @param limits the limits
     * @return this builder
     */
    public Builder codecLimits(CodecLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * Builds the client.
     *
     * @return the client
     */
    public Client build() {
      return new Client(this);
    }
  }
}
