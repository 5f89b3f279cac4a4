package dev.machinery.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.admission.AdmissionChain;
import dev.machinery.apiserver.admission.AdmissionPlugin;
import dev.machinery.apiserver.admission.NamespaceLifecycle;
import dev.machinery.apiserver.apiextensions.CustomResourceDefinitions;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.audit.AuditSink;
import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.AccessReviews;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.authorization.RuleResolver;
import dev.machinery.apiserver.authorization.SelfSubjectReviews;
import dev.machinery.apiserver.authorization.v1.AuthorizationV1;
import dev.machinery.apiserver.discovery.Discovery;
import dev.machinery.apiserver.endpoints.PublishedDocuments;
import dev.machinery.apiserver.endpoints.ResourceHandler;
import dev.machinery.apiserver.endpoints.ResourceRegistry;
import dev.machinery.apiserver.endpoints.Router;
import dev.machinery.apiserver.endpoints.Served;
import dev.machinery.apiserver.endpoints.ServedResources;
import dev.machinery.apiserver.endpoints.WatchStreams;
import dev.machinery.apiserver.filters.AuditFilter;
import dev.machinery.apiserver.filters.Failures;
import dev.machinery.apiserver.filters.HandlerChain;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.negotiation.Negotiator;
import dev.machinery.apiserver.negotiation.ProtobufBodies;
import dev.machinery.apiserver.rbac.BootstrapPolicy;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.AdmissionRunner;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.registry.rbac.RbacSupport;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.apiserver.registry.rest.UnstructuredConversion;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kubernetes-style API server over a Scheme: discovery (legacy and aggregated), {@code /version},
 * health checks, OpenAPI v2 and v3, and for each {@link ResourceDefinition} in each enabled version
 * the resource endpoints (get, list with selectors and pages, watch, create, update, patch, delete,
 * deletecollection, dry runs, field validation, the {@code status} and {@code scale} subresources),
 * with objects kept in a {@link Storage} in their storage version.
 *
 * <p>It is an {@link ApiHandler}: {@link #handle} answers one request, whatever carries it; {@link
 * #serve} runs it on the JDK's HTTP server, over HTTPS when given a {@link TlsConfig}. Each request
 * is first authenticated by the builder's {@link Authenticator} (everyone is {@code
 * system:anonymous} without one); bad credentials are answered 401. Then the builder's {@link
 * Authorizer}s decide whether it may be made ({@link Builder#authorizer}, {@link Builder#rbac()};
 * everything is allowed without any); a refusal is answered 403 in kube-apiserver's words. The
 * {@code authorization.k8s.io/v1} access reviews answer {@code kubectl auth can-i}. Every write
 * passes through the admission chain ({@link Builder#admission}; {@link
 * dev.machinery.apiserver.admission.NamespaceLifecycle} first when Namespaces are served), and the
 * requests answered at once may be limited ({@link Builder#maxRequestsInFlight}). {@code
 * SelfSubjectReview} ({@code authentication.k8s.io} v1, v1beta1 and v1alpha1) tells a client who it
 * is, for {@code kubectl auth whoami}. Every failure is answered with a {@code Status} of
 * Kubernetes' reason and code. With {@link Builder#customResourceDefinitions()} it serves
 * CustomResourceDefinitions and the kinds they define, added and removed while it runs: every
 * request looks its resource up in one registry of served resources, and discovery and OpenAPI are
 * rebuilt and published whole on each change. Thread-safe: its configuration is immutable after
 * {@link Builder#build()}; the served resources and the documents describing them change atomically
 * for later requests. It runs threads of its own (the CustomResourceDefinition controller, a watch
 * cache for each resource in use) until {@link #close()}.
 */
public final class ApiServer implements ApiHandler, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
  private static final GroupVersion AUTHENTICATION_V1 =
      GroupVersion.of("authentication.k8s.io", "v1");

  /** The default request body limit, kube-apiserver's 3 MiB. */
  public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 3L * 1024 * 1024;

  /** The changes each resource's watch cache keeps by default. */
  public static final int DEFAULT_WATCH_CACHE_SIZE = 1_000;

  /**
   * The most header fields a request may have: more are answered {@code 431} with a Status, before
   * anything else is read.
   */
  public static final int MAX_REQUEST_HEADER_FIELDS = 256;

  /**
   * The user in-process requests are made as with {@link #handleAs}, kube-apiserver's loopback
   * user: {@code system:apiserver} in {@code system:masters}.
   */
  public static final UserInfo LOOPBACK_USER = ResourceStore.LOOPBACK.user();

  private final Scheme scheme;
  private final ServedResources served;
  private final PublishedDocuments documents;
  private final CustomResourceDefinitions customResourceDefinitions;
  private final Codec json;
  private final Storage storage;
  private final Consumer<String> requestLog;
  private final TlsConfig tls;
  private final Authorizer authorizer;
  private final AccessReviews accessReviews;
  private final RbacSupport rbac;
  private final boolean readsWithoutWaiting;
  private final Failures failures;
  private final HandlerChain chain;

  private ApiServer(Builder builder) {
    this.readsWithoutWaiting = builder.readsWithoutWaiting;
    this.tls = builder.tls;
    Scheme scheme = builder.scheme;
    this.scheme = scheme;
    List<ResourceDefinition> definitions = new ArrayList<>(builder.resources);
    if (builder.rbac) {
      if (!scheme.recognizes(RbacV1.V1.withKind("ClusterRoleBinding"))) {
        throw new IllegalArgumentException(
            "RBAC needs the rbac.authorization.k8s.io/v1 kinds in the Scheme; register them with"
                + " RbacV1.addToScheme(builder)");
      }
      this.rbac = new RbacSupport();
      definitions.addAll(rbac.definitions());
    } else {
      this.rbac = null;
    }
    CodecFactory codecs = CodecFactory.create(scheme);
    this.json = codecs.json();
    this.failures = new Failures(json);
    AdmissionRunner admission = new AdmissionRunner(json);
    this.storage = builder.storage;
    this.requestLog = builder.requestLog;
    ProtobufBodies protobuf = ProtobufBodies.of(ProtobufCodec.create(scheme), json);
    AuditFilter audit =
        builder.auditPolicy == null
            ? null
            : new AuditFilter(
                builder.auditPolicy,
                builder.auditSink,
                builder.maxRequestBodyBytes,
                json,
                protobuf,
                failures);
    Negotiator.Builder negotiatorBuilder = Negotiator.builder(scheme).protobuf(protobuf);
    if (builder.customResourceDefinitions) {
      definitions.add(CustomResourceDefinitions.definition(builder.validationRules));
    }
    ResourceRegistry registry =
        new ResourceRegistry(
            scheme,
            builder.enablement,
            json,
            builder.storage,
            builder.watchCacheSize,
            admission,
            negotiatorBuilder);
    definitions.forEach(registry::addTyped);
    // The reviews are answered by handlers of their own, listed in discovery beside the resources.
    SelfSubjectReviews.discovery().forEach(i -> registry.addDiscoveryOnly(AUTHENTICATION_V1, i));
    AccessReviews.discovery().forEach(i -> registry.addDiscoveryOnly(AuthorizationV1.V1, i));
    builder.unstructured.forEach(
        r -> registry.addUnstructured(r.definition(), r.storageVersion(), r.servedVersions()));
    ResourceStore namespaces = registry.store(GroupKind.of("", "Namespace")).orElse(null);
    this.served = new ServedResources(registry.served());
    negotiatorBuilder.tableConvertors(this.served::table);
    this.documents =
        new PublishedDocuments(
            scheme,
            builder.enablement,
            builder.kubernetesVersion,
            json,
            this.served,
            registry.typedDiscovery(),
            registry.unregisteredDiscovery(),
            builder.openApiSchemas,
            builder.openApiComponents);
    List<AdmissionPlugin> plugins = new ArrayList<>();
    if (namespaces != null) {
      plugins.add(new NamespaceLifecycle(admission::namespaceState));
    }
    plugins.addAll(builder.admissionPlugins);
    admission.attach(AdmissionChain.of(plugins), namespaces);
    Negotiator negotiator = negotiatorBuilder.build();
    ResourceHandler resources =
        new ResourceHandler(
            scheme,
            this.served,
            negotiator,
            codecs,
            protobuf,
            builder.maxRequestBodyBytes,
            new WatchStreams(negotiator, json, protobuf, scheme, builder.bookmarkInterval),
            namespaces);
    List<Authorizer> authorizers = new ArrayList<>(builder.authorizers);
    if (rbac != null) {
      authorizers.add(rbac.authorizer());
    }
    if (authorizers.isEmpty()) {
      this.authorizer = Authorizer.alwaysAllow();
      this.accessReviews = new AccessReviews(authorizer, RuleResolver.everything());
    } else {
      // As kube-apiserver: members of system:masters may do anything, whatever the authorizers say.
      List<Authorizer> union = new ArrayList<>();
      union.add(Authorizer.privilegedGroups(BootstrapPolicy.SYSTEM_MASTERS));
      union.addAll(authorizers);
      this.authorizer = Authorizer.union(union);
      this.accessReviews = new AccessReviews(authorizer, RuleResolver.union(authorizers));
    }
    if (rbac != null) {
      rbac.attach(storage, registry.storesOfGroup(RbacV1.GROUP), authorizer);
    }
    this.chain =
        new HandlerChain(
            failures,
            MAX_REQUEST_HEADER_FIELDS,
            builder.authenticator,
            audit,
            authorizer,
            builder.maxRequestsInFlight,
            builder.maxMutatingRequestsInFlight,
            rbac == null ? List.of() : List.of(rbac.aggregationFilter()),
            new Router(
                List.of(
                    r -> SelfSubjectReviews.handle(r.request(), r.user()),
                    r -> accessReviews.handle(r.request(), r.user()),
                    r -> documents.handler().handle(r.request())),
                resources));
    this.customResourceDefinitions =
        registry
            .store(CustomResourceDefinitions.KIND)
            .map(
                crdStore ->
                    CustomResourceDefinitions.start(
                        crdStore,
                        this.served,
                        json,
                        builder.storage,
                        builder.watchCacheSize,
                        builder.validationRules,
                        builder.conversions,
                        documents::publish))
            .orElse(null);
  }

  /** A resource without a class, as {@link Builder#addUnstructuredResource} adds it. */
  private record UnstructuredResource(
      ResourceDefinition definition,
      GroupVersion storageVersion,
      List<GroupVersion> servedVersions) {}

  /**
   * Starts a builder over a scheme in which the served kinds, their list kinds ({@link
   * ResourceList#addToScheme}) and {@code meta.k8s.io/v1} are registered.
   *
   * @param scheme the scheme
   * @return the builder
   */
  public static Builder builder(Scheme scheme) {
    return new Builder(scheme);
  }

  /**
   * Returns the discovery documents the server serves now (they change as CustomResourceDefinitions
   * are established and deleted).
   *
   * @return the discovery
   */
  public Discovery discovery() {
    return documents.discovery();
  }

  /**
   * Returns the storage the server keeps objects in.
   *
   * @return the storage
   */
  public Storage storage() {
    return storage;
  }

  /**
   * Stops the threads the server runs and lets go of what they hold: the CustomResourceDefinition
   * controller's thread ends (waited for, up to ten seconds) and every resource's watch cache is
   * closed (its thread ends, its objects are let go, its watchers end). Close the server's binding
   * first ({@link HttpBinding#close()}), which stops its own threads; the storage given to {@link
   * Builder#storage} and the sinks given to the builder (an audit log) are the caller's to close.
   * Requests made after it are still answered, from the storage, but the definitions created or
   * changed then are not followed. Calling it again does nothing more.
   */
  @Override
  public void close() {
    if (customResourceDefinitions != null) {
      customResourceDefinitions.close();
    }
    java.util.Set<ResourceStore> stores =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Served resource : served.all()) {
      stores.add(resource.store());
    }
    stores.forEach(ResourceStore::close);
  }

  /**
   * True for a GET of one object (not of a subresource, a list or a watch), when the builder
   * declared that reads never wait ({@link Builder#readsWithoutWaiting}).
   *
   * @param request the request, its body unread
   * @return whether it is answered without waiting
   */
  @Override
  public boolean answersWithoutWaiting(ApiRequest request) {
    if (!readsWithoutWaiting || !request.method().equals("GET")) {
      return false;
    }
    String watch = request.parameter("watch");
    if (watch != null && !watch.equals("false") && !watch.equals("0")) {
      return false;
    }
    return RequestInfo.parse(request.path())
        .map(info -> !info.legacyWatch() && info.name() != null && info.subresource() == null)
        .orElse(false);
  }

  @Override
  public ApiResponse handle(ApiRequest request) {
    return chain.handle(RequestContext.received(request, Instant.now()));
  }

  /**
   * Answers a request from inside the process on behalf of a user, without authenticating it, as
   * kube-apiserver's loopback client does (such as a loader of initial objects when anonymous
   * requests are off). Never call it with a request from the network: {@link #handle} is for those.
   *
   * @param user the user the request is made as, such as {@link #LOOPBACK_USER}
   * @param request the request
   * @return the response
   */
  public ApiResponse handleAs(UserInfo user, ApiRequest request) {
    Objects.requireNonNull(user, "user");
    return chain.handleAs(RequestContext.received(request, Instant.now()).withUser(user));
  }

  /**
   * Serves this server over HTTP on the JDK's HTTP server (HTTPS with the builder's {@link
   * Builder#tls}), with the request log the builder was given ({@link
   * Builder#requestLog(boolean)}).
   *
   * @param address where to listen; port 0 picks a free one
   * @return the running binding; close it to stop
   * @throws IOException when the address cannot be bound
   */
  public JdkHttpBinding serve(InetSocketAddress address) throws IOException {
    return JdkHttpBinding.start(this, address, 2048, requestLog, tls);
  }

  /**
   * Starts serving this server over HTTP with a binding of the caller's choice, with the request
   * log and TLS configuration of the builder, such as the Netty binding of {@code
   * machinery-apiserver-netty}.
   *
   * @param address where to listen; port 0 picks a free one
   * @param starter starts the binding
   * @return the running binding
   * @throws IOException when the address cannot be bound
   */
  public HttpBinding serve(InetSocketAddress address, HttpBinding.Starter starter)
      throws IOException {
    return starter.start(this, address, requestLog, tls);
  }

  /** Collects the server's parts. Not thread-safe. */
  public static final class Builder {
    private final Scheme scheme;
    private final List<ResourceDefinition> resources = new ArrayList<>();
    private Enablement enablement = Enablement.all();
    private Storage storage;
    private String kubernetesVersion = "v1.33.0";
    private long maxRequestBodyBytes = DEFAULT_MAX_REQUEST_BODY_BYTES;
    private Duration bookmarkInterval = Duration.ofSeconds(60);
    private int watchCacheSize = DEFAULT_WATCH_CACHE_SIZE;
    private Consumer<String> requestLog;
    private Authenticator authenticator = Authenticator.chain(List.of(), true);
    private TlsConfig tls;
    private final List<Authorizer> authorizers = new ArrayList<>();
    private final List<AdmissionPlugin> admissionPlugins = new ArrayList<>();
    private boolean rbac;
    private int maxRequestsInFlight;
    private boolean readsWithoutWaiting;
    private int maxMutatingRequestsInFlight;
    private boolean customResourceDefinitions;
    private final List<UnstructuredResource> unstructured = new ArrayList<>();
    private final Map<String, UnstructuredConversion> conversions = new LinkedHashMap<>();
    private final Map<GroupVersionKind, JsonNode> openApiSchemas = new LinkedHashMap<>();
    private final List<Map<String, JsonNode>> openApiComponents = new ArrayList<>();
    private ValidationRules validationRules = ValidationRules.unsupported();
    private AuditPolicy auditPolicy;
    private AuditSink auditSink;

    private Builder(Scheme scheme) {
      this.scheme = Objects.requireNonNull(scheme, "scheme");
    }

    /**
     * Serves a resource.
     *
     * @param definition the resource
     * @return this builder
     */
    public Builder addResource(ResourceDefinition definition) {
      resources.add(Objects.requireNonNull(definition, "definition"));
      return this;
    }

    /**
     * Serves a resource whose objects have no class: they are read, kept and written as {@link
     * Unstructured} JSON trees (as custom resources are), described by the definition's schemas,
     * normalizer and validator, stored in one version and served in several that share one shape
     * (conversion between them only rewrites {@code apiVersion}). Its kinds need no registration in
     * the Scheme; their OpenAPI schemas are given with {@link #openApiSchemas}.
     *
     * @param definition the resource
     * @param storageVersion the version objects are stored in
     * @param servedVersions the versions it is served in, most preferred first
     * @return this builder
     */
    public Builder addUnstructuredResource(
        ResourceDefinition definition,
        GroupVersion storageVersion,
        List<GroupVersion> servedVersions) {
      Objects.requireNonNull(definition, "definition");
      Objects.requireNonNull(storageVersion, "storageVersion");
      if (servedVersions.isEmpty()) {
        throw new IllegalArgumentException(definition.kind() + " is served in no version");
      }
      unstructured.add(
          new UnstructuredResource(definition, storageVersion, List.copyOf(servedVersions)));
      return this;
    }

    /**
     * Registers how the custom resources of a group move between their versions, in place of
     * kube-apiserver's conversion webhook: every CustomResourceDefinition of the group converts its
     * objects with it (whatever its {@code spec.conversion} says); other groups convert with {@code
     * None}.
     *
     * @param group the API group, such as {@code stable.example.com}
     * @param conversion the conversion
     * @return this builder
     */
    public Builder conversion(String group, UnstructuredConversion conversion) {
      conversions.put(Objects.requireNonNull(group, "group"), Objects.requireNonNull(conversion));
      return this;
    }

    /**
     * Whether a resource of a kind has been added, by {@link #addResource} or {@link
     * #addUnstructuredResource}. (A kind added both ways is served by its class; so are the kinds
     * of {@link #rbac()} and {@link #customResourceDefinitions()}.)
     *
     * @param kind the kind
     * @return true when the builder serves it
     */
    public boolean serves(dev.machinery.core.schema.GroupKind kind) {
      return resources.stream().anyMatch(r -> r.kind().equals(kind))
          || unstructured.stream().anyMatch(r -> r.definition().kind().equals(kind));
    }

    /**
     * Publishes OpenAPI schemas for kinds without a class (those of {@link
     * #addUnstructuredResource}): each kind's schema, either whole or a {@code $ref} to {@code
     * #/components/schemas/<name>}, and the named components such references reach, copied into
     * each group version's document as far as its kinds refer to them.
     *
     * @param kinds the schema of each kind (and of list kinds, when given)
     * @param components the named schemas references may reach; read when a client first reads
     *     OpenAPI, so that a source may make them then (it must not change after)
     * @return this builder
     */
    public Builder openApiSchemas(
        Map<GroupVersionKind, JsonNode> kinds, Map<String, JsonNode> components) {
      openApiSchemas.putAll(kinds);
      openApiComponents.add(Objects.requireNonNull(components, "components"));
      return this;
    }

    /**
     * Serves {@code apiextensions.k8s.io/v1} CustomResourceDefinitions, and the kinds they define
     * from the moment each is {@code Established} until it is deleted. The Scheme must register
     * them ({@link dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1#addToScheme}).
     *
     * <p>Without a CEL implementation a definition whose schema has {@code
     * x-kubernetes-validations} is refused ({@link ValidationRules#unsupported()}); {@link
     * #customResourceDefinitions(ValidationRules)} enforces such rules.
     *
     * @return this builder
     */
    public Builder customResourceDefinitions() {
      this.customResourceDefinitions = true;
      return this;
    }

    /**
     * Serves CustomResourceDefinitions as {@link #customResourceDefinitions()} does, with their
     * schemas' CEL rules ({@code x-kubernetes-validations}) checked when a definition is written
     * and evaluated on every write of its objects by the implementation given, such as {@code
     * machinery-cel}'s {@code CelValidationRules}.
     *
     * @param rules the CEL implementation
     * @return this builder
     */
    public Builder customResourceDefinitions(ValidationRules rules) {
      this.validationRules = Objects.requireNonNull(rules, "rules");
      this.customResourceDefinitions = true;
      return this;
    }

    /**
     * Sets which group versions are served ({@code --runtime-config}); all by default.
     *
     * @param enablement the enablement
     * @return this builder
     */
    public Builder enablement(Enablement enablement) {
      this.enablement = Objects.requireNonNull(enablement, "enablement");
      return this;
    }

    /**
     * Sets the storage (a new {@link MemoryStorage} by default).
     *
     * @param storage the storage
     * @return this builder
     */
    public Builder storage(Storage storage) {
      this.storage = Objects.requireNonNull(storage, "storage");
      return this;
    }

    /**
     * Sets the Kubernetes version {@code /version} reports ({@code v1.33.0} by default); kubectl
     * builds that pick themselves by the server's minor version read it.
     *
     * @param version the version, such as {@code v1.31.2}
     * @return this builder
     */
    public Builder kubernetesVersion(String version) {
      if (!Objects.requireNonNull(version, "version").matches("v\\d+\\.\\d+\\.\\d+.*")) {
        throw new IllegalArgumentException(
            "a Kubernetes version looks like v1.33.0, got \"" + version + "\"");
      }
      this.kubernetesVersion = version;
      return this;
    }

    /**
     * Sets the request body limit (3 MiB by default); larger bodies are refused with {@code 413}.
     *
     * @param bytes the limit
     * @return this builder
     */
    public Builder maxRequestBodyBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("the body limit must be positive, got " + bytes);
      }
      this.maxRequestBodyBytes = bytes;
      return this;
    }

    /**
     * Sets how often a watch that allows bookmarks gets one (a minute by default).
     *
     * @param interval the interval
     * @return this builder
     */
    public Builder bookmarkInterval(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("the bookmark interval must be positive");
      }
      this.bookmarkInterval = interval;
      return this;
    }

    /**
     * Sets how many changes each resource's watch cache keeps ({@value #DEFAULT_WATCH_CACHE_SIZE}
     * by default). Every watcher of a resource is served from one storage watch, fanned out in
     * process; a watcher that starts before the changes kept gets a storage watch of its own. 0
     * turns the cache off: each watcher then has a storage watch of its own.
     *
     * @param size the number of changes, 0 or more
     * @return this builder
     */
    public Builder watchCacheSize(int size) {
      if (size < 0) {
        throw new IllegalArgumentException(
            "the watch cache size must not be negative, got " + size);
      }
      this.watchCacheSize = size;
      return this;
    }

    /**
     * Turns the request log of {@link #serve} on or off (off by default): one line a request, at
     * INFO to the SLF4J logger {@value JdkHttpBinding#REQUEST_LOG}, as {@link JdkHttpBinding}
     * describes.
     *
     * @param enabled whether to log requests
     * @return this builder
     */
    public Builder requestLog(boolean enabled) {
      this.requestLog = enabled ? JdkHttpBinding.slf4jRequestLog() : null;
      return this;
    }

    /**
     * Sends the request log of {@link #serve} to a sink of lines instead.
     *
     * @param sink where each line goes, or {@code null} for no request log
     * @return this builder
     */
    public Builder requestLog(Consumer<String> sink) {
      this.requestLog = sink;
      return this;
    }

    /**
     * Sets who requests come from; by default everyone is {@code system:anonymous}. Give a {@link
     * Authenticator#chain}, which never answers empty: an authenticator that does is answered 401
     * where it does.
     *
     * @param authenticator the authenticator
     * @return this builder
     */
    public Builder authenticator(Authenticator authenticator) {
      this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
      return this;
    }

    /**
     * Makes {@link #serve} serve HTTPS with a certificate, key and client CAs.
     *
     * @param tls the TLS configuration, or {@code null} for plain HTTP (the default)
     * @return this builder
     */
    public Builder tls(TlsConfig tls) {
      this.tls = tls;
      return this;
    }

    /**
     * Adds an authorizer, asked for every request after authentication, in the order added ({@code
     * --authorization-mode=A,B}); the first that allows or refuses decides, and a request none
     * allows is answered {@code 403 Forbidden} with kube-apiserver's message. Members of {@code
     * system:masters} are allowed everything before any is asked. Without any authorizer (and
     * without {@link #rbac()}) every request is allowed, as before authorization existed.
     *
     * @param authorizer the authorizer
     * @return this builder
     */
    public Builder authorizer(Authorizer authorizer) {
      authorizers.add(Objects.requireNonNull(authorizer, "authorizer"));
      return this;
    }

    /**
     * Declares that this server's reads never wait: its storage answers from memory ({@code
     * MemoryStorage}), and its authenticators, authorizers, admission and audit sinks neither do
     * I/O nor wait on anything. A GET of one object is then {@linkplain
     * ApiHandler#answersWithoutWaiting answered without waiting}, which an event-loop binding (such
     * as the Netty one) runs on its loop instead of handing it to a worker thread: about twice the
     * requests a second for small reads. Off by default; never for a server on etcd.
     *
     * @param readsWithoutWaiting whether reads never wait
     * @return this builder
     */
    public Builder readsWithoutWaiting(boolean readsWithoutWaiting) {
      this.readsWithoutWaiting = readsWithoutWaiting;
      return this;
    }

    /**
     * Limits the read-only requests ({@code get}, {@code list}) answered at once, as
     * kube-apiserver's {@code --max-requests-inflight} (whose default is 400); one more is refused
     * with {@code 429 TooManyRequests} and {@code Retry-After: 1}. Watches and members of {@code
     * system:masters} are not counted. 0, the default, is no limit.
     *
     * @param limit the limit, 0 or more
     * @return this builder
     */
    public Builder maxRequestsInFlight(int limit) {
      if (limit < 0) {
        throw new IllegalArgumentException(
            "the limit of requests in flight must not be negative, got " + limit);
      }
      this.maxRequestsInFlight = limit;
      return this;
    }

    /**
     * Limits the mutating requests (any verb but {@code get}, {@code list} and {@code watch})
     * answered at once, as kube-apiserver's {@code --max-mutating-requests-inflight} (whose default
     * is 200), apart from the read-only ones; see {@link #maxRequestsInFlight}. 0, the default, is
     * no limit.
     *
     * @param limit the limit, 0 or more
     * @return this builder
     */
    public Builder maxMutatingRequestsInFlight(int limit) {
      if (limit < 0) {
        throw new IllegalArgumentException(
            "the limit of mutating requests in flight must not be negative, got " + limit);
      }
      this.maxMutatingRequestsInFlight = limit;
      return this;
    }

    /**
     * Adds an admission plugin ({@code --enable-admission-plugins}), run on every create, update,
     * patch and delete of every resource, in the order added, after {@link NamespaceLifecycle}
     * (which a server that serves Namespaces always runs first): the mutating plugins before the
     * resource's defaults and validation, the validating ones after them.
     *
     * @param plugin a {@link dev.machinery.apiserver.admission.MutatingAdmissionPlugin}, a {@link
     *     dev.machinery.apiserver.admission.ValidatingAdmissionPlugin} or both
     * @return this builder
     */
    public Builder admission(AdmissionPlugin plugin) {
      admissionPlugins.add(Objects.requireNonNull(plugin, "plugin"));
      return this;
    }

    /**
     * Serves and enforces RBAC ({@code --authorization-mode=RBAC}): the {@code
     * rbac.authorization.k8s.io/v1} Roles, ClusterRoles, RoleBindings and ClusterRoleBindings
     * (which the Scheme must register, see {@link RbacV1#addToScheme}) as resources, with
     * Kubernetes' escalation prevention and ClusterRole aggregation; the {@link
     * dev.machinery.apiserver.rbac.RbacAuthorizer} after the authorizers added with {@link
     * #authorizer}; and the default roles and bindings ({@link BootstrapPolicy}), reconciled with
     * those stored at {@link #build()} as kube-apiserver does at start ({@link
     * dev.machinery.apiserver.rbac.Reconciliation}): created where absent, given back what they
     * lack unless annotated {@code rbac.authorization.kubernetes.io/autoupdate: "false"}.
     *
     * @return this builder
     */
    public Builder rbac() {
      this.rbac = true;
      return this;
    }

    /**
     * Audits requests, as kube-apiserver's {@code --audit-policy-file} and {@code
     * --audit-log-path}: each request the policy records (authenticated or refused by
     * authentication) is handed to the sink as {@code audit.k8s.io/v1} events, one for each stage
     * the policy does not omit, and every answer carries the request's {@code Audit-ID} header.
     * Without it nothing is audited and no event is made.
     *
     * @param policy which requests are recorded, and at which level
     * @param sink where the events go, such as a {@link
     *     dev.machinery.apiserver.audit.AuditLogWriter}
     * @return this builder
     */
    public Builder audit(AuditPolicy policy, AuditSink sink) {
      this.auditPolicy = Objects.requireNonNull(policy, "policy");
      this.auditSink = Objects.requireNonNull(sink, "sink");
      return this;
    }

    /**
     * Builds the server.
     *
     * @return the server
     * @throws IllegalArgumentException when a resource's kinds are not registered as it needs
     */
    public ApiServer build() {
      if (storage == null) {
        storage = new MemoryStorage();
      }
      ApiServer server = new ApiServer(this);
      if (server.rbac != null) {
        server.rbac.bootstrap();
      }
      return server;
    }
  }
}
