package dev.machinery.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.admission.AdmissionPlugin;
import dev.machinery.apiserver.admission.NamespaceLifecycle;
import dev.machinery.apiserver.admission.webhook.MatchConditions;
import dev.machinery.apiserver.admission.webhook.ServiceResolver;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.audit.AuditSink;
import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authentication.ServiceAccountTokens;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.rbac.BootstrapPolicy;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.UnstructuredConversion;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageCompactor;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.apiserver.storage.encryption.EncryptionConfiguration;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What an {@link ApiServer} is built with: the options of its {@link ApiServer.Builder}, kept apart
 * from the wiring in {@link ApiServer} that turns them into a server. Only {@link
 * ApiServer.Builder} extends it.
 *
 * <p>Not thread-safe.
 */
abstract sealed class ServerOptions permits ApiServer.Builder {
  final Scheme scheme;
  final List<ResourceDefinition> resources = new ArrayList<>();
  Enablement enablement = Enablement.all();
  Storage storage;
  EncryptionConfiguration encryption;
  StorageMediaType storageMediaType = StorageMediaType.JSON;
  String kubernetesVersion = "v1.33.0";
  long maxRequestBodyBytes = ApiServer.DEFAULT_MAX_REQUEST_BODY_BYTES;
  Duration bookmarkInterval = Duration.ofSeconds(60);
  Duration compactionInterval = StorageCompactor.DEFAULT_INTERVAL;
  int watchCacheSize = ApiServer.DEFAULT_WATCH_CACHE_SIZE;
  Duration eventTtl = ApiServer.DEFAULT_EVENT_TTL;
  Consumer<String> requestLog;
  Authenticator authenticator = Authenticator.chain(List.of(), true);
  ServiceAccountTokens serviceAccountTokens;
  TlsConfig tls;
  final List<Authorizer> authorizers = new ArrayList<>();
  final List<AdmissionPlugin> admissionPlugins = new ArrayList<>();
  boolean rbac;
  int maxRequestsInFlight;
  boolean readsWithoutWaiting;
  boolean namespaceContentCleanup = true;
  int maxMutatingRequestsInFlight;
  boolean customResourceDefinitions;
  final List<UnstructuredResource> unstructured = new ArrayList<>();
  final Map<String, UnstructuredConversion> conversions = new LinkedHashMap<>();
  final Map<GroupVersionKind, JsonNode> openApiSchemas = new LinkedHashMap<>();
  final List<Map<String, JsonNode>> openApiComponents = new ArrayList<>();
  ValidationRules validationRules = ValidationRules.unsupported();
  // The installed CEL implementations are made when a server first compiles an expression.
  dev.machinery.apiserver.admission.policy.PolicyExpressions policyExpressions =
      InstalledExpressions.policyExpressions();
  AuditPolicy auditPolicy;
  AuditSink auditSink;
  ServiceResolver webhookServiceResolver = ServiceResolver.clusterDns();
  Optional<MatchConditions> webhookMatchConditions = InstalledExpressions.matchConditions();

  /**
   * Serves a resource.
   *
   * @param definition the resource
   * @return this builder
   */
  public ApiServer.Builder addResource(ResourceDefinition definition) {
    resources.add(Objects.requireNonNull(definition, "definition"));
    return self();
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
  public ApiServer.Builder addUnstructuredResource(
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
    return self();
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
  public ApiServer.Builder conversion(String group, UnstructuredConversion conversion) {
    conversions.put(Objects.requireNonNull(group, "group"), Objects.requireNonNull(conversion));
    return self();
  }

  /**
   * Whether a resource of a kind has been added, by {@link #addResource} or {@link
   * #addUnstructuredResource}. (A kind added both ways is served by its class; so are the kinds of
   * {@link #rbac()} and {@link #customResourceDefinitions()}.)
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
   * #/components/schemas/<name>}, and the named components such references reach, copied into each
   * group version's document as far as its kinds refer to them.
   *
   * @param kinds the schema of each kind (and of list kinds, when given)
   * @param components the named schemas references may reach; read when a client first reads
   *     OpenAPI, so that a source may make them then (it must not change after)
   * @return this builder
   */
  public ApiServer.Builder openApiSchemas(
      Map<GroupVersionKind, JsonNode> kinds, Map<String, JsonNode> components) {
    openApiSchemas.putAll(kinds);
    openApiComponents.add(Objects.requireNonNull(components, "components"));
    return self();
  }

  /**
   * Serves {@code apiextensions.k8s.io/v1} CustomResourceDefinitions, and the kinds they define
   * from the moment each is {@code Established} until it is deleted. The Scheme must register them
   * ({@link dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1#addToScheme}).
   *
   * <p>Without a CEL implementation a definition whose schema has {@code x-kubernetes-validations}
   * is refused ({@link ValidationRules#unsupported()}); {@link
   * #customResourceDefinitions(ValidationRules)} enforces such rules.
   *
   * @return this builder
   */
  public ApiServer.Builder customResourceDefinitions() {
    this.customResourceDefinitions = true;
    return self();
  }

  /**
   * Serves CustomResourceDefinitions as {@link #customResourceDefinitions()} does, with their
   * schemas' CEL rules ({@code x-kubernetes-validations}) checked when a definition is written and
   * evaluated on every write of its objects by the implementation given, such as {@code
   * machinery-cel}'s {@code CelValidationRules}.
   *
   * @param rules the CEL implementation
   * @return this builder
   */
  public ApiServer.Builder customResourceDefinitions(ValidationRules rules) {
    this.validationRules = Objects.requireNonNull(rules, "rules");
    this.customResourceDefinitions = true;
    return self();
  }

  /**
   * Sets which group versions are served ({@code --runtime-config}); all by default.
   *
   * @param enablement the enablement
   * @return this builder
   */
  public ApiServer.Builder enablement(Enablement enablement) {
    this.enablement = Objects.requireNonNull(enablement, "enablement");
    return self();
  }

  /**
   * Sets the storage (a new {@link MemoryStorage} by default).
   *
   * @param storage the storage
   * @return this builder
   */
  public ApiServer.Builder storage(Storage storage) {
    this.storage = Objects.requireNonNull(storage, "storage");
    return self();
  }

  /**
   * Encrypts the values of the resources a configuration names before they reach the storage, as
   * kube-apiserver's {@code --encryption-provider-config} (none by default): each write with the
   * first provider of the resource's entry, each read with the provider whose prefix the stored
   * value carries; an update rewrites a value read with any other, so that a {@code kubectl get
   * secrets -A -o json | kubectl replace -f -} after a change of the first key leaves every value
   * under it.
   *
   * @param configuration the configuration ({@link EncryptionConfiguration#read})
   * @return this builder
   */
  public ApiServer.Builder encryption(EncryptionConfiguration configuration) {
    this.encryption = Objects.requireNonNull(configuration, "configuration");
    return self();
  }

  /**
   * Sets the media type values are written to the storage in, as kube-apiserver's {@code
   * --storage-media-type}: {@link StorageMediaType#JSON} by default (an embedded store, in memory,
   * has no reader but this server, and JSON is the cheaper to read back), or {@link
   * StorageMediaType#PROTOBUF}, kube-apiserver's default, which writes each object of a built-in
   * kind (one with a message in Kubernetes' {@code .proto} files) in the {@code k8s\0} envelope of
   * its storage version, so that a key kube-apiserver wrote reads here and the reverse; custom
   * resources and kinds without a message stay JSON. Values in either are read whatever is chosen,
   * so a store keeps reading after a switch, and an update rewrites a value in the other media type
   * even when nothing else changes (as kube-apiserver does, so that replacing every object moves a
   * store over).
   *
   * @param mediaType the media type
   * @return this builder
   */
  public ApiServer.Builder storageMediaType(StorageMediaType mediaType) {
    this.storageMediaType = Objects.requireNonNull(mediaType, "mediaType");
    return self();
  }

  /**
   * Sets the Kubernetes version {@code /version} reports ({@code v1.33.0} by default); kubectl
   * builds that pick themselves by the server's minor version read it.
   *
   * @param version the version, such as {@code v1.31.2}
   * @return this builder
   */
  public ApiServer.Builder kubernetesVersion(String version) {
    if (!Objects.requireNonNull(version, "version").matches("v\\d+\\.\\d+\\.\\d+.*")) {
      throw new IllegalArgumentException(
          "a Kubernetes version looks like v1.33.0, got \"" + version + "\"");
    }
    this.kubernetesVersion = version;
    return self();
  }

  /**
   * Sets the request body limit (3 MiB by default); larger bodies are refused with {@code 413}.
   *
   * @param bytes the limit
   * @return this builder
   */
  public ApiServer.Builder maxRequestBodyBytes(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("the body limit must be positive, got " + bytes);
    }
    this.maxRequestBodyBytes = bytes;
    return self();
  }

  /**
   * Sets how often the storage's history is compacted, as kube-apiserver's {@code
   * --etcd-compaction-interval} (five minutes by default; {@link Duration#ZERO} turns compaction
   * off): each time to the revision of the time before, so watches and lists can start up to one
   * interval in the past (see {@link StorageCompactor}).
   *
   * @param interval the interval, or zero for none
   * @return this builder
   * @throws IllegalArgumentException when negative
   */
  public ApiServer.Builder compactionInterval(Duration interval) {
    if (interval.isNegative()) {
      throw new IllegalArgumentException(
          "the compaction interval must not be negative, got " + interval);
    }
    this.compactionInterval = interval;
    return self();
  }

  /**
   * Sets how often a watch that allows bookmarks gets one (a minute by default).
   *
   * @param interval the interval
   * @return this builder
   */
  public ApiServer.Builder bookmarkInterval(Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("the bookmark interval must be positive");
    }
    this.bookmarkInterval = interval;
    return self();
  }

  /**
   * Sets how many changes each resource's watch cache keeps ({@value
   * ApiServer#DEFAULT_WATCH_CACHE_SIZE} by default). Every watcher of a resource is served from one
   * storage watch, fanned out in process; a watcher that starts before the changes kept gets a
   * storage watch of its own. 0 turns the cache off: each watcher then has a storage watch of its
   * own.
   *
   * @param size the number of changes, 0 or more
   * @return this builder
   */
  public ApiServer.Builder watchCacheSize(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("the watch cache size must not be negative, got " + size);
    }
    this.watchCacheSize = size;
    return self();
  }

  /**
   * Sets how long Events are kept after their last write (one hour by default, as kube-apiserver's
   * {@code --event-ttl}): the storage then deletes each by itself (a delete watchers see; in etcd,
   * a lease shared by the Events written within a minute, so that one may live up to 5 % longer, at
   * most a minute). It applies to {@code events} of the core group and of {@code events.k8s.io},
   * the same objects, whatever defines them, unless the definition sets a time of its own ({@link
   * ResourceDefinition.Builder#timeToLive}).
   *
   * @param ttl the time, in whole seconds, at least one
   * @return this builder
   * @throws IllegalArgumentException when the time is under a second or not whole seconds
   */
  public ApiServer.Builder eventTtl(Duration ttl) {
    if (ttl.getNano() != 0 || ttl.getSeconds() < 1) {
      throw new IllegalArgumentException(
          "the event TTL is a whole number of seconds, at least one, not " + ttl);
    }
    this.eventTtl = ttl;
    return self();
  }

  /**
   * Turns the request log of {@link ApiServer#serve} on or off (off by default): one line a
   * request, at INFO to the SLF4J logger {@value JdkHttpBinding#REQUEST_LOG}, as {@link
   * JdkHttpBinding} describes.
   *
   * @param enabled whether to log requests
   * @return this builder
   */
  public ApiServer.Builder requestLog(boolean enabled) {
    this.requestLog = enabled ? JdkHttpBinding.slf4jRequestLog() : null;
    return self();
  }

  /**
   * Sends the request log of {@link ApiServer#serve} to a sink of lines instead.
   *
   * @param sink where each line goes, or {@code null} for no request log
   * @return this builder
   */
  public ApiServer.Builder requestLog(Consumer<String> sink) {
    this.requestLog = sink;
    return self();
  }

  /**
   * Sets who requests come from; by default everyone is {@code system:anonymous}. Give a {@link
   * Authenticator#chain}, which never answers empty: an authenticator that does is answered 401
   * where it does.
   *
   * @param authenticator the authenticator
   * @return this builder
   */
  public ApiServer.Builder authenticator(Authenticator authenticator) {
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    return self();
  }

  /**
   * Sets the service account token issuer: its issuer, signing key, verification keys, API
   * audiences and longest token (kube-apiserver's {@code --service-account-issuer}, {@code
   * --service-account-signing-key-file}, {@code --service-account-key-file}, {@code
   * --api-audiences}, {@code --service-account-max-token-expiration}). When ServiceAccounts are
   * served, the server answers their {@code token} subresource with tokens it signs and accepts
   * those tokens as bearer tokens before its {@link #authenticator}. Without one, the server makes
   * a P-256 key of its own at start ({@link ServiceAccountTokens#generate()}).
   *
   * @param tokens the issuer
   * @return this builder
   */
  public ApiServer.Builder serviceAccountTokens(ServiceAccountTokens tokens) {
    this.serviceAccountTokens = Objects.requireNonNull(tokens, "tokens");
    return self();
  }

  /**
   * Makes {@link ApiServer#serve} serve HTTPS with a certificate, key and client CAs.
   *
   * @param tls the TLS configuration, or {@code null} for plain HTTP (the default)
   * @return this builder
   */
  public ApiServer.Builder tls(TlsConfig tls) {
    this.tls = tls;
    return self();
  }

  /**
   * Adds an authorizer, asked for every request after authentication, in the order added ({@code
   * --authorization-mode=A,B}); the first that allows or refuses decides, and a request none allows
   * is answered {@code 403 Forbidden} with kube-apiserver's message. Members of {@code
   * system:masters} are allowed everything before any is asked. Without any authorizer (and without
   * {@link #rbac()}) every request is allowed, as before authorization existed.
   *
   * @param authorizer the authorizer
   * @return this builder
   */
  public ApiServer.Builder authorizer(Authorizer authorizer) {
    authorizers.add(Objects.requireNonNull(authorizer, "authorizer"));
    return self();
  }

  /**
   * Declares that this server's reads wait on nothing but its storage: its authenticators,
   * authorizers, admission and audit sinks neither do I/O nor wait on anything. A GET of one object
   * is then answered without holding a worker thread by an event-loop binding (such as the Netty
   * one): on a storage that answers from memory ({@code MemoryStorage}) it is {@linkplain
   * ApiHandler#answersWithoutWaiting answered on the loop} (about twice the requests a second for
   * small reads); on etcd, without RBAC (whose authorizer reads the storage's revision for every
   * request), it {@linkplain ApiHandler#handleAsync waits for its cache's check without a thread},
   * then is answered on the loop when the check found the cache current. Off by default.
   *
   * @param readsWithoutWaiting whether reads never wait
   * @return this builder
   */
  public ApiServer.Builder readsWithoutWaiting(boolean readsWithoutWaiting) {
    this.readsWithoutWaiting = readsWithoutWaiting;
    return self();
  }

  /**
   * Whether the server itself deletes a deleted namespace's content and then finalizes the
   * namespace (removes {@code kubernetes} from its {@code spec.finalizers}, which removes it when
   * no other finalizer holds it), within the delete request: what kube-controller-manager's
   * namespace controller does in a cluster. On by default, so that a server without controllers
   * cleans up; turn it off when a namespace controller runs, which then sees the namespace {@code
   * Terminating}, deletes its content and calls {@code namespaces/{name}/finalize}. The server's
   * cleanup deletes the content at once (grace period 0, dependents in the background, as no
   * kubelet waits for pods); content that finalizers hold keeps the namespace {@code Terminating}
   * until a later delete of the namespace finds it gone.
   *
   * @param cleanup whether the server cleans up deleted namespaces
   * @return this builder
   */
  public ApiServer.Builder namespaceContentCleanup(boolean cleanup) {
    this.namespaceContentCleanup = cleanup;
    return self();
  }

  /**
   * Limits the read-only requests ({@code get}, {@code list}) answered at once, as kube-apiserver's
   * {@code --max-requests-inflight} (whose default is 400); one more is refused with {@code 429
   * TooManyRequests} and {@code Retry-After: 1}. Watches and members of {@code system:masters} are
   * not counted. 0, the default, is no limit.
   *
   * @param limit the limit, 0 or more
   * @return this builder
   */
  public ApiServer.Builder maxRequestsInFlight(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException(
          "the limit of requests in flight must not be negative, got " + limit);
    }
    this.maxRequestsInFlight = limit;
    return self();
  }

  /**
   * Limits the mutating requests (any verb but {@code get}, {@code list} and {@code watch})
   * answered at once, as kube-apiserver's {@code --max-mutating-requests-inflight} (whose default
   * is 200), apart from the read-only ones; see {@link #maxRequestsInFlight}. 0, the default, is no
   * limit.
   *
   * @param limit the limit, 0 or more
   * @return this builder
   */
  public ApiServer.Builder maxMutatingRequestsInFlight(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException(
          "the limit of mutating requests in flight must not be negative, got " + limit);
    }
    this.maxMutatingRequestsInFlight = limit;
    return self();
  }

  /**
   * Adds an admission plugin ({@code --enable-admission-plugins}), run on every create, update,
   * patch and delete of every resource, in the order added, after {@link NamespaceLifecycle} (which
   * a server that serves Namespaces always runs first): the mutating plugins before the resource's
   * defaults and validation, the validating ones after them.
   *
   * @param plugin a {@link dev.machinery.apiserver.admission.MutatingAdmissionPlugin}, a {@link
   *     dev.machinery.apiserver.admission.ValidatingAdmissionPlugin} or both
   * @return this builder
   */
  public ApiServer.Builder admission(AdmissionPlugin plugin) {
    admissionPlugins.add(Objects.requireNonNull(plugin, "plugin"));
    return self();
  }

  /**
   * How the admission webhooks' service references are called (kube-apiserver's service resolver).
   * Webhook admission is on whenever the server serves {@code admissionregistration.k8s.io/v1}
   * MutatingWebhookConfigurations or ValidatingWebhookConfigurations (as {@code machinery-builtins}
   * does); by default a service {@code NAME} in {@code NS} is called at {@code
   * https://NAME.NS.svc:PORT/PATH}, which needs a resolver of cluster names. A server outside a
   * cluster maps services to addresses it knows.
   *
   * @param resolver the resolver
   * @return this builder
   */
  public ApiServer.Builder webhookServiceResolver(ServiceResolver resolver) {
    this.webhookServiceResolver = Objects.requireNonNull(resolver, "resolver");
    return self();
  }

  /**
   * The CEL implementation the admission webhooks' {@code matchConditions} are evaluated with; by
   * default the one found on the class path ({@link MatchConditions#installed()}, such as {@code
   * machinery-cel}'s). Without any, a webhook that has conditions fails under its failure policy.
   *
   * @param conditions the implementation
   * @return this builder
   */
  public ApiServer.Builder webhookMatchConditions(MatchConditions conditions) {
    this.webhookMatchConditions = Optional.of(Objects.requireNonNull(conditions, "conditions"));
    return self();
  }

  /**
   * Sets the expression language of ValidatingAdmissionPolicies. Whenever the server serves {@code
   * admissionregistration.k8s.io} ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding,
   * it enforces them ({@link dev.machinery.apiserver.admission.policy.ValidatingAdmissionPolicies},
   * after the other validating plugins); by default with the implementation found by {@link
   * dev.machinery.apiserver.admission.policy.PolicyExpressions#installed()} ({@code machinery-cel}
   * provides one), else with {@link
   * dev.machinery.apiserver.admission.policy.PolicyExpressions#unsupported()}, under which every
   * policy fails as its {@code failurePolicy} says.
   *
   * @param expressions the expression language
   * @return this builder
   */
  public ApiServer.Builder validatingAdmissionPolicies(
      dev.machinery.apiserver.admission.policy.PolicyExpressions expressions) {
    this.policyExpressions = Objects.requireNonNull(expressions, "expressions");
    return self();
  }

  /**
   * Serves and enforces RBAC ({@code --authorization-mode=RBAC}): the {@code
   * rbac.authorization.k8s.io/v1} Roles, ClusterRoles, RoleBindings and ClusterRoleBindings (which
   * the Scheme must register, see {@link RbacV1#addToScheme}) as resources, with Kubernetes'
   * escalation prevention and ClusterRole aggregation; the {@link
   * dev.machinery.apiserver.rbac.RbacAuthorizer} after the authorizers added with {@link
   * #authorizer}; and the default roles and bindings ({@link BootstrapPolicy}), reconciled with
   * those stored at {@link ApiServer.Builder#build()} as kube-apiserver does at start ({@link
   * dev.machinery.apiserver.rbac.Reconciliation}): created where absent, given back what they lack
   * unless annotated {@code rbac.authorization.kubernetes.io/autoupdate: "false"}.
   *
   * @return this builder
   */
  public ApiServer.Builder rbac() {
    this.rbac = true;
    return self();
  }

  /**
   * Audits requests, as kube-apiserver's {@code --audit-policy-file} and {@code --audit-log-path}:
   * each request the policy records (authenticated or refused by authentication) is handed to the
   * sink as {@code audit.k8s.io/v1} events, one for each stage the policy does not omit, and every
   * answer carries the request's {@code Audit-ID} header. Without it nothing is audited and no
   * event is made.
   *
   * @param policy which requests are recorded, and at which level
   * @param sink where the events go, such as a {@link dev.machinery.apiserver.audit.AuditLogWriter}
   * @return this builder
   */
  public ApiServer.Builder audit(AuditPolicy policy, AuditSink sink) {
    this.auditPolicy = Objects.requireNonNull(policy, "policy");
    this.auditSink = Objects.requireNonNull(sink, "sink");
    return self();
  }

  /** A resource without a class, as {@link #addUnstructuredResource} adds it. */
  record UnstructuredResource(
      ResourceDefinition definition,
      GroupVersion storageVersion,
      List<GroupVersion> servedVersions) {}

  ServerOptions(Scheme scheme) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
  }

  /** The builder these options are, for the setters to return. */
  private ApiServer.Builder self() {
    return (ApiServer.Builder) this;
  }
}
