package dev.machinery.builtins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.apiextensions.schema.StructuralSchema;
import dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceValidator;
import dev.machinery.core.codec.FieldProblem;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.Validation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Kubernetes' built-in kinds, served from Kubernetes' own OpenAPI description of release 1.33:
 * every resource of a GA group version that keeps objects (Pods, Services, ConfigMaps, Secrets,
 * Deployments, Jobs, Leases, RBAC, storage, networking, policy, admission configuration, ...), each
 * in its GA version, as an {@link Unstructured} resource of an {@link ApiServer}: discovery (names,
 * short names, categories, verbs and subresources as kube-apiserver lists them), OpenAPI v2 and v3
 * (Kubernetes' own schemas), pruning of unknown fields and validation against those schemas,
 * server-side apply by them, kube-apiserver's Table columns for the kinds {@code kubectl get} users
 * see most, the {@code status} and {@code scale} subresources, a CertificateSigningRequest's {@code
 * approval} with kube-apiserver's CSR strategies and validation, and the defaults Kubernetes' Go
 * code sets on Deployments, Pods, Services, Jobs and the kinds that hold a Pod template.
 *
 * <p>What Kubernetes checks in Go beyond its schemas (cross-field rules, immutable fields, name
 * formats of most kinds) is not checked here; docs/builtins.md lists what differs.
 *
 * <p>Immutable and thread-safe; the document's digest is read once per process, the whole document
 * when a client first reads OpenAPI or a patch or apply needs it, and the schemas are built on
 * first use.
 */
public final class BuiltinKinds {
  /** The Kubernetes release whose kinds are served. */
  public static final String RELEASE = "v1.33";

  /** Resources a plain store does not serve: reviews, virtual and aggregated ones. */
  private static final Set<String> NOT_STORED =
      Set.of(
          "componentstatuses",
          "bindings",
          "tokenreviews",
          "selfsubjectreviews",
          "subjectaccessreviews",
          "selfsubjectaccessreviews",
          "selfsubjectrulesreviews",
          "localsubjectaccessreviews");

  private static final Pattern GA = Pattern.compile("^v\\d+$");

  private static final GroupKind CSR =
      GroupKind.of("certificates.k8s.io", "CertificateSigningRequest");

  private static final class Loaded {
    static final BuiltinKinds INSTANCE = new BuiltinKinds(KubeOpenApi.load(RELEASE));
  }

  /**
   * Older versions served beside a resource's newest GA one, each with the conversion between them
   * carried over: {@code autoscaling/v1} HorizontalPodAutoscalers (kubectl 1.27 to 1.32 write
   * them).
   */
  private static final Map<String, GroupVersion> ALSO_SERVED =
      Map.of("autoscaling/horizontalpodautoscalers", HorizontalPodAutoscalerConversion.V1);

  private final KubeOpenApi openApi;
  private final List<BuiltinResource> resources;
  private final Map<String, BuiltinResource> olderServed = new LinkedHashMap<>();

  /** The kinds of a document; {@link #kubernetes()} holds the one of the bundled release. */
  BuiltinKinds(KubeOpenApi openApi) {
    this.openApi = openApi;
    Map<String, BuiltinResource> preferred = new LinkedHashMap<>();
    for (BuiltinResource resource : openApi.resources()) {
      if (!GA.matcher(resource.version().version()).matches()
          || NOT_STORED.contains(resource.resource())
          || !resource.verbs().contains("create")) {
        continue;
      }
      String key = resource.version().group() + "/" + resource.resource();
      BuiltinResource other = preferred.get(key);
      // One version of a resource: the newest GA one (autoscaling/v2 before v1), as versions of
      // different shapes would need conversions Kubernetes writes in Go.
      if (other == null || number(resource.version()) > number(other.version())) {
        preferred.put(key, resource);
      }
    }
    this.resources = List.copyOf(preferred.values());
    for (BuiltinResource resource : openApi.resources()) {
      String key = key(resource);
      if (resource.version().equals(ALSO_SERVED.get(key)) && preferred.containsKey(key)) {
        olderServed.put(key, resource);
      }
    }
  }

  private static String key(BuiltinResource resource) {
    return resource.version().group() + "/" + resource.resource();
  }

  /** The resource's versions as served: the newest GA one, and an older one carried beside it. */
  private List<BuiltinResource> servedVersions(BuiltinResource resource) {
    BuiltinResource older = olderServed.get(key(resource));
    return older == null ? List.of(resource) : List.of(resource, older);
  }

  private static int number(GroupVersion version) {
    return Integer.parseInt(version.version().substring(1));
  }

  /**
   * Returns Kubernetes 1.33's built-in kinds, read from the bundled OpenAPI document's digest on
   * first use.
   *
   * @return the kinds
   */
  public static BuiltinKinds kubernetes() {
    return Loaded.INSTANCE;
  }

  /**
   * Returns the kinds served, each in its one served version.
   *
   * @return the kinds, in the order of Kubernetes' OpenAPI paths
   */
  public List<GroupVersionKind> kinds() {
    List<GroupVersionKind> out = new ArrayList<>();
    resources.forEach(r -> out.add(r.groupVersionKind()));
    return out;
  }

  /**
   * Returns the structural schema a built-in kind's objects are pruned and validated by: its schema
   * in Kubernetes' OpenAPI document with references inlined, as a custom resource's schema is
   * written (built on first use).
   *
   * @param kind a kind of {@link #kinds()}
   * @return the schema, or empty when the kind is not served here
   */
  public Optional<StructuralSchema> structuralSchema(GroupVersionKind kind) {
    for (BuiltinResource resource : resources) {
      if (resource.groupVersionKind().equals(kind)) {
        return Optional.of(structural(resource));
      }
    }
    return Optional.empty();
  }

  /**
   * Starts an API server builder that serves every built-in kind, CustomResourceDefinitions (with
   * their CEL validation rules enforced when an implementation such as {@code machinery-cel} is on
   * the class path, and refused otherwise) and RBAC's kinds over a Scheme holding {@code
   * meta.k8s.io/v1}, {@code apiextensions.k8s.io/v1} and {@code rbac.authorization.k8s.io/v1} (RBAC
   * is enforced only when the caller asks for it with {@link ApiServer.Builder#rbac()}), with
   * kube-apiserver's default admission plugins of {@link DefaultAdmission#kubernetes()}.
   *
   * @return the builder, for storage, TLS, authentication and the like
   */
  public static ApiServer.Builder apiServer() {
    return apiServer(DefaultAdmission.kubernetes());
  }

  /**
   * Starts an API server builder as {@link #apiServer()} does, with a choice of kube-apiserver's
   * default admission plugins ({@code --enable-admission-plugins}, {@code
   * --disable-admission-plugins}).
   *
   * @param admission the plugins, such as {@code DefaultAdmission.kubernetes().disable("Priority")}
   * @return the builder, for storage, TLS, authentication and the like
   */
  public static ApiServer.Builder apiServer(DefaultAdmission admission) {
    return apiServer(kubernetes(), admission);
  }

  /** A server builder as {@link #apiServer(DefaultAdmission)} makes it, serving these kinds. */
  static ApiServer.Builder apiServer(BuiltinKinds kinds, DefaultAdmission admission) {
    Scheme.Builder scheme = MetaV1.addToScheme(Scheme.builder());
    ApiextensionsV1.addToScheme(scheme);
    RbacV1.addToScheme(scheme);
    ApiServer.Builder builder =
        ApiServer.builder(scheme.build())
            .customResourceDefinitions(InstalledValidationRules.find());
    kinds.install(builder);
    return admission.install(builder);
  }

  /**
   * Adds every built-in kind the builder does not serve yet (a kind the builder already has, such
   * as one modelled in Java, keeps its own definition), with their OpenAPI schemas.
   *
   * @param builder the server's builder
   * @return the builder
   */
  public ApiServer.Builder install(ApiServer.Builder builder) {
    Map<GroupVersionKind, JsonNode> schemas = new LinkedHashMap<>();
    for (BuiltinResource resource : resources) {
      GroupKind kind = GroupKind.of(resource.version().group(), resource.kind());
      if (builder.serves(kind)) {
        continue;
      }
      List<GroupVersion> versions = new ArrayList<>();
      for (BuiltinResource served : servedVersions(resource)) {
        versions.add(served.version());
        schemas.put(served.groupVersionKind(), reference(served.definition()));
        if (served.listDefinition() != null && !served.listDefinition().isEmpty()) {
          schemas.put(
              served.version().withKind(served.kind() + "List"),
              reference(served.listDefinition()));
        }
      }
      builder.addUnstructuredResource(definition(resource), storageVersion(resource), versions);
    }
    return builder.openApiSchemas(schemas, openApi.lazyComponents());
  }

  private static JsonNode reference(String name) {
    return JsonNodeFactory.instance.objectNode().put("$ref", "#/components/schemas/" + name);
  }

  /**
   * The version a resource's objects are stored in: its served one, but for {@code events.k8s.io}
   * Events, which kube-apiserver stores as core {@code v1} Events beside those of the core group.
   */
  private GroupVersion storageVersion(BuiltinResource resource) {
    return cohabitsWithCoreEvents(resource) ? EventConversion.CORE_V1 : resource.version();
  }

  private boolean cohabitsWithCoreEvents(BuiltinResource resource) {
    return GroupKind.of(resource.version().group(), resource.kind())
            .equals(EventConversion.EVENTS_EVENT)
        && coreEvents().isPresent();
  }

  private Optional<BuiltinResource> coreEvents() {
    return resources.stream()
        .filter(
            r ->
                r.version().equals(EventConversion.CORE_V1)
                    && r.kind().equals(EventConversion.CORE_EVENT.kind()))
        .findFirst();
  }

  /** The resource as the server serves it. */
  ResourceDefinition definition(BuiltinResource resource) {
    GroupKind kind = GroupKind.of(resource.version().group(), resource.kind());
    // Objects are checked in the version they are stored in: events.k8s.io Events as core Events.
    BuiltinResource stored =
        cohabitsWithCoreEvents(resource) ? coreEvents().orElseThrow() : resource;
    GroupKind storedKind = GroupKind.of(stored.version().group(), stored.kind());
    List<BuiltinResource> servedVersions = servedVersions(resource);
    Map<String, String> schemaNames = new LinkedHashMap<>();
    servedVersions.forEach(v -> schemaNames.put(v.version().toString(), v.definition()));
    ResourceDefinition.Builder builder =
        ResourceDefinition.builder(kind, resource.namespaced())
            .resource(resource.resource())
            .singular(resource.kind().toLowerCase(Locale.ROOT))
            .kindFromEndpoint()
            .verbs(resource.verbs())
            .shortNames(Names.shortNames(resource.resource()).toArray(String[]::new))
            .categories(Names.categories(resource.resource()).toArray(String[]::new))
            .applySchemas(
                v ->
                    schemaNames.containsKey(v)
                        ? openApi.applySchema().type(schemaNames.get(v))
                        : null)
            .strategicMergePatchSchemas(
                v ->
                    schemaNames.containsKey(v)
                        ? openApi.patchSchemas().forDefinition(schemaNames.get(v))
                        : null)
            .normalizer(
                object ->
                    normalize(
                        servedAs(servedVersions, (Unstructured) object), (Unstructured) object))
            .validator(
                new ResourceValidator() {
                  @Override
                  public List<FieldError> validate(Object object, Object old) {
                    return validateBuiltin(stored, storedKind, object, old, "");
                  }

                  @Override
                  public List<FieldError> validate(
                      Attributes requester, Object object, Object old) {
                    return validateBuiltin(
                        stored, storedKind, object, old, requester.subresource());
                  }
                });
    if (stored != resource) {
      builder.conversion(new EventConversion());
    } else if (servedVersions.size() > 1) {
      builder.conversion(new HorizontalPodAutoscalerConversion());
    }
    if (kind.equals(GroupKind.of("apps", "StatefulSet"))) {
      builder.readDefaults(object -> Defaults.onRead(kind, ((Unstructured) object).content()));
    }
    if (resource.subresources().contains("status")) {
      builder.statusSubresource();
    }
    if (resource.subresources().contains("scale")) {
      builder.scaleSubresource(Unstructured.class, new ReplicasScale());
    }
    if (Names.tracksGeneration(kind)) {
      builder.tracksGeneration();
    }
    if (kind.equals(CSR)) {
      builder.prepareForCreateAs(
          (user, object) -> {
            CertificateSigningRequests.prepareForCreate(((Unstructured) object).content(), user);
            return object;
          });
      builder.updateSubresource(
          "status",
          (object, old) -> {
            CertificateSigningRequests.prepareStatusUpdate(
                ((Unstructured) object).content(), ((Unstructured) old).content());
            return object;
          });
      builder.updateSubresource(
          "approval",
          (object, old) -> {
            CertificateSigningRequests.prepareApprovalUpdate(
                ((Unstructured) object).content(), ((Unstructured) old).content());
            return object;
          });
    }
    if (kind.equals(GroupKind.of("", "Pod"))) {
      builder.subresource("eviction", PodEviction.action());
      builder.subresource("binding", PodBinding.action());
    }
    if (resource.deleteReturnsObject() || kind.equals(GroupKind.of("", "Namespace"))) {
      builder.returnDeletedObject();
    }
    if (kind.equals(GroupKind.of("", "Namespace"))) {
      builder.names(Validation::nameIsDNSLabel);
    }
    if (kind.equals(GroupKind.of("", "Pod"))) {
      builder.gracefulDelete(
          (object, requested) ->
              Strategies.podGracePeriod(((Unstructured) object).content(), requested));
    }
    boolean hasStatus = resource.subresources().contains("status");
    builder
        .prepareForCreate(
            object -> {
              Strategies.prepareForCreate(storedKind, hasStatus, ((Unstructured) object).content());
              return object;
            })
        .prepareForUpdate(
            (object, old) -> {
              Strategies.prepareForUpdate(
                  storedKind, ((Unstructured) object).content(), ((Unstructured) old).content());
              return object;
            });
    if (Printers.has(kind)) {
      // The columns are made when a client first asks for a Table of the kind.
      builder.table(new LazyTable(() -> Printers.forKind(kind).orElseThrow()));
    }
    FieldLabels.forKind(kind).forEach(builder::fieldLabel);
    FieldLabels.indexedFor(kind).forEach(builder::indexField);
    return builder.build();
  }

  /**
   * A built-in object's errors: its schema's, the kind's own checks, and for a
   * CertificateSigningRequest kube's validation of the main resource or the subresource written.
   */
  private List<FieldError> validateBuiltin(
      BuiltinResource resource, GroupKind kind, Object object, Object old, String subresource) {
    Unstructured u = (Unstructured) object;
    List<FieldError> errors = new ArrayList<>(structural(resource).validate(u.content()));
    errors.addAll(Checks.validate(kind, u.content()));
    Map<String, Object> was = old == null ? null : ((Unstructured) old).content();
    if (was != null) {
      errors.addAll(Checks.validateUpdate(kind, u.content(), was));
    }
    if (kind.equals(CSR)) {
      errors.addAll(CertificateSigningRequests.validate(u.content(), was, subresource));
    }
    return errors;
  }

  private StructuralSchema structural(BuiltinResource resource) {
    return openApi.structural(resource.definition());
  }

  /** The served version an object a client wrote is in (by its apiVersion; the newest else). */
  private static BuiltinResource servedAs(List<BuiltinResource> versions, Unstructured object) {
    for (BuiltinResource version : versions) {
      if (version.version().toString().equals(object.getApiVersion())) {
        return version;
      }
    }
    return versions.get(0);
  }

  /**
   * What a write goes through before validation, as Go's decoding and defaulting: unknown fields
   * pruned (and reported for field validation), quantities, times and bytes in their canonical form
   * (a value Go cannot decode refused, {@link CanonicalValues}), Kubernetes' defaults, then the
   * nulls the schema allows no null for dropped (a null is Go's zero value, which its JSON leaves
   * out), as a custom resource's are.
   */
  private List<FieldProblem> normalize(BuiltinResource resource, Unstructured object) {
    List<FieldProblem> pruned = new ArrayList<>();
    List<String> dropped = new ArrayList<>(structural(resource).prune(object.content()));
    // What ObjectMeta lacks is dropped, as Go's decoding drops it.
    dropped.addAll(StructuralSchema.pruneMetadata(object.content()));
    for (String path : dropped) {
      pruned.add(new FieldProblem(FieldProblem.Type.UNKNOWN_FIELD, path));
    }
    openApi
        .canonicalValues(resource.definition())
        .canonicalize(
            object.content(),
            resource.groupVersionKind().kind(),
            resource.groupVersionKind().version());
    Defaults.apply(resource.groupVersionKind(), object.content());
    structural(resource).pruneNonNullableNulls(object.content());
    return pruned;
  }
}
