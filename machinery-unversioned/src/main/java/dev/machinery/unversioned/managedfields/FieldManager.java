package dev.machinery.unversioned.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.merge.ConflictException;
import dev.machinery.core.merge.TypedValue;
import dev.machinery.core.merge.Updater;
import dev.machinery.core.merge.VersionConverter;
import dev.machinery.core.merge.VersionedSet;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.core.typed.TypedException;
import dev.machinery.unversioned.errors.ApiErrors;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Records who owns which fields of an object on every write, and merges server-side applies, as
 * kube-apiserver's field manager does for one kind in one API version (and one subresource).
 *
 * <p>{@link #update} is for create, update and patch: the writer (named by {@code fieldManager},
 * else by its User-Agent, see {@link FieldManagers#managerOrUserAgent}) comes to own what it added
 * or changed, under an {@code Update} entry of its API version and subresource. {@link #apply} is
 * server-side apply: the applier owns exactly what it applied, under one {@code Apply} entry; what
 * it no longer applies is removed unless owned elsewhere; a change to a field another manager owns
 * is a {@code 409 Conflict} unless forced.
 *
 * <p>Around that, as kube-apiserver: the fields every object has and the server sets ({@code
 * apiVersion}, {@code kind}, {@code metadata.name}, {@code uid}, {@code resourceVersion}...) are
 * owned by nobody; so are the reset fields of the endpoint ({@code status} on the main resource of
 * a kind with a status subresource; all but {@code status} on the status subresource); past {@link
 * Builder#maxUpdateManagers ten} update entries the oldest are merged into one {@code
 * ancient-changes} entry per API version; an update that sends {@code managedFields} sets them (an
 * empty list or {@code [{}]} clears them, after which updates are not tracked until an apply); and
 * kubectl's server-side apply (manager {@code kubectl}) takes over from client-side apply:
 * conflicts with values its {@code kubectl.kubernetes.io/last-applied-configuration} annotation
 * already holds are forced, and the annotation, when present, follows each apply.
 *
 * <p>Immutable and thread-safe when its converter is.
 */
public final class FieldManager {
  /** The annotation kubectl's client-side apply keeps the applied configuration in. */
  public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  /** The manager kubectl's server-side apply writes as, by default. */
  public static final String KUBECTL = "kubectl";

  /** kube-apiserver's cap on update entries. */
  public static final int DEFAULT_MAX_UPDATE_MANAGERS = 10;

  /** The manager old update entries are merged into past the cap. */
  public static final String ANCIENT_CHANGES = "ancient-changes";

  private static final String CURRENT_OPERATION = "current-operation";

  private static final FieldSet STRIPPED =
      FieldSet.of(
          FieldPath.of("apiVersion"),
          FieldPath.of("kind"),
          FieldPath.of("metadata"),
          FieldPath.of("metadata", "name"),
          FieldPath.of("metadata", "namespace"),
          FieldPath.of("metadata", "creationTimestamp"),
          FieldPath.of("metadata", "selfLink"),
          FieldPath.of("metadata", "uid"),
          FieldPath.of("metadata", "clusterName"),
          FieldPath.of("metadata", "generation"),
          FieldPath.of("metadata", "managedFields"),
          FieldPath.of("metadata", "resourceVersion"));

  private final SchemaType type;
  private final String apiVersion;
  private final String kind;
  private final String subresource;
  private final Updater updater;
  private final int maxUpdateManagers;
  private final Clock clock;

  private FieldManager(Builder b) {
    this.type = b.type;
    this.apiVersion = b.apiVersion;
    this.kind = b.kind;
    this.subresource = b.subresource;
    FieldSet reset = b.resetFields.isEmpty() ? null : b.resetFields;
    // The endpoint resets the same fields whatever version another manager's are recorded in.
    this.updater = new Updater(b.converter, version -> reset);
    this.maxUpdateManagers = b.maxUpdateManagers;
    this.clock = b.clock;
  }

  /**
   * Starts a field manager for a kind in one API version.
   *
   * @param type the type of the kind's objects in that version
   * @param apiVersion the API version, like {@code apps/v1}
   * @param kind the kind, like {@code Deployment}
   * @return the builder
   */
  public static Builder builder(SchemaType type, String apiVersion, String kind) {
    return new Builder(type, apiVersion, kind);
  }

  /**
   * Records a create, update or patch. Managed fields that cannot be worked out (the live object's
   * cannot be read, or an object does not fit the type) are dropped rather than failing the write,
   * as kube-apiserver does.
   *
   * @param live the stored object, or for a create the empty object of the kind (a JSON null is
   *     taken as one)
   * @param next the object to store, changed in place: its {@code metadata.managedFields} is
   *     rewritten
   * @param manager the writer's name
   * @return {@code next}
   */
  public ObjectNode update(JsonNode live, ObjectNode next, String manager) {
    JsonNode sent = next.path("metadata").get("managedFields");
    boolean reset = !hasSubresource() && isReset(sent);
    Managed managed;
    try {
      managed = reset ? Managed.empty() : ManagedFields.decode(sent);
    } catch (ManagedFieldsException e) {
      managed = Managed.empty();
    }
    try {
      if (!reset && (managed.isEmpty() || hasSubresource())) {
        managed =
            ManagedFields.decode(live == null ? null : live.path("metadata").get("managedFields"));
      }
      ObjectNode liveCopy = withoutManagedFields(live);
      removeManagedFields(next);
      if (managed.isEmpty() && exists(live)) {
        // As kube-apiserver's skipNonAppliedManager: an object whose managed fields are gone (a
        // client reset them) is not tracked again by updates, only by an apply.
        return next;
      }
      Map<String, VersionedSet> fields = new HashMap<>(managed.fields());
      Map<String, Instant> times = new HashMap<>(managed.times());
      Updater.Result result =
          updater.update(
              new TypedValue(type, withoutNulls(liveCopy.deepCopy())),
              new TypedValue(type, withoutNulls(next.deepCopy())),
              apiVersion,
              fields,
              CURRENT_OPERATION);
      fields = new HashMap<>(result.managers());
      strip(fields, CURRENT_OPERATION);
      VersionedSet current = fields.remove(CURRENT_OPERATION);
      if (current != null) {
        String id =
            ManagedFields.identifier(manager, ManagedFields.UPDATE, apiVersion, subresource);
        VersionedSet previous = fields.get(id);
        fields.put(
            id, previous == null ? current : current.withSet(current.set().union(previous.set())));
        times.put(id, clock.instant());
      }
      capUpdateManagers(fields, times);
      setManagedFields(next, new Managed(fields, times));
    } catch (ManagedFieldsException | TypedException e) {
      removeManagedFields(next);
    }
    return next;
  }

  /**
   * Merges a server-side apply into the live object.
   *
   * @param live the stored object, or for an apply that creates, the empty object of the kind
   * @param applied the applied configuration, not changed
   * @param manager the applier's name ({@code fieldManager}, required for apply)
   * @param force whether to take fields other managers own
   * @return the object to store, a new tree, with its {@code metadata.managedFields}
   * @throws dev.machinery.unversioned.errors.StatusException {@code 409 Conflict} with one {@code
   *     FieldManagerConflict} cause a field; {@code 400 BadRequest} when the configuration is of
   *     another kind or version, sets {@code metadata.managedFields}, or does not fit the schema;
   *     {@code 500} when the live object's managed fields cannot be read
   */
  public ObjectNode apply(JsonNode live, ObjectNode applied, String manager, boolean force) {
    String appliedVersion = applied.path("apiVersion").asText("");
    String appliedKind = applied.path("kind").asText("");
    if (!appliedVersion.equals(apiVersion) || !appliedKind.equals(kind)) {
      throw ApiErrors.newBadRequest("invalid object type: " + gvk(appliedVersion, appliedKind));
    }
    JsonNode appliedManaged = applied.path("metadata").get("managedFields");
    if (appliedManaged != null && !appliedManaged.isNull()) {
      throw ApiErrors.newBadRequest("metadata.managedFields must be nil");
    }
    Managed managed;
    try {
      managed =
          ManagedFields.decode(live == null ? null : live.path("metadata").get("managedFields"));
    } catch (ManagedFieldsException e) {
      throw ApiErrors.newInternalError(
          new IllegalStateException("failed to decode managed fields: " + e.getMessage(), e));
    }
    ObjectNode liveCopy = withoutManagedFields(live);
    try {
      type.validate(applied);
    } catch (TypedException e) {
      throw ApiErrors.newBadRequest(
          "failed to create typed patch object ("
              + applied.path("metadata").path("namespace").asText("")
              + "/"
              + applied.path("metadata").path("name").asText("")
              + "; "
              + gvk(apiVersion, kind)
              + "): "
              + e.getMessage());
    }
    String id = ManagedFields.identifier(manager, ManagedFields.APPLY, apiVersion, subresource);
    Updater.Result result;
    try {
      result = merge(liveCopy, applied, managed, id, force);
    } catch (ConflictException e) {
      if (!KUBECTL.equals(manager) || force) {
        throw ApplyConflicts.toStatus(e.conflicts());
      }
      FieldSet allowed = LastApplied.matchingFields(type, liveCopy, apiVersion);
      ConflictException remaining = LastApplied.notAllowed(e, allowed);
      if (remaining != null) {
        throw ApplyConflicts.toStatus(remaining.conflicts());
      }
      result = merge(liveCopy, applied, managed, id, true);
    }
    Map<String, VersionedSet> fields = new HashMap<>(result.managers());
    Map<String, Instant> times = new HashMap<>(managed.times());
    strip(fields, id);
    ObjectNode object;
    if (result.changed()) {
      times.put(id, clock.instant());
      object = (ObjectNode) result.object().value();
    } else {
      object = liveCopy;
    }
    capUpdateManagers(fields, times);
    if (KUBECTL.equals(manager)) {
      LastApplied.follow(object, applied);
    }
    setManagedFields(object, new Managed(fields, times));
    return object;
  }

  private Updater.Result merge(
      ObjectNode live, ObjectNode applied, Managed managed, String id, boolean force) {
    try {
      return updater.apply(
          new TypedValue(type, live),
          new TypedValue(type, applied),
          apiVersion,
          managed.fields(),
          id,
          force);
    } catch (TypedException e) {
      throw ApiErrors.newBadRequest(
          "failed to merge the applied configuration into the object: " + e.getMessage());
    }
  }

  /**
   * The tree without its null members, as kube-apiserver sees an object it compares on an update:
   * converted from its Go type, where a field whose JSON is {@code null} (a template's {@code
   * creationTimestamp}) is not set, so nobody comes to own it.
   */
  private static JsonNode withoutNulls(JsonNode tree) {
    if (tree instanceof ObjectNode object) {
      List<String> nulls = new ArrayList<>();
      for (Map.Entry<String, JsonNode> member : object.properties()) {
        if (member.getValue().isNull()) {
          nulls.add(member.getKey());
        } else {
          withoutNulls(member.getValue());
        }
      }
      object.remove(nulls);
    } else if (tree instanceof ArrayNode array) {
      array.forEach(FieldManager::withoutNulls);
    }
    return tree;
  }

  /**
   * Whether a write's {@code managedFields} asks for them to be reset: an empty list, or one entry
   * with nothing in it, as kube-apiserver's isResetManagedFields.
   */
  private static boolean isReset(JsonNode sent) {
    if (sent == null || !sent.isArray()) {
      return false;
    }
    return sent.isEmpty() || (sent.size() == 1 && sent.get(0).isObject() && sent.get(0).isEmpty());
  }

  /** Whether the live object is a stored one (it has a uid), not the empty object of a create. */
  private static boolean exists(JsonNode live) {
    return live != null && !live.path("metadata").path("uid").asText("").isEmpty();
  }

  private boolean hasSubresource() {
    return subresource != null && !subresource.isEmpty();
  }

  /** Takes the fields the server sets from a manager, dropping it when nothing is left. */
  private static void strip(Map<String, VersionedSet> fields, String manager) {
    VersionedSet set = fields.get(manager);
    if (set == null) {
      return;
    }
    FieldSet rest = set.set().difference(STRIPPED);
    if (rest.isEmpty()) {
      fields.remove(manager);
    } else {
      fields.put(manager, set.withSet(rest));
    }
  }

  /**
   * Merges the oldest update entries past the cap into one {@code ancient-changes} entry per API
   * version, as kube-apiserver's capManagersManager.
   */
  private void capUpdateManagers(Map<String, VersionedSet> fields, Map<String, Instant> times) {
    java.util.List<String> updaters = new java.util.ArrayList<>();
    fields.forEach(
        (id, set) -> {
          if (!set.applied()) {
            updaters.add(id);
          }
        });
    if (updaters.size() <= maxUpdateManagers) {
      return;
    }
    updaters.sort(
        java.util.Comparator.<String>comparingLong(
                id -> times.get(id) == null ? 0 : times.get(id).getEpochSecond())
            .thenComparing(java.util.Comparator.naturalOrder()));
    Map<String, String> firstOfVersion = new HashMap<>();
    int length = updaters.size();
    for (int i = 0; i < updaters.size() && length > maxUpdateManagers; i++) {
      String id = updaters.get(i);
      VersionedSet set = fields.get(id);
      Instant time = times.get(id);
      String version = set.apiVersion();
      String bucket =
          ManagedFields.identifier(ANCIENT_CHANGES, ManagedFields.UPDATE, version, null);
      String first = firstOfVersion.get(version);
      if (first == null) {
        firstOfVersion.put(version, id);
        continue;
      }
      if (!fields.containsKey(bucket)) {
        fields.put(bucket, fields.remove(first));
        times.remove(first);
      }
      fields.put(bucket, set.withSet(set.set().union(fields.get(bucket).set())));
      fields.remove(id);
      times.remove(id);
      if (time != null) {
        times.put(bucket, time);
      } else {
        times.remove(bucket);
      }
      length--;
    }
  }

  private static String gvk(String apiVersion, String kind) {
    String group = "";
    String version = apiVersion;
    int slash = apiVersion.indexOf('/');
    if (slash >= 0) {
      group = apiVersion.substring(0, slash);
      version = apiVersion.substring(slash + 1);
    }
    return group + "/" + version + ", Kind=" + kind;
  }

  private static ObjectNode withoutManagedFields(JsonNode live) {
    if (live == null || !live.isObject()) {
      return JsonNodeFactory.instance.objectNode();
    }
    ObjectNode copy = ((ObjectNode) live).deepCopy();
    removeManagedFields(copy);
    return copy;
  }

  private static void removeManagedFields(ObjectNode object) {
    if (object.get("metadata") instanceof ObjectNode metadata) {
      metadata.remove("managedFields");
    }
  }

  private static void setManagedFields(ObjectNode object, Managed managed) {
    ArrayNode entries = ManagedFields.encode(managed);
    JsonNode metadata = object.get("metadata");
    if (!(metadata instanceof ObjectNode)) {
      if (entries == null) {
        return;
      }
      metadata = object.putObject("metadata");
    }
    if (entries == null) {
      ((ObjectNode) metadata).remove("managedFields");
    } else {
      ((ObjectNode) metadata).set("managedFields", entries);
    }
  }

  /** Builds a {@link FieldManager}. Not thread-safe; build once and share the result. */
  public static final class Builder {
    private final SchemaType type;
    private final String apiVersion;
    private final String kind;
    private String subresource;
    private VersionConverter converter = VersionConverter.identity();
    private FieldSet resetFields = FieldSet.empty();
    private int maxUpdateManagers = DEFAULT_MAX_UPDATE_MANAGERS;
    private Clock clock = Clock.systemUTC();

    private Builder(SchemaType type, String apiVersion, String kind) {
      this.type = Objects.requireNonNull(type, "type");
      this.apiVersion = Objects.requireNonNull(apiVersion, "apiVersion");
      this.kind = Objects.requireNonNull(kind, "kind");
    }

    /**
     * Sets the subresource the writes go through, like {@code status}.
     *
     * @param name the subresource, or {@code null} for the object itself
     * @return this builder
     */
    public Builder subresource(String name) {
      this.subresource = name == null || name.isEmpty() ? null : name;
      return this;
    }

    /**
     * Sets the converter to the other API versions of the kind, in which other managers' fields may
     * be recorded. By default every version is taken to have this version's shape.
     *
     * @param converter the converter
     * @return this builder
     */
    public Builder converter(VersionConverter converter) {
      this.converter = Objects.requireNonNull(converter, "converter");
      return this;
    }

    /**
     * Sets the fields the endpoint resets, which nobody comes to own through it and which no
     * manager, whatever version its fields are in, conflicts on; each path with everything below
     * it.
     *
     * @param fields the fields
     * @return this builder
     */
    public Builder resetFields(FieldSet fields) {
      this.resetFields = Objects.requireNonNull(fields, "fields");
      return this;
    }

    /**
     * Sets how many update entries an object keeps before the oldest are merged.
     *
     * @param max the cap, at least 1 (kube-apiserver's is 10)
     * @return this builder
     */
    public Builder maxUpdateManagers(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxUpdateManagers must be at least 1, got " + max);
      }
      this.maxUpdateManagers = max;
      return this;
    }

    /**
     * Sets the clock the entries' times come from.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the field manager.
     *
     * @return the field manager
     */
    public FieldManager build() {
      return new FieldManager(this);
    }
  }
}
