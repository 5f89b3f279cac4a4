package dev.machinery.apiserver.registry.rest;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.apiserver.negotiation.TableConvertor;
import dev.machinery.core.patch.StrategicMergeSchema;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.unversioned.discovery.ResourceInfo;
import dev.machinery.unversioned.validation.NameValidator;
import dev.machinery.unversioned.validation.Validation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What the server needs to know about one resource beyond its Java types: its names (plural,
 * singular, short names, categories), scope, storage version, subresources, Table columns, name
 * rule, validation and field labels. The versions it is served in are those the Scheme registers
 * the kind in, less those the enablement turns off.
 *
 * <p>Immutable; built with {@link #builder(GroupKind, boolean)}.
 */
public final class ResourceDefinition {
  private final GroupKind kind;
  private final String resource;
  private final String singular;
  private final boolean namespaced;
  private final List<String> shortNames;
  private final List<String> categories;
  private final GroupVersion storageVersion;
  private final boolean statusSubresource;
  private final boolean generation;
  private final boolean returnDeletedObject;
  private final boolean kindFromEndpoint;
  private final List<String> verbs;
  private final UnstructuredConversion conversion;
  private final Class<?> scaleType;
  private final ScaleAccessor<Object> scale;
  private final Map<String, SubresourceAction> actions;
  private final Map<String, BinaryOperator<Object>> updateSubresources;
  private final TableConvertor table;
  private final NameValidator names;
  private final ResourceValidator validator;
  private final UnaryOperator<Object> prepareForCreate;
  private final BiFunction<UserInfo, Object, Object> prepareForCreateAs;
  private final BinaryOperator<Object> prepareForUpdate;
  private final Map<String, Function<Object, String>> fieldLabels;
  private final Set<String> indexedFields;
  private final ObjectNormalizer normalizer;
  private final Consumer<Object> readDefaults;
  private final Function<String, SchemaType> applySchemas;
  private final Function<String, StrategicMergeSchema> strategicMergePatchSchemas;
  private final GarbageCollectionPolicy garbageCollectionPolicy;
  private final GracefulDeleteStrategy gracefulDelete;
  private final long timeToLiveSeconds;

  @SuppressWarnings("unchecked")
  private ResourceDefinition(Builder builder) {
    this.kind = builder.kind;
    this.resource = builder.resource;
    this.singular = builder.singular;
    this.namespaced = builder.namespaced;
    this.shortNames = List.copyOf(builder.shortNames);
    this.categories = List.copyOf(builder.categories);
    this.storageVersion = builder.storageVersion;
    this.statusSubresource = builder.statusSubresource;
    this.generation = builder.generation;
    this.returnDeletedObject = builder.returnDeletedObject;
    this.kindFromEndpoint = builder.kindFromEndpoint;
    this.verbs = builder.verbs;
    this.conversion = builder.conversion;
    this.scaleType = builder.scaleType;
    this.scale = (ScaleAccessor<Object>) builder.scale;
    this.actions = Collections.unmodifiableMap(new LinkedHashMap<>(builder.actions));
    this.updateSubresources =
        Collections.unmodifiableMap(new LinkedHashMap<>(builder.updateSubresources));
    this.table = builder.table;
    this.names = builder.names;
    this.validator = builder.validator;
    this.prepareForCreate = builder.prepareForCreate;
    this.prepareForCreateAs = builder.prepareForCreateAs;
    this.prepareForUpdate = builder.prepareForUpdate;
    this.fieldLabels = Map.copyOf(builder.fieldLabels);
    this.indexedFields = Set.copyOf(builder.indexedFields);
    this.normalizer = builder.normalizer;
    this.readDefaults = builder.readDefaults;
    this.applySchemas = builder.applySchemas;
    this.strategicMergePatchSchemas = builder.strategicMergePatchSchemas;
    this.garbageCollectionPolicy = builder.garbageCollectionPolicy;
    this.gracefulDelete = builder.gracefulDelete;
    this.timeToLiveSeconds = builder.timeToLiveSeconds;
  }

  private ResourceDefinition(
      ResourceDefinition from, Map<String, SubresourceAction> actions, long timeToLiveSeconds) {
    this.kind = from.kind;
    this.resource = from.resource;
    this.singular = from.singular;
    this.namespaced = from.namespaced;
    this.shortNames = from.shortNames;
    this.categories = from.categories;
    this.storageVersion = from.storageVersion;
    this.statusSubresource = from.statusSubresource;
    this.generation = from.generation;
    this.returnDeletedObject = from.returnDeletedObject;
    this.kindFromEndpoint = from.kindFromEndpoint;
    this.verbs = from.verbs;
    this.conversion = from.conversion;
    this.scaleType = from.scaleType;
    this.scale = from.scale;
    this.actions = Collections.unmodifiableMap(new LinkedHashMap<>(actions));
    this.updateSubresources = from.updateSubresources;
    this.table = from.table;
    this.names = from.names;
    this.validator = from.validator;
    this.prepareForCreate = from.prepareForCreate;
    this.prepareForCreateAs = from.prepareForCreateAs;
    this.prepareForUpdate = from.prepareForUpdate;
    this.fieldLabels = from.fieldLabels;
    this.indexedFields = from.indexedFields;
    this.normalizer = from.normalizer;
    this.readDefaults = from.readDefaults;
    this.applySchemas = from.applySchemas;
    this.strategicMergePatchSchemas = from.strategicMergePatchSchemas;
    this.garbageCollectionPolicy = from.garbageCollectionPolicy;
    this.gracefulDelete = from.gracefulDelete;
    this.timeToLiveSeconds = timeToLiveSeconds;
  }

  /**
   * Returns this definition with one more subresource answered in code (a server adding its own,
   * such as a service account's {@code token}); one of the same name already there is kept.
   *
   * @param name the subresource's name
   * @param action what answers it
   * @return a new definition, or this one when it has the subresource
   */
  public ResourceDefinition withSubresource(String name, SubresourceAction action) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(action, "action");
    if (actions.containsKey(name)) {
      return this;
    }
    Map<String, SubresourceAction> more = new LinkedHashMap<>(actions);
    more.put(name, action);
    return new ResourceDefinition(this, more, timeToLiveSeconds);
  }

  /**
   * Returns this definition with its objects kept for a time after each write ({@link
   * Builder#timeToLive}), as a server gives Events its {@code --event-ttl}.
   *
   * @param timeToLive the time, in whole seconds, at least one
   * @return a new definition
   * @throws IllegalArgumentException when the time is under a second or not whole seconds
   */
  public ResourceDefinition withTimeToLive(Duration timeToLive) {
    return new ResourceDefinition(this, actions, seconds(timeToLive));
  }

  /**
   * Returns how long an object is kept after its last write before the storage deletes it by
   * itself, as kube-apiserver keeps Events; empty for objects kept until deleted.
   *
   * @return the time to live
   */
  public Optional<Duration> timeToLive() {
    return timeToLiveSeconds == 0
        ? Optional.empty()
        : Optional.of(Duration.ofSeconds(timeToLiveSeconds));
  }

  private static long seconds(Duration timeToLive) {
    if (timeToLive.getNano() != 0 || timeToLive.getSeconds() < 1) {
      throw new IllegalArgumentException(
          "a time to live is a whole number of seconds, at least one, not " + timeToLive);
    }
    return timeToLive.getSeconds();
  }

  /**
   * Starts a definition with Kubernetes' guessed plural ({@link ResourceInfo#guessPlural}).
   *
   * @param kind the kind
   * @param namespaced whether objects live in namespaces
   * @return the builder
   */
  public static Builder builder(GroupKind kind, boolean namespaced) {
    return new Builder(kind, namespaced);
  }

  /**
   * Returns the kind.
   *
   * @return the group and kind
   */
  public GroupKind kind() {
    return kind;
  }

  /**
   * Returns the plural resource name.
   *
   * @return the resource, such as {@code deployments}
   */
  public String resource() {
    return resource;
  }

  /**
   * Whether objects live in namespaces.
   *
   * @return true for a namespaced resource
   */
  public boolean namespaced() {
    return namespaced;
  }

  /**
   * Returns the storage version, or empty for the group's preferred version.
   *
   * @return the storage version
   */
  public Optional<GroupVersion> storageVersion() {
    return Optional.ofNullable(storageVersion);
  }

  /**
   * Whether the resource has a {@code status} subresource (the main resource then ignores status
   * changes, and the subresource changes only status).
   *
   * @return true when it has one
   */
  public boolean hasStatus() {
    return statusSubresource;
  }

  /**
   * Whether the server keeps {@code metadata.generation}: 1 on create, bumped on each change
   * outside metadata and status (as for Deployments; ConfigMaps and Namespaces have none).
   *
   * @return true when it does
   */
  public boolean tracksGeneration() {
    return generation;
  }

  /**
   * Whether a delete that removes the object answers with the object, as kube-apiserver's stores of
   * Pods, Namespaces and custom resources do; otherwise (most kinds: ConfigMaps, Secrets,
   * Deployments, ...) it answers a {@code Status} of {@code Success} naming the object (its name,
   * group, resource as {@code kind}, and uid). A delete that finalizers hold answers the object
   * either way.
   *
   * @return true when it answers the object
   */
  public boolean returnsDeletedObject() {
    return returnDeletedObject;
  }

  /**
   * Returns what a delete naming no propagation policy does with the dependents of the resource's
   * objects ({@link GarbageCollectionPolicy#DELETE_DEPENDENTS} unless the builder was given
   * another).
   *
   * @return the policy
   */
  public GarbageCollectionPolicy garbageCollectionPolicy() {
    return garbageCollectionPolicy;
  }

  /**
   * Returns how the resource's objects are deleted gracefully, when they are (Pods); empty for the
   * kinds deleted at once, whose deletes ignore {@code gracePeriodSeconds}.
   *
   * @return the strategy, if any
   */
  public Optional<GracefulDeleteStrategy> gracefulDelete() {
    return Optional.ofNullable(gracefulDelete);
  }

  /**
   * Returns how objects held without classes move between the resource's versions ({@link
   * UnstructuredConversion#none()} unless the builder was given one).
   *
   * @return the conversion
   */
  public UnstructuredConversion conversion() {
    return conversion;
  }

  /**
   * Returns the verbs the resource answers, as discovery lists them (every verb by default);
   * requests for others are answered {@code 405 MethodNotAllowed}.
   *
   * @return the verbs
   */
  public List<String> verbs() {
    return verbs;
  }

  /**
   * Whether a body that names no {@code apiVersion} or {@code kind} is taken to be of the
   * endpoint's kind, as kube-apiserver takes it for its built-in kinds; otherwise (custom
   * resources) such a body is refused.
   *
   * @return true when the endpoint's kind is the default
   */
  public boolean kindFromEndpoint() {
    return kindFromEndpoint;
  }

  /**
   * Returns the {@code scale} subresource's accessor, if any.
   *
   * @return the accessor
   */
  public Optional<ScaleAccessor<Object>> scale() {
    return Optional.ofNullable(scale);
  }

  /**
   * Returns the subresources answered in code ({@link SubresourceAction}), by name.
   *
   * @return the actions, possibly none
   */
  public Map<String, SubresourceAction> actions() {
    return actions;
  }

  /**
   * Returns the update strategies of the subresources written as the object itself ({@link
   * Builder#updateSubresource}), by name: {@code status} when the resource's status subresource has
   * one of its own, and subresources such as a CertificateSigningRequest's {@code approval}.
   *
   * @return the strategies, possibly none
   */
  public Map<String, BinaryOperator<Object>> updateSubresources() {
    return updateSubresources;
  }

  /**
   * Returns the class the scale accessor works on, or {@code null}.
   *
   * @return the class
   */
  public Class<?> scaleType() {
    return scaleType;
  }

  /**
   * Returns the Table columns, or empty for the default (name and creation time).
   *
   * @return the convertor
   */
  public Optional<TableConvertor> table() {
    return Optional.ofNullable(table);
  }

  /**
   * Returns the name rule.
   *
   * @return the rule
   */
  public NameValidator names() {
    return names;
  }

  /**
   * Returns the resource's validation, run after the metadata checks.
   *
   * @return the validator
   */
  public ResourceValidator validator() {
    return validator;
  }

  /**
   * Returns what the resource does to a new object before it is validated ({@code
   * PrepareForCreate}), such as setting a Namespace's phase.
   *
   * @return the function, given and returning an object in the storage version
   */
  public UnaryOperator<Object> prepareForCreate() {
    return prepareForCreate;
  }

  /**
   * Returns what the resource does to a new object with the requesting user, after {@link
   * #prepareForCreate()} (see {@link Builder#prepareForCreateAs}).
   *
   * @return the function; by default it returns the object as given
   */
  public BiFunction<UserInfo, Object, Object> prepareForCreateAs() {
    return prepareForCreateAs;
  }

  /**
   * Returns what the resource does to an object written over a stored one through the main resource
   * before it is validated ({@code PrepareForUpdate}), after the server's own rules (the stored
   * status kept, the generation bumped on a change outside metadata and status): such as keeping a
   * Namespace's {@code spec.finalizers}, or bumping a Deployment's generation when its annotations
   * change. Writes through the {@code status} subresource do not call it.
   *
   * @return the function, given the new and the stored object in the storage version, returning the
   *     object to validate and store
   */
  public BinaryOperator<Object> prepareForUpdate() {
    return prepareForUpdate;
  }

  /**
   * Returns what the resource does to an object a client wrote before it is stored (pruning and
   * defaulting by a schema); {@link ObjectNormalizer#NONE} unless set.
   *
   * @return the normalizer
   */
  public ObjectNormalizer normalizer() {
    return normalizer;
  }

  /**
   * Returns what the resource fills in an object read from storage, as kube-apiserver defaults a
   * custom resource on read (defaults added to its schema after the object was written); nothing
   * unless set.
   *
   * @return the function, given an object in the storage version to change in place
   */
  public Consumer<Object> readDefaults() {
    return readDefaults;
  }

  /**
   * Returns the schema server-side apply reads the resource's objects by in an API version, when
   * the resource gives one (custom resources, from their {@code openAPIV3Schema}); otherwise the
   * server reads them by their Java class.
   *
   * @param apiVersion the API version, like {@code example.dev/v1}
   * @return the schema, or empty
   */
  public Optional<SchemaType> applySchema(String apiVersion) {
    return Optional.ofNullable(applySchemas.apply(apiVersion));
  }

  /**
   * Returns the patch strategies a strategic merge patch reads the resource's objects by in an API
   * version, when the resource gives them (kinds served as {@code Unstructured} objects and
   * described by OpenAPI, such as Kubernetes' built-in kinds from their {@code swagger.json});
   * otherwise a strategic merge patch reads the object's Java class, and an {@code Unstructured}
   * object refuses one (415, as kube-apiserver answers for custom resources).
   *
   * @param apiVersion the API version, like {@code apps/v1}
   * @return the schema, or empty
   */
  public Optional<StrategicMergeSchema> strategicMergePatchSchema(String apiVersion) {
    return Optional.ofNullable(strategicMergePatchSchemas.apply(apiVersion));
  }

  /**
   * Returns the field labels a field selector may use beyond {@code metadata.name} and {@code
   * metadata.namespace}, each read from an object in the storage version.
   *
   * @return the labels by name
   */
  public Map<String, Function<Object, String>> fieldLabels() {
    return fieldLabels;
  }

  /**
   * Returns the field labels the resource's watch cache indexes, as kube-apiserver's cache indexes
   * a Pod's {@code spec.nodeName}: a list whose field selector requires one value of such a field
   * reads only the objects with that value.
   *
   * @return the indexed labels, each one of {@link #fieldLabels()}
   */
  public Set<String> indexedFields() {
    return indexedFields;
  }

  /**
   * Returns the resource as discovery describes it in one version: with its {@code status} and
   * {@code scale} subresources, and a core Namespace's {@code finalize}.
   *
   * @param version the version (its kind for the scale subresource is {@code autoscaling/v1})
   * @return the description
   */
  public ResourceInfo info(GroupVersion version) {
    ResourceInfo info =
        new ResourceInfo(
            kind.kind(), resource, singular, namespaced, verbs, shortNames, categories, List.of());
    if (statusSubresource) {
      info =
          info.withSubresource(
              new ResourceInfo.Subresource(
                  "status", version.withKind(kind.kind()), List.of("get", "patch", "update")));
    }
    if (kind.group().isEmpty() && kind.kind().equals("Namespace")) {
      // The server serves a Namespace's finalize subresource, written with PUT only.
      info =
          info.withSubresource(
              new ResourceInfo.Subresource(
                  "finalize", version.withKind(kind.kind()), List.of("update")));
    }
    if (scale != null) {
      info =
          info.withSubresource(
              new ResourceInfo.Subresource(
                  "scale",
                  GroupVersion.of("autoscaling", "v1").withKind("Scale"),
                  List.of("get", "patch", "update")));
    }
    for (String name : updateSubresources.keySet()) {
      if (!name.equals("status")) {
        info =
            info.withSubresource(
                new ResourceInfo.Subresource(
                    name, version.withKind(kind.kind()), List.of("get", "patch", "update")));
      }
    }
    for (Map.Entry<String, SubresourceAction> action : actions.entrySet()) {
      info =
          info.withSubresource(
              new ResourceInfo.Subresource(
                  action.getKey(), action.getValue().kind(), action.getValue().verbs()));
    }
    return info;
  }

  /** Collects a definition. Not thread-safe. */
  public static final class Builder {
    private final GroupKind kind;
    private final boolean namespaced;
    private long timeToLiveSeconds;
    private String resource;
    private String singular;
    private final List<String> shortNames = new ArrayList<>();
    private final List<String> categories = new ArrayList<>();
    private GroupVersion storageVersion;
    private boolean statusSubresource;
    private boolean generation;
    private boolean returnDeletedObject;
    private boolean kindFromEndpoint;
    private List<String> verbs = ResourceInfo.ALL_VERBS;
    private UnstructuredConversion conversion = UnstructuredConversion.none();
    private Class<?> scaleType;
    private final Map<String, SubresourceAction> actions = new LinkedHashMap<>();
    private final Map<String, BinaryOperator<Object>> updateSubresources = new LinkedHashMap<>();
    private ScaleAccessor<?> scale;
    private TableConvertor table;
    private NameValidator names = Validation::nameIsDNSSubdomain;
    private ResourceValidator validator = (object, old) -> List.of();
    private UnaryOperator<Object> prepareForCreate = UnaryOperator.identity();
    private BiFunction<UserInfo, Object, Object> prepareForCreateAs = (user, object) -> object;
    private BinaryOperator<Object> prepareForUpdate = (updated, old) -> updated;
    private final Map<String, Function<Object, String>> fieldLabels = new LinkedHashMap<>();
    private final Set<String> indexedFields = new LinkedHashSet<>();
    private ObjectNormalizer normalizer = ObjectNormalizer.NONE;
    private Consumer<Object> readDefaults = object -> {};
    private Function<String, SchemaType> applySchemas = version -> null;
    private Function<String, StrategicMergeSchema> strategicMergePatchSchemas = version -> null;
    private GarbageCollectionPolicy garbageCollectionPolicy =
        GarbageCollectionPolicy.DELETE_DEPENDENTS;
    private GracefulDeleteStrategy gracefulDelete;

    private Builder(GroupKind kind, boolean namespaced) {
      this.kind = Objects.requireNonNull(kind, "kind");
      this.namespaced = namespaced;
      this.resource = ResourceInfo.guessPlural(kind.kind());
      this.singular = kind.kind().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Sets the plural resource name.
     *
     * @param resource the plural, such as {@code deployments}
     * @return this builder
     */
    public Builder resource(String resource) {
      this.resource = Objects.requireNonNull(resource, "resource");
      return this;
    }

    /**
     * Sets the singular resource name (the lower-cased kind by default).
     *
     * @param singular the singular, such as {@code deployment}
     * @return this builder
     */
    public Builder singular(String singular) {
      this.singular = Objects.requireNonNull(singular, "singular");
      return this;
    }

    /**
     * Adds short names ({@code deploy}).
     *
     * @param names the short names
     * @return this builder
     */
    public Builder shortNames(String... names) {
      shortNames.addAll(List.of(names));
      return this;
    }

    /**
     * Adds categories ({@code all}).
     *
     * @param names the categories
     * @return this builder
     */
    public Builder categories(String... names) {
      categories.addAll(List.of(names));
      return this;
    }

    /**
     * Sets the version objects are stored in (default: the group's preferred version).
     *
     * @param version the storage version
     * @return this builder
     */
    public Builder storageVersion(GroupVersion version) {
      this.storageVersion = Objects.requireNonNull(version, "version");
      return this;
    }

    /**
     * Adds the {@code status} subresource.
     *
     * @return this builder
     */
    public Builder statusSubresource() {
      this.statusSubresource = true;
      return this;
    }

    /**
     * Keeps {@code metadata.generation} (see {@link ResourceDefinition#tracksGeneration()}).
     *
     * @return this builder
     */
    public Builder tracksGeneration() {
      this.generation = true;
      return this;
    }

    /**
     * Answers a delete with the deleted object instead of a {@code Status} (see {@link
     * ResourceDefinition#returnsDeletedObject()}).
     *
     * @return this builder
     */
    public Builder returnDeletedObject() {
      this.returnDeletedObject = true;
      return this;
    }

    /**
     * Sets what a delete naming no propagation policy does with the dependents (see {@link
     * ResourceDefinition#garbageCollectionPolicy()}).
     *
     * @param policy the policy
     * @return this builder
     */
    public Builder garbageCollectionPolicy(GarbageCollectionPolicy policy) {
      this.garbageCollectionPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Keeps each object for a time after its last write, after which the storage deletes it by
     * itself (a delete watchers see; in etcd, a lease), as kube-apiserver keeps Events for its
     * {@code --event-ttl}. Every create and update starts the time again.
     *
     * @param timeToLive the time, in whole seconds, at least one
     * @return this builder
     * @throws IllegalArgumentException when the time is under a second or not whole seconds
     */
    public Builder timeToLive(Duration timeToLive) {
      this.timeToLiveSeconds = seconds(timeToLive);
      return this;
    }

    /**
     * Deletes the resource's objects gracefully, with the grace period the strategy chooses (see
     * {@link ResourceDefinition#gracefulDelete()}).
     *
     * @param strategy the strategy
     * @return this builder
     */
    public Builder gracefulDelete(GracefulDeleteStrategy strategy) {
      this.gracefulDelete = Objects.requireNonNull(strategy, "strategy");
      return this;
    }

    /**
     * Takes a body that names no {@code apiVersion} or {@code kind} to be of the endpoint's kind
     * (see {@link ResourceDefinition#kindFromEndpoint()}). Kinds with classes always are.
     *
     * @return this builder
     */
    public Builder kindFromEndpoint() {
      this.kindFromEndpoint = true;
      return this;
    }

    /**
     * Sets how the resource's objects, held without classes, move between its versions ({@link
     * UnstructuredConversion#none()} by default).
     *
     * @param conversion the conversion
     * @return this builder
     */
    public Builder conversion(UnstructuredConversion conversion) {
      this.conversion = Objects.requireNonNull(conversion, "conversion");
      return this;
    }

    /**
     * Limits the verbs the resource answers (all of {@link ResourceInfo#ALL_VERBS} by default), as
     * kube-apiserver serves Namespaces without {@code deletecollection}.
     *
     * @param verbs some of {@link ResourceInfo#ALL_VERBS}
     * @return this builder
     */
    public Builder verbs(java.util.Collection<String> verbs) {
      for (String verb : verbs) {
        if (!ResourceInfo.ALL_VERBS.contains(verb)) {
          throw new IllegalArgumentException(
              "unknown verb \"" + verb + "\"; the verbs are " + ResourceInfo.ALL_VERBS);
        }
      }
      List<String> ordered = new java.util.ArrayList<>(ResourceInfo.ALL_VERBS);
      ordered.retainAll(verbs);
      this.verbs = List.copyOf(ordered);
      return this;
    }

    /**
     * Adds a subresource answered in code, such as a pod's {@code binding}.
     *
     * @param name the subresource's name
     * @param action what answers it
     * @return this builder
     */
    public Builder subresource(String name, SubresourceAction action) {
      actions.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(action, "action"));
      return this;
    }

    /**
     * Adds a subresource written as the object itself ({@code get}, {@code update}, {@code patch}
     * and apply of the whole object), with an update strategy of its own in place of the main
     * resource's, as kube-apiserver's CertificateSigningRequest {@code approval} subresource and
     * its status strategies. For {@code status} (of a resource with {@link #statusSubresource()})
     * the strategy runs after the server's own rule (the stored object with the new status); for
     * any other name it is given the object as sent. Admission sees the subresource's name, and the
     * resource's validator runs on what the strategy returns (a {@link ResourceValidator} that
     * needs to tell the subresource apart reads it from the requester's attributes).
     *
     * @param name the subresource's name, such as {@code approval}
     * @param prepare makes the object to store from the new one and the stored one (which it must
     *     not change), both in the storage version
     * @return this builder
     */
    public Builder updateSubresource(String name, BinaryOperator<Object> prepare) {
      updateSubresources.put(
          Objects.requireNonNull(name, "name"), Objects.requireNonNull(prepare, "prepare"));
      return this;
    }

    /**
     * Adds the {@code scale} subresource, read and written through an accessor on the storage
     * version's class.
     *
     * @param type the storage version's class
     * @param accessor reads and writes the replicas
     * @param <T> the class
     * @return this builder
     */
    public <T> Builder scaleSubresource(Class<T> type, ScaleAccessor<? super T> accessor) {
      this.scaleType = Objects.requireNonNull(type, "type");
      this.scale = Objects.requireNonNull(accessor, "accessor");
      return this;
    }

    /**
     * Sets the Table columns.
     *
     * @param convertor the columns and cells
     * @return this builder
     */
    public Builder table(TableConvertor convertor) {
      this.table = Objects.requireNonNull(convertor, "convertor");
      return this;
    }

    /**
     * Sets the name rule (default: DNS-1123 subdomain).
     *
     * @param names the rule
     * @return this builder
     */
    public Builder names(NameValidator names) {
      this.names = Objects.requireNonNull(names, "names");
      return this;
    }

    /**
     * Sets the resource's validation.
     *
     * @param validator the validation
     * @return this builder
     */
    public Builder validator(ResourceValidator validator) {
      this.validator = Objects.requireNonNull(validator, "validator");
      return this;
    }

    /**
     * Sets what the resource does to a new object before it is validated ({@code
     * PrepareForCreate}); it may change the object and return it, or return another.
     *
     * @param prepare the function, given and returning an object in the storage version
     * @return this builder
     */
    public Builder prepareForCreate(UnaryOperator<Object> prepare) {
      this.prepareForCreate = Objects.requireNonNull(prepare, "prepare");
      return this;
    }

    /**
     * Sets what the resource does to a new object with the requesting user, after {@link
     * #prepareForCreate(UnaryOperator)} and before validation, as kube's strategies read the user
     * from the request's context (a CertificateSigningRequest's {@code spec.username}, {@code uid},
     * {@code groups} and {@code extra}); it may change the object and return it, or return another.
     *
     * @param prepare the function, given the user and an object in the storage version
     * @return this builder
     */
    public Builder prepareForCreateAs(BiFunction<UserInfo, Object, Object> prepare) {
      this.prepareForCreateAs = Objects.requireNonNull(prepare, "prepare");
      return this;
    }

    /**
     * Sets what the resource does to an object written over a stored one through the main resource
     * before it is validated ({@code PrepareForUpdate}; see {@link
     * ResourceDefinition#prepareForUpdate()}); it may change the new object and return it, or
     * return another, and must not change the stored one.
     *
     * @param prepare the function, given the new and the stored object in the storage version
     * @return this builder
     */
    public Builder prepareForUpdate(BinaryOperator<Object> prepare) {
      this.prepareForUpdate = Objects.requireNonNull(prepare, "prepare");
      return this;
    }

    /**
     * Sets what the resource does to an object a client wrote (see {@link ObjectNormalizer}).
     *
     * @param normalizer the normalizer
     * @return this builder
     */
    public Builder normalizer(ObjectNormalizer normalizer) {
      this.normalizer = Objects.requireNonNull(normalizer, "normalizer");
      return this;
    }

    /**
     * Sets the schemas server-side apply reads the resource's objects by, per API version (see
     * {@link ResourceDefinition#applySchema(String)}).
     *
     * @param schemas the schema of an API version, or {@code null} for none
     * @return this builder
     */
    public Builder applySchemas(Function<String, SchemaType> schemas) {
      this.applySchemas = Objects.requireNonNull(schemas, "schemas");
      return this;
    }

    /**
     * Sets the patch strategies a strategic merge patch reads the resource's objects by, per API
     * version (see {@link ResourceDefinition#strategicMergePatchSchema(String)}); for kinds served
     * as {@code Unstructured} objects, typically {@code version ->
     * schemas.forKind(GroupVersionKind.fromApiVersionAndKind(version, kind)).orElse(null)} over
     * {@link dev.machinery.core.patch.OpenApiPatchSchemas}. The server then accepts {@code
     * application/strategic-merge-patch+json} for them and lists it in its OpenAPI.
     *
     * @param schemas the schema of an API version, or {@code null} for none
     * @return this builder
     */
    public Builder strategicMergePatchSchemas(Function<String, StrategicMergeSchema> schemas) {
      this.strategicMergePatchSchemas = Objects.requireNonNull(schemas, "schemas");
      return this;
    }

    /**
     * Sets what the resource fills in an object read from storage (see {@link
     * ResourceDefinition#readDefaults()}).
     *
     * @param defaults the function
     * @return this builder
     */
    public Builder readDefaults(Consumer<Object> defaults) {
      this.readDefaults = Objects.requireNonNull(defaults, "defaults");
      return this;
    }

    /**
     * Adds a field label a field selector may use, such as {@code spec.nodeName}.
     *
     * @param label the label
     * @param reader reads its value from an object in the storage version ({@code ""} when unset)
     * @return this builder
     */
    public Builder fieldLabel(String label, Function<Object, String> reader) {
      fieldLabels.put(
          Objects.requireNonNull(label, "label"), Objects.requireNonNull(reader, "reader"));
      return this;
    }

    /**
     * Has the resource's watch cache index a field label already added with {@link #fieldLabel}, as
     * kube-apiserver's cache indexes a Pod's {@code spec.nodeName}.
     *
     * @param label the label
     * @return this builder
     * @throws IllegalArgumentException when the label was not added
     */
    public Builder indexField(String label) {
      if (!fieldLabels.containsKey(label)) {
        throw new IllegalArgumentException(
            "cannot index \"" + label + "\": not a field label of " + kind);
      }
      indexedFields.add(label);
      return this;
    }

    /**
     * Builds the definition.
     *
     * @return the definition
     */
    public ResourceDefinition build() {
      return new ResourceDefinition(this);
    }
  }
}
