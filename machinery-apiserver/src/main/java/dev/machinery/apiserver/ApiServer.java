package dev.machinery.apiserver;

import dev.machinery.apiserver.admission.AdmissionChain;
import dev.machinery.apiserver.admission.AdmissionPlugin;
import dev.machinery.apiserver.admission.NamespaceLifecycle;
import dev.machinery.apiserver.admission.policy.PolicyTypeChecker;
import dev.machinery.apiserver.admission.policy.ValidatingAdmissionPolicies;
import dev.machinery.apiserver.apiextensions.CustomResourceDefinitions;
import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authentication.ServiceAccountTokens;
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
import dev.machinery.apiserver.registry.webhook.WebhookClient;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageCompactor;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

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
 * cache for each resource in use) until {@link #close()}, and compacts its storage's history every
 * five minutes, as kube-apiserver compacts etcd ({@link Builder#compactionInterval}); the first
 * server built in a JVM also runs, while it is built, a short-lived thread that reads the locale
 * data the JDK's HTTP server writes its {@code Date} header with.
 */
public final class ApiServer implements ApiHandler, AutoCloseable {
  private static final GroupKind SERVICE_ACCOUNT = GroupKind.of("", "ServiceAccount");
  private static final GroupVersion AUTHENTICATION_V1 =
      GroupVersion.of("authentication.k8s.io", "v1");

  /** The default request body limit, kube-apiserver's 3 MiB. */
  public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 3L * 1024 * 1024;

  /** How long Events are kept after their last write by default: kube-apiserver's one hour. */
  public static final Duration DEFAULT_EVENT_TTL = Duration.ofHours(1);

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
  private final PolicyStatusController policyStatus;
  private final StorageCompactor compactor;
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
  private final AdmissionRunner admission;
  private final ServiceAccountTokens serviceAccountTokens;

  private ApiServer(Builder builder) {
    // While this one builds the server, another thread reads the locale data the JDK's HTTP server
    // formats its first Date header with.
    HttpDateFormat.prepareInBackground();
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
            builder.storageMediaType,
            builder.encryption,
            builder.watchCacheSize,
            admission,
            negotiatorBuilder);
    this.serviceAccountTokens =
        builder.serviceAccountTokens == null
            ? ServiceAccountTokens.generate()
            : builder.serviceAccountTokens;
    boolean servesServiceAccounts = false;
    for (int i = 0; i < definitions.size(); i++) {
      if (definitions.get(i).kind().equals(SERVICE_ACCOUNT)) {
        definitions.set(i, withTokenSubresource(definitions.get(i)));
        servesServiceAccounts = true;
      }
    }
    definitions.replaceAll(d -> withEventTtl(d, builder.eventTtl));
    definitions.forEach(registry::addTyped);
    // The reviews are answered by handlers of their own, listed in discovery beside the resources.
    SelfSubjectReviews.discovery().forEach(i -> registry.addDiscoveryOnly(AUTHENTICATION_V1, i));
    AccessReviews.discovery().forEach(i -> registry.addDiscoveryOnly(AuthorizationV1.V1, i));
    for (ServerOptions.UnstructuredResource r : builder.unstructured) {
      ResourceDefinition definition = r.definition();
      if (definition.kind().equals(SERVICE_ACCOUNT)) {
        definition = withTokenSubresource(definition);
        servesServiceAccounts = true;
      }
      definition = withEventTtl(definition, builder.eventTtl);
      registry.addUnstructured(definition, r.storageVersion(), r.servedVersions());
    }
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
    ResourceStore policies =
        registry
            .store(GroupKind.of("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"))
            .orElse(null);
    ResourceStore bindings =
        registry
            .store(GroupKind.of("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"))
            .orElse(null);
    ServedPolicyObjects policyObjects = null;
    if (policies != null && bindings != null) {
      policyObjects =
          new ServedPolicyObjects(
              served,
              json,
              policies,
              bindings,
              namespaces,
              new OpenApiKindSchemas(this.documents::openApiV3));
      plugins.add(
          new ValidatingAdmissionPolicies(
              builder.policyExpressions, policyObjects, this::currentAuthorizer));
    }
    admission.attach(AdmissionChain.of(plugins), namespaces);
    ServedResources servedVersions = this.served;
    admission.attachVersions(
        store ->
            servedVersions.all().stream()
                .filter(s -> s.store() == store)
                .map(s -> s.kind().version())
                .distinct()
                .toList());
    Optional<ResourceStore> mutatingWebhooks = registry.store(AdmissionRunner.MUTATING_WEBHOOKS);
    Optional<ResourceStore> validatingWebhooks =
        registry.store(AdmissionRunner.VALIDATING_WEBHOOKS);
    if (mutatingWebhooks.isPresent() || validatingWebhooks.isPresent()) {
      ServedResources servedNow = this.served;
      admission.attachWebhooks(
          mutatingWebhooks.orElse(null),
          validatingWebhooks.orElse(null),
          new WebhookClient(builder.webhookServiceResolver),
          builder.webhookMatchConditions,
          store ->
              servedNow.all().stream()
                  .filter(s -> s.store() == store)
                  .map(s -> s.kind().version())
                  .distinct()
                  .toList(),
          builder.storage.answersFromMemory(),
          this::currentAuthorizer);
    }
    this.admission = admission;
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
            namespaces,
            admission::namespaceState,
            builder.namespaceContentCleanup,
            request -> handleAs(LOOPBACK_USER, request));
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
      rbac.attach(registry.storesOfGroup(RbacV1.GROUP), authorizer);
    }
    this.chain =
        new HandlerChain(
            failures,
            MAX_REQUEST_HEADER_FIELDS,
            servesServiceAccounts
                ? withServiceAccountTokens(builder.authenticator)
                : builder.authenticator,
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
                        builder.encryption,
                        builder.watchCacheSize,
                        builder.validationRules,
                        builder.conversions,
                        admission,
                        documents::publish))
            .orElse(null);
    // Last: a plugin may read and write through the server from here on.
    plugins.forEach(plugin -> plugin.initialize(request -> handleAs(LOOPBACK_USER, request)));
    this.policyStatus =
        policyObjects == null
            ? null
            : PolicyStatusController.start(
                policies,
                policyObjects,
                new PolicyTypeChecker(builder.policyExpressions, policyObjects),
                request -> handleAs(LOOPBACK_USER, request));
    this.compactor =
        builder.compactionInterval.isZero()
            ? null
            : StorageCompactor.start(builder.storage, builder.compactionInterval);
  }

  private Authorizer currentAuthorizer() {
    return authorizer;
  }

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
   * Stops the threads the server runs and lets go of what they hold: the storage's compaction
   * stops, the ValidatingAdmissionPolicy status controller's and the CustomResourceDefinition
   * controller's threads end (each waited for, up to ten seconds) and every resource's watch cache
   * is closed (its thread ends, its objects are let go, its watchers end). Close the server's
   * binding first ({@link HttpBinding#close()}), which stops its own threads; the storage given to
   * {@link Builder#storage} and the sinks given to the builder (an audit log) are the caller's to
   * close. Requests made after it are still answered, from the storage, but the definitions created
   * or changed then are not followed. Calling it again does nothing more.
   */
  @Override
  public void close() {
    if (compactor != null) {
      compactor.close();
    }
    if (policyStatus != null) {
      policyStatus.close();
    }
    if (customResourceDefinitions != null) {
      customResourceDefinitions.close();
    }
    java.util.Set<ResourceStore> stores =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Served resource : served.all()) {
      stores.add(resource.store());
    }
    stores.forEach(ResourceStore::close);
    admission.close();
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
    if (!readsWithoutWaiting
        || !storage.answersFromMemory()
        || !request.method().equals("GET")
        || isWatch(request)) {
      return false;
    }
    return RequestInfo.parse(request.path())
        .map(info -> !info.legacyWatch() && info.name() != null && info.subresource() == null)
        .orElse(false);
  }

  /**
   * A GET of one object (not of a subresource, a list or a watch) on a storage that does not answer
   * from memory, when the builder declared that reads never wait besides the storage's ({@link
   * Builder#readsWithoutWaiting}) and RBAC is off (its authorizer reads the storage's revision for
   * every request): it waits for its resource's cache check without a thread, and is then answered
   * on {@code loop} when the check found the cache current, as on memory, or on {@code workers}
   * when it did not (the storage is read) or the check failed. A GET with a {@code resourceVersion}
   * (read from the cache as it stands, or as of that revision) is not one of them.
   *
   * @param request the request, with no body
   * @param loop runs work that never waits
   * @param workers runs work that may wait
   * @return the answer to come, or {@code null} for any other request
   */
  @Override
  public CompletionStage<ApiResponse> handleAsync(
      ApiRequest request, Executor loop, Executor workers) {
    if (!readsWithoutWaiting
        || storage.answersFromMemory()
        // RBAC's authorizer would wait for a cache that lags a role or binding written here.
        || (rbac != null && !rbac.decidesWithoutWaiting())
        || !request.method().equals("GET")
        || isWatch(request)
        // A GET at a resourceVersion waits for no check of the cache against the storage.
        || hasResourceVersion(request)) {
      return null;
    }
    Optional<RequestInfo> info =
        RequestInfo.parse(request.path())
            .filter(i -> !i.legacyWatch() && i.name() != null && i.subresource() == null);
    if (info.isEmpty()) {
      return null;
    }
    Optional<Served> target =
        served.find(info.get().group(), info.get().version(), info.get().resource());
    CompletableFuture<ResourceStore.FreshnessCheck> check =
        target.map(t -> t.store().checkFreshnessAsync()).orElse(null);
    if (check == null) {
      return null;
    }
    ResourceStore store = target.get().store();
    return check
        .thenCompose(
            outcome ->
                CompletableFuture.supplyAsync(
                    () -> store.readingAfter(outcome, () -> handle(request)),
                    outcome.fresh() ? loop : workers))
        .exceptionallyCompose(
            failure -> CompletableFuture.supplyAsync(() -> handle(request), workers));
  }

  private static boolean hasResourceVersion(ApiRequest request) {
    String version = request.parameter("resourceVersion");
    return version != null && !version.isEmpty();
  }

  private static boolean isWatch(ApiRequest request) {
    String watch = request.parameter("watch");
    return watch != null && !watch.equals("false") && !watch.equals("0");
  }

  @Override
  public ApiResponse handle(ApiRequest request) {
    return chain.handle(RequestContext.received(request, Instant.now()));
  }

  /**
   * Returns the service account token issuer: the builder's, or the one this server made at start.
   *
   * @return the issuer
   */
  public ServiceAccountTokens serviceAccountTokens() {
    return serviceAccountTokens;
  }

  /**
   * Events, of the core group or of {@code events.k8s.io}, kept for the server's event TTL unless
   * their definition sets a time of its own; any other definition as it is.
   */
  private static ResourceDefinition withEventTtl(ResourceDefinition definition, Duration ttl) {
    String group = definition.kind().group();
    boolean events =
        definition.resource().equals("events")
            && (group.isEmpty() || group.equals("events.k8s.io"));
    return events && definition.timeToLive().isEmpty()
        ? definition.withTimeToLive(ttl)
        : definition;
  }

  private ResourceDefinition withTokenSubresource(ResourceDefinition definition) {
    return definition.withSubresource("token", TokenRequests.action(serviceAccountTokens));
  }

  /** The service account tokens first, then the builder's authenticator. */
  private Authenticator withServiceAccountTokens(Authenticator others) {
    Authenticator tokens =
        serviceAccountTokens.authenticator(request -> handleAs(LOOPBACK_USER, request));
    return request -> {
      Optional<UserInfo> user = tokens.authenticate(request);
      if (user.isPresent()) {
        return Optional.of(user.get().withGroup(UserInfo.ALL_AUTHENTICATED));
      }
      return others.authenticate(request);
    };
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
  public static final class Builder extends ServerOptions {
    private Builder(Scheme scheme) {
      super(scheme);
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
