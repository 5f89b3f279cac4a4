package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.registry.rest.GarbageCollectionPolicy;
import dev.machinery.apiserver.registry.rest.GracefulDeleteStrategy;
import dev.machinery.apiserver.registry.rest.ObjectModel;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageKeys;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.patch.Patches;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ManagedFieldsEntry;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.ObjectMetaValidation;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One resource's objects in a {@link Storage}, with the rules kube-apiserver's generic registry
 * applies on the way in and out ({@code registry.Store}): keys by namespace and name, the
 * server-managed metadata (uid, creation time, generation, resourceVersion from the store's
 * revision, generateName, deletion with finalizers), optimistic concurrency, status kept apart from
 * the main resource when the resource has a status subresource, validation of the metadata and by
 * the resource's own validator, and dry runs. Objects are in the storage version.
 *
 * <p>Thread-safe: all state is in the storage.
 */
public final class ResourceStore {
  /**
   * The requester of the server's own writes (its controllers, bootstrap and cascades): {@code
   * system:apiserver} in {@code system:masters}, kube-apiserver's loopback user.
   */
  public static final Attributes LOOPBACK =
      Attributes.resource(
          new UserInfo(
              "system:apiserver",
              "",
              List.of("system:masters", UserInfo.ALL_AUTHENTICATED),
              java.util.Map.of()),
          "update",
          "",
          "",
          "",
          "",
          "");

  /**
   * The finalizer that orphans an object's dependents ({@code metav1.FinalizerOrphanDependents}).
   */
  public static final String ORPHAN_FINALIZER = "orphan";

  /**
   * The finalizer that deletes an object's dependents before it ({@code
   * metav1.FinalizerDeleteDependents}).
   */
  public static final String FOREGROUND_FINALIZER = "foregroundDeletion";

  private static final GroupKind NAMESPACE = GroupKind.of("", "Namespace");
  private static final List<String> PROPAGATION_POLICIES =
      List.of("Orphan", "Background", "Foreground");

  private static final char[] NAME_SUFFIX = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  /**
   * The random source of generated names' suffixes, made on first use: every server initializes
   * this class, and a fresh JVM's first secure random costs about 10 ms that a server which never
   * generates a name need not spend.
   */
  private static final class Random {
    static final SecureRandom RANDOM = new SecureRandom();
  }

  /** How many changes one watcher of the watch cache may fall behind before it is ended. */
  static final int WATCHER_QUEUE_LIMIT = 10_000;

  private final ResourceDefinition definition;
  private final GroupResource resource;
  private final GroupVersionKind storageKind;
  private final Class<?> storageClass;
  private final ObjectModel model;
  private final Codec codec;
  private final StorageCodec values;
  private final Storage storage;
  private final String root;
  private final ObjectModel.StatusAccess status;
  private final WatchCache watchCache;
  private final CacheFreshness freshness;

  /** The checks for GETs of one object, which read their key when a large cache is behind. */
  private final CacheFreshness keyFreshness;

  /** Whether the watch cache is this store's own, not a cohabitant's ({@link #cohabitant}). */
  private final boolean ownsCache;

  private final AtomicLong lastWrite = new AtomicLong();
  private final AdmissionHook admission;

  /** How long an object is kept after a write, in seconds; 0 until deleted. */
  private final long timeToLiveSeconds;

  /**
   * Creates the store of one resource.
   *
   * @param definition the resource
   * @param storageKind the kind in the storage version
   * @param model how its objects are held (the class of the storage version is the model's)
   * @param codec the JSON codec objects are stored with
   * @param storage the storage
   * @param watchCacheSize how many changes the resource's watch cache keeps; 0 for no cache (each
   *     watcher then has a storage watch of its own)
   */
  public ResourceStore(
      ResourceDefinition definition,
      GroupVersionKind storageKind,
      ObjectModel model,
      Codec codec,
      Storage storage,
      int watchCacheSize) {
    this(definition, storageKind, model, codec, storage, watchCacheSize, AdmissionHook.NONE);
  }

  /**
   * Creates the store of one resource whose writes pass through admission.
   *
   * @param definition the resource
   * @param storageKind the kind in the storage version
   * @param model how its objects are held (the class of the storage version is the model's)
   * @param codec the JSON codec objects are stored with
   * @param storage the storage
   * @param watchCacheSize how many changes the resource's watch cache keeps; 0 for no cache
   * @param admission where creates, updates and deletes are admitted
   */
  public ResourceStore(
      ResourceDefinition definition,
      GroupVersionKind storageKind,
      ObjectModel model,
      Codec codec,
      Storage storage,
      int watchCacheSize,
      AdmissionHook admission) {
    this(
        definition,
        storageKind,
        model,
        codec,
        storage,
        watchCacheSize,
        admission,
        StorageKeys.resourcePrefix(
            GroupResource.of(definition.kind().group(), definition.resource())));
  }

  /**
   * Creates the store of one resource kept under a given key prefix, such as a custom resource's
   * {@link StorageKeys#customResourcePrefix}.
   *
   * @param definition the resource
   * @param storageKind the kind in the storage version
   * @param model how its objects are held (the class of the storage version is the model's)
   * @param codec the JSON codec objects are stored with
   * @param storage the storage
   * @param watchCacheSize how many changes the resource's watch cache keeps; 0 for no cache
   * @param admission where creates, updates and deletes are admitted
   * @param keyPrefix the prefix of the resource's keys in the storage, ending in {@code /}
   */
  public ResourceStore(
      ResourceDefinition definition,
      GroupVersionKind storageKind,
      ObjectModel model,
      Codec codec,
      Storage storage,
      int watchCacheSize,
      AdmissionHook admission,
      String keyPrefix) {
    this(
        definition,
        storageKind,
        model,
        codec,
        StorageCodec.json(codec, storageKind),
        storage,
        watchCacheSize,
        admission,
        keyPrefix);
  }

  /**
   * Creates the store of one resource kept under a given key prefix, its values written and read by
   * a storage codec of their own (JSON, or protobuf for a built-in kind, as the server's storage
   * media type says).
   *
   * @param definition the resource
   * @param storageKind the kind in the storage version
   * @param model how its objects are held (the class of the storage version is the model's)
   * @param codec the JSON codec objects are turned into JSON trees and back with
   * @param values how objects become stored values and back
   * @param storage the storage
   * @param watchCacheSize how many changes the resource's watch cache keeps; 0 for no cache
   * @param admission where creates, updates and deletes are admitted
   * @param keyPrefix the prefix of the resource's keys in the storage, ending in {@code /}
   */
  public ResourceStore(
      ResourceDefinition definition,
      GroupVersionKind storageKind,
      ObjectModel model,
      Codec codec,
      StorageCodec values,
      Storage storage,
      int watchCacheSize,
      AdmissionHook admission,
      String keyPrefix) {
    this(
        definition,
        storageKind,
        model,
        codec,
        values,
        storage,
        admission,
        keyPrefix,
        watchCacheSize,
        null);
  }

  private ResourceStore(
      ResourceDefinition definition,
      GroupVersionKind storageKind,
      ObjectModel model,
      Codec codec,
      StorageCodec values,
      Storage storage,
      AdmissionHook admission,
      String keyPrefix,
      int watchCacheSize,
      ResourceStore cacheOwner) {
    if (!keyPrefix.endsWith("/")) {
      throw new IllegalArgumentException(
          "the key prefix of " + definition.resource() + " does not end in '/': " + keyPrefix);
    }
    this.ownsCache = cacheOwner == null;
    this.admission = admission;
    this.definition = definition;
    this.timeToLiveSeconds = definition.timeToLive().map(Duration::getSeconds).orElse(0L);
    this.resource = GroupResource.of(definition.kind().group(), definition.resource());
    this.storageKind = storageKind;
    this.model = model;
    this.storageClass = model.type(storageKind);
    this.codec = codec;
    this.values = Objects.requireNonNull(values, "values");
    this.storage = storage;
    this.root = keyPrefix;
    this.status = definition.hasStatus() ? model.status(storageClass) : null;
    if (cacheOwner != null) {
      this.watchCache = cacheOwner.watchCache;
    } else {
      this.watchCache =
          watchCacheSize > 0
              ? new WatchCache(
                  storage,
                  root,
                  watchCacheSize,
                  WATCHER_QUEUE_LIMIT,
                  kv -> model.shareable(decode(kv)),
                  indexed(definition))
              : null;
    }
    this.freshness = watchCache != null ? new CacheFreshness(storage, watchCache, false) : null;
    this.keyFreshness = watchCache != null ? new CacheFreshness(storage, watchCache, true) : null;
  }

  /**
   * The store of another resource kept under this one's keys, in its storage version, its values
   * written and read alike, as kube-apiserver keeps {@code events.k8s.io} Events with the core
   * Events: it shares this store's watch cache (one copy of each object, one watch of the storage),
   * whose objects, decoded by this store (with this store's read defaults), it reads through its
   * own model; its writes go to this store's storage. Its own {@link #close} leaves the cache to
   * this store.
   *
   * @param definition the other resource
   * @param model how its objects are held: its class of the storage version must be this store's
   * @param admission where its creates, updates and deletes are admitted
   * @return the store
   * @throws IllegalArgumentException when the model holds the storage version in another class, or
   *     the resource has fields indexed that this store's cache does not index
   */
  public ResourceStore cohabitant(
      ResourceDefinition definition, ObjectModel model, AdmissionHook admission) {
    if (model.type(storageKind) != storageClass) {
      throw new IllegalArgumentException(
          definition.resource()
              + " holds "
              + storageKind
              + " as "
              + model.type(storageKind).getName()
              + ", the store it would share a cache with as "
              + storageClass.getName());
    }
    if (!this.definition.indexedFields().containsAll(definition.indexedFields())) {
      throw new IllegalArgumentException(
          definition.resource()
              + " indexes "
              + definition.indexedFields()
              + ", the cache it would share indexes "
              + this.definition.indexedFields());
    }
    return new ResourceStore(
        definition, storageKind, model, codec, values, storage, admission, root, 0, this);
  }

  /** The readers of the fields the definition has the watch cache index. */
  private static Map<String, Function<Object, String>> indexed(ResourceDefinition definition) {
    Map<String, Function<Object, String>> readers = new java.util.LinkedHashMap<>();
    for (String field : definition.indexedFields()) {
      readers.put(field, definition.fieldLabels().get(field));
    }
    return readers;
  }

  /**
   * A value that a list's field selector requires of a field the watch cache indexes ({@link
   * ResourceDefinition#indexedFields()}), such as {@code spec.nodeName=node-1}: a list from the
   * cache then reads only the objects with that value.
   *
   * @param field the field label
   * @param value the value required
   */
  public record FieldValue(String field, String value) {
    /**
     * @param field see the record description
     * @param value see the record description
     */
    public FieldValue {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * Returns the resource's definition.
   *
   * @return the definition
   */
  public ResourceDefinition definition() {
    return definition;
  }

  /**
   * Returns the group and resource, as errors name them.
   *
   * @return the group resource
   */
  public GroupResource groupResource() {
    return resource;
  }

  /**
   * Returns the kind objects are stored as.
   *
   * @return the storage kind
   */
  public GroupVersionKind storageKind() {
    return storageKind;
  }

  /**
   * Returns how the resource's objects are held: typed through the Scheme, or without classes.
   *
   * @return the model
   */
  public ObjectModel model() {
    return model;
  }

  /**
   * Returns the storage version's class.
   *
   * @return the class
   */
  public Class<?> storageClass() {
    return storageClass;
  }

  /**
   * Returns the key prefix of a namespace's objects, or of all objects, as {@link StorageKeys} lays
   * them out: such as {@code configmaps/default/}, or {@code configmaps/}.
   *
   * @param namespace the namespace, or {@code null} for all (and for cluster-scoped resources)
   * @return the prefix
   */
  public String prefix(String namespace) {
    return StorageKeys.namespacePrefix(root, definition.namespaced() ? namespace : null);
  }

  private String key(String namespace, String name) {
    return StorageKeys.objectKey(root, definition.namespaced() ? namespace : null, name);
  }

  /**
   * Decodes a stored value, its resourceVersion set from the revision that wrote it and the
   * resource's {@link ResourceDefinition#readDefaults() read defaults} applied.
   *
   * @param kv the value
   * @return the object, in the storage version
   */
  public Object decode(KeyValue kv) {
    Object object = values.decode(kv.value(), storageClass);
    definition.readDefaults().accept(object);
    Accessor.of(object).setResourceVersion(Long.toString(kv.modRevision()));
    return object;
  }

  /**
   * Whether an update's encoding holds the stored object ({@link StorageCodec#sameObject}): the
   * same bytes, or the same content in the same media type (for an object held as a JSON tree,
   * whose keys keep the order they were set in, so that a create and a later merge may write the
   * same fields in another order, the same JSON with its keys in another order), as Go's encoding
   * of the object would be the same bytes.
   */
  private boolean sameObject(byte[] encoded, byte[] stored) {
    return values.sameObject(encoded, stored);
  }

  private byte[] encode(Object object) {
    MetaObject meta = Accessor.of(object);
    String version = meta.getResourceVersion();
    meta.setResourceVersion(null);
    try {
      return values.encode(object);
    } finally {
      meta.setResourceVersion(version);
    }
  }

  /**
   * Reads one object.
   *
   * @param namespace the namespace ({@code null} for cluster-scoped)
   * @param name the name
   * @return the object
   * @throws dev.machinery.unversioned.errors.StatusException {@code 404} when absent
   */
  public Object get(String namespace, String name) {
    return decode(read(namespace, name));
  }

  /**
   * Reads one object to answer with, not to change: when the watch cache holds the object at the
   * revision the storage has, its decoded object is returned (as lists return theirs), so a read
   * costs no decoding. The object may be shared with the watch cache and other requests: read it,
   * never change it.
   *
   * @param namespace the namespace ({@code null} for cluster-scoped)
   * @param name the name
   * @return the object, in the storage version
   * @throws dev.machinery.unversioned.errors.StatusException {@code 404} when absent
   */
  public Object getShared(String namespace, String name) {
    if (freshness != null && !storage.answersFromMemory()) {
      Object cached = getFromCache(namespace, name);
      if (cached != null) {
        return cached;
      }
    }
    KeyValue kv = read(namespace, name);
    return watchCache != null ? watchCache.decoded(kv) : decode(kv);
  }

  /**
   * Waits without a thread for what a consistent GET of this store waits for: a check of its watch
   * cache's freshness that begins after this call ({@link CacheFreshness}, shared with the reads
   * arriving together). A read run through {@link #readingAfter} with the check's outcome then
   * answers without a check of its own.
   *
   * @return completes with the check's outcome (exceptionally with the storage's error), or {@code
   *     null} when this store's reads wait for no such check: its storage answers from memory, or
   *     it keeps no watch cache
   */
  public CompletableFuture<FreshnessCheck> checkFreshnessAsync() {
    if (freshness == null || storage.answersFromMemory()) {
      return null;
    }
    return keyFreshness.awaitAsync().thenApply(FreshnessCheck::new);
  }

  /**
   * Runs reads of this store on this thread as reads that arrived before a check began, with its
   * outcome: their consistent reads answer from the watch cache without a check of their own when
   * the check found it current, and read the storage when not.
   *
   * @param check what {@link #checkFreshnessAsync} completed with
   * @param read the reads
   * @param <T> what they return
   * @return what they returned
   */
  public <T> T readingAfter(FreshnessCheck check, Supplier<T> read) {
    return keyFreshness.answering(check.result, read);
  }

  /** What a check of a watch cache's freshness found ({@link #checkFreshnessAsync}). Immutable. */
  public static final class FreshnessCheck {
    private final CacheFreshness.Result result;

    private FreshnessCheck(CacheFreshness.Result result) {
      this.result = result;
    }

    /**
     * Whether the cache held the storage's state as of the check: reads after it answer from the
     * cache, without waiting.
     *
     * @return whether it did
     */
    public boolean fresh() {
      return result.fresh();
    }
  }

  /**
   * Reads one object as the watch cache holds it now, without asking the storage whether the cache
   * is current, as an informer's lister reads: it may be behind the storage by the latency of the
   * cache's watch. Starts the cache when it is not running.
   *
   * @param namespace the namespace ({@code null} for cluster-scoped)
   * @param name the name
   * @return the object (shared with the cache: read it, never change it), or empty when the cache
   *     does not hold it, or holds nothing (there is none, or it cannot start)
   */
  public Optional<Object> getCached(String namespace, String name) {
    if (watchCache == null || watchCache.progress() == null) {
      return Optional.empty();
    }
    WatchCache.Lookup lookup = watchCache.lookup(key(namespace, name));
    return lookup == null || lookup.entry() == null
        ? Optional.empty()
        : Optional.of(lookup.entry().object());
  }

  /**
   * Reads one object as a GET at {@code resourceVersion=0} reads it in kube-apiserver: from the
   * watch cache, at whatever revision it holds (a key it does not hold is {@code 404}), without a
   * request to the storage. Before it answers, the cache is given (bounded) the writes this store
   * made, so that an object written through this server is read back, as {@link #listSeenHere}
   * does; what other servers wrote to the same storage comes with the cache's watch, as in an
   * informer. Without a cache the storage is read, as {@link #getShared} reads it.
   *
   * @param namespace the namespace ({@code null} for cluster-scoped)
   * @param name the name
   * @return the object, in the storage version, shared with the cache: read it, never change it
   * @throws dev.machinery.unversioned.errors.StatusException {@code 404} when absent
   */
  public Object getSharedAnyVersion(String namespace, String name) {
    if (watchCache != null && watchCache.progress() != null) {
      awaitWritesMadeHere();
      Object cached = heldByCache(namespace, name);
      if (cached != null) {
        return cached;
      }
    }
    return getShared(namespace, name);
  }

  /**
   * Reads one object as a GET with a {@code resourceVersion} reads it in kube-apiserver: none, the
   * object as the storage holds it now ({@link #getShared(String, String)}); {@code 0}, as the
   * watch cache holds it ({@link #getSharedAnyVersion}); {@code N}, as a state at {@code N} or
   * later holds it: the cache's when it holds {@code N}, else the storage's now, {@code 504} ("Too
   * large resource version") when the storage has not reached {@code N}; one that is not a number
   * is {@code 400}.
   *
   * @param namespace the namespace ({@code null} for cluster-scoped)
   * @param name the name
   * @param resourceVersion the GET's resourceVersion parameter, or {@code null}
   * @return the object, in the storage version, possibly shared: read it, never change it
   * @throws dev.machinery.unversioned.errors.StatusException {@code 404} when absent
   */
  public Object getShared(String namespace, String name, String resourceVersion) {
    if (isEmpty(resourceVersion)) {
      return getShared(namespace, name);
    }
    long revision = requestedRevision(resourceVersion);
    if (revision == 0) {
      return getSharedAnyVersion(namespace, name);
    }
    if (watchCache != null && watchCache.progress() != null && watchCache.holds(revision)) {
      Object cached = heldByCache(namespace, name);
      if (cached != null) {
        return cached;
      }
    }
    checkNotTooLarge(revision);
    return getShared(namespace, name);
  }

  /**
   * Waits, at most {@link #CONSISTENT_READ_WAIT}, until the watch cache holds every write this
   * store made; a read at any revision then answers from the cache either way.
   */
  private void awaitWritesMadeHere() {
    long written = lastWrite.get();
    if (written == 0 || watchCache.holds(written)) {
      return;
    }
    try {
      watchCache.awaitRevision(written, CONSISTENT_READ_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A consistent GET from the watch cache, on a storage that does not answer from memory: once a
   * check shared with the reads arriving together shows the cache holds the storage's current state
   * ({@link CacheFreshness}), the cache answers (and a key it does not hold is {@code 404}); {@code
   * null} when it cannot tell, and the storage is read.
   */
  private Object getFromCache(String namespace, String name) {
    CacheFreshness.Result check;
    try {
      check = keyFreshness.await();
    } catch (StorageException e) {
      return null;
    }
    if (!check.fresh()) {
      return null;
    }
    return heldByCache(namespace, name);
  }

  /**
   * The object the watch cache holds under a name now ({@code 404} when it holds none); {@code
   * null} when the cache is not running and cannot tell.
   */
  private Object heldByCache(String namespace, String name) {
    WatchCache.Lookup lookup = watchCache.lookup(key(namespace, name));
    if (lookup == null) {
      return null;
    }
    if (lookup.entry() == null) {
      throw ApiErrors.newNotFound(resource, name);
    }
    return lookup.entry().object();
  }

  /**
   * Decodes a stored value to answer with, not to change: the watch cache's object when it holds
   * that key at that revision (a watch event's object, shared by every watcher), else decoded now.
   *
   * @param kv the value
   * @return the object, in the storage version, possibly shared: read it, never change it
   */
  public Object decodeShared(KeyValue kv) {
    return watchCache != null ? watchCache.decoded(kv) : decode(kv);
  }

  /**
   * An encoding of an object this store's reads returned, made once and shared, as kube-apiserver's
   * watch cache keeps each object's serialization for every reader: while the watch cache holds the
   * object (the same shared instance from {@link #getShared} or {@link #list}, at its revision),
   * the first call computes the encoding and later calls with an equal key return the same value;
   * for any other object, and on a store without a watch cache, it is computed each time. A few
   * keys are kept per object (the last asked for).
   *
   * @param shared an object from {@link #getShared} or a {@link Page}'s items
   * @param key everything the encoding depends on besides the object (the version served, the
   *     representation); calls with equal keys must make equal values
   * @param encode makes the encoding from the object; must not change it
   * @return the encoding
   */
  public Object encodedOnce(Object shared, Object key, Function<Object, Object> encode) {
    Objects.requireNonNull(shared, "shared");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(encode, "encode");
    return watchCache != null ? watchCache.encoded(shared, key, encode) : encode.apply(shared);
  }

  private KeyValue read(String namespace, String name) {
    return storage
        .get(key(namespace, name))
        .orElseThrow(() -> ApiErrors.newNotFound(resource, name));
  }

  /**
   * How long a consistent list waits for the watch cache to deliver the storage's current revision
   * before it reads the storage instead (kube-apiserver waits up to 3 s, then falls back to etcd).
   */
  private static final Duration CONSISTENT_READ_WAIT = Duration.ofSeconds(3);

  /**
   * The filter of a list without selectors: only a list filtered by this one tells how many items
   * remain after its page ({@link Page#remainingItemCount()}), as kube-apiserver counts only lists
   * whose predicate is empty.
   */
  public static final Predicate<Object> EVERYTHING = object -> true;

  /**
   * Reads one page of objects.
   *
   * @param namespace the namespace, or {@code null} for all
   * @param filter which objects to return (selectors)
   * @param limit the most objects, 0 for all
   * @param continueToken the token of the previous page, or {@code null}
   * @param resourceVersion the list's resourceVersion parameter ({@code ""}, {@code "0"} or a
   *     revision), read with no {@code resourceVersionMatch} (see {@link #list(String, Predicate,
   *     FieldValue, int, String, String, String)}); {@code "0"} without a continue token is served
   *     from the watch cache when there is one, once it holds the writes this store made (as {@link
   *     #getSharedAnyVersion} waits for them)
   * @return the page; its objects may be shared with the watch cache and other requests: read them,
   *     never change them
   */
  public Page list(
      String namespace,
      Predicate<Object> filter,
      int limit,
      String continueToken,
      String resourceVersion) {
    return list(namespace, filter, null, limit, continueToken, resourceVersion);
  }

  /**
   * Reads one page of objects, as {@link #list(String, Predicate, int, String, String)}, with a
   * value the filter requires of an indexed field: a list served from the watch cache reads only
   * the objects with that value. The filter must itself require it.
   *
   * @param namespace the namespace, or {@code null} for all
   * @param filter which objects to return (selectors)
   * @param indexed the value the filter requires of an indexed field, or {@code null}
   * @param limit the most objects, 0 for all
   * @param continueToken the token of the previous page, or {@code null}
   * @param resourceVersion the list's resourceVersion parameter
   * @return the page; its objects may be shared with the watch cache and other requests: read them,
   *     never change them
   */
  public Page list(
      String namespace,
      Predicate<Object> filter,
      FieldValue indexed,
      int limit,
      String continueToken,
      String resourceVersion) {
    return list(namespace, filter, indexed, limit, continueToken, resourceVersion, "");
  }

  /**
   * Reads one page of objects as kube-apiserver reads a list for its {@code resourceVersion} and
   * {@code resourceVersionMatch} (the options validated before): none, the most recent state (a
   * consistent read); {@code 0}, any state, the watch cache's; {@code N} with {@code NotOlderThan},
   * or with no match and no limit, a state at {@code N} or later, the watch cache's once it holds
   * {@code N} (waiting for it at most 3 s), else the storage's latest; {@code N} with {@code
   * Exact}, or with no match and a limit, the state at exactly {@code N} ({@code 410 Expired}, "The
   * resourceVersion for the provided list is too old.", once the storage has compacted it). A
   * revision later than the storage's is {@code 504} ("Too large resource version"); a
   * resourceVersion that is not a number {@code 400}.
   *
   * @param namespace the namespace, or {@code null} for all
   * @param filter which objects to return (selectors)
   * @param indexed the value the filter requires of an indexed field, or {@code null}
   * @param limit the most objects, 0 for all
   * @param continueToken the token of the previous page, or {@code null}
   * @param resourceVersion the list's resourceVersion parameter
   * @param resourceVersionMatch the list's resourceVersionMatch parameter ({@code ""}, {@code
   *     NotOlderThan} or {@code Exact})
   * @return the page; its objects may be shared with the watch cache and other requests: read them,
   *     never change them
   */
  public Page list(
      String namespace,
      Predicate<Object> filter,
      FieldValue indexed,
      int limit,
      String continueToken,
      String resourceVersion,
      String resourceVersionMatch) {
    String prefix = prefix(namespace);
    boolean noToken = continueToken == null || continueToken.isEmpty();
    // Checked in kube-apiserver's order: the resourceVersion, the token, then the two together.
    long revision = isEmpty(resourceVersion) ? 0 : requestedRevision(resourceVersion);
    ContinueToken token = noToken ? null : ContinueToken.decode(continueToken);
    if (token != null && revision > 0) {
      throw ApiErrors.newBadRequest(
          "specifying resource version is not allowed when using continue");
    }
    // What is read: "" the most recent state, "0" any, else exactly the revision.
    String read = resourceVersion == null ? "" : resourceVersion;
    if (revision > 0
        && ("NotOlderThan".equals(resourceVersionMatch)
            || (isEmpty(resourceVersionMatch) && limit == 0))) {
      Page cached = listNotOlderThan(prefix, filter, indexed, limit, revision);
      if (cached != null) {
        return cached;
      }
      // The storage's most recent state, once known to be at the revision or later.
      checkNotTooLarge(revision);
      read = "";
      revision = 0;
    }
    if (watchCache != null && noToken && "0".equals(read)) {
      awaitWritesMadeHere();
      Page cached = listCached(prefix, filter, indexed, limit);
      if (cached != null) {
        return cached;
      }
    }
    if (watchCache != null && noToken && read.isEmpty()) {
      Page consistent =
          listConsistentFromCache(prefix, filter, indexed, limit, !storage.answersFromMemory());
      if (consistent != null) {
        return consistent;
      }
    }
    long at = revision;
    String start = null;
    if (token != null) {
      at = token.revision();
      start = prefix + token.start();
    } else if (at > 0) {
      checkNotTooLarge(at);
    }
    if (watchCache != null && at > 0) {
      Page past = listAt(prefix, start, at, filter, limit);
      if (past != null) {
        return past;
      }
    }
    List<Object> items = new ArrayList<>();
    String next = null;
    long remaining = -1;
    String cursor = start;
    pages:
    while (true) {
      ListResult page;
      try {
        page =
            storage.list(
                prefix, at, cursor, limit == 0 ? 0 : Math.max(limit, 100), filter == EVERYTHING);
      } catch (StorageException e) {
        if (e.kind() == StorageException.Kind.COMPACTED) {
          throw ApiErrors.newResourceExpired(
              continueToken != null
                  ? "The provided continue parameter is too old to display a consistent list"
                      + " result. You can start a new list without the continue parameter."
                  : "The resourceVersion for the provided list is too old.");
        }
        throw e;
      }
      at = page.revision();
      List<KeyValue> kvs = page.items();
      for (int i = 0; i < kvs.size(); i++) {
        KeyValue kv = kvs.get(i);
        if (limit > 0 && items.size() == limit) {
          next = kv.key();
          // Every key from here on is an item when nothing is filtered out (kube counts only
          // then).
          remaining = page.remaining() < 0 ? -1 : kvs.size() - i + page.remaining();
          break pages;
        }
        Object object = watchCache != null ? watchCache.decoded(kv) : decode(kv);
        if (filter.test(object)) {
          items.add(object);
        }
      }
      if (!page.more() || page.items().isEmpty()) {
        break;
      }
      cursor = page.items().get(page.items().size() - 1).key() + "\0";
    }
    String nextToken =
        next == null ? null : new ContinueToken(at, next.substring(prefix.length())).encode();
    return new Page(items, at, nextToken, counted(filter, remaining));
  }

  /**
   * A list at an exact revision, or a further page of a list, served from the watch cache when its
   * kept changes cover that revision (kube-apiserver 1.33 lists from its cache's snapshots): the
   * objects held now with every later change undone; {@code null} when the cache cannot, or the
   * storage has compacted that revision (the storage then answers, {@code 410 Expired}).
   */
  private Page listAt(String prefix, String start, long at, Predicate<Object> filter, int limit) {
    if (at < storage.compactedRevision()) {
      return null;
    }
    WatchCache.PastPage past =
        watchCache.pageAt(prefix, start, at, filter == EVERYTHING && limit > 0 ? limit + 1 : 0);
    if (past == null) {
      return null;
    }
    List<Object> items = new ArrayList<>();
    String next = null;
    long remaining = -1;
    List<WatchCache.Entry> entries = past.items();
    for (int i = 0; i < entries.size(); i++) {
      WatchCache.Entry entry = entries.get(i);
      if (limit > 0 && items.size() == limit) {
        next = entry.kv().key();
        remaining = past.total() - i;
        break;
      }
      Object object = entry.object();
      if (filter.test(object)) {
        items.add(object);
      }
    }
    String token =
        next == null ? null : new ContinueToken(at, next.substring(prefix.length())).encode();
    return new Page(items, at, token, counted(filter, remaining));
  }

  /**
   * A list at a state not older than a revision from the watch cache, once it holds the revision
   * (waited for at most {@link #CONSISTENT_READ_WAIT}); {@code null} when there is no cache or it
   * did not reach the revision in time.
   */
  private Page listNotOlderThan(
      String prefix, Predicate<Object> filter, FieldValue indexed, int limit, long revision) {
    if (watchCache != null) {
      WatchCache.Snapshot snapshot = snapshot(prefix, indexed);
      if (snapshot != null && snapshot.revision() < revision) {
        try {
          snapshot =
              watchCache.awaitRevision(revision, CONSISTENT_READ_WAIT)
                  ? snapshot(prefix, indexed)
                  : null;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          snapshot = null;
        }
      }
      if (snapshot != null && snapshot.revision() >= revision) {
        return page(snapshot, snapshot.revision(), prefix, filter, limit);
      }
    }
    return null;
  }

  /** {@code 504}, as kube-apiserver answers, when a revision is later than the storage's. */
  private void checkNotTooLarge(long revision) {
    long current = storage.currentRevision();
    if (revision > current) {
      throw ApiErrors.newTimeout(
          "Too large resource version: " + revision + ", current: " + current, 1);
    }
  }

  /** A read's resourceVersion, refused {@code 400} in kube-apiserver's words when not a number. */
  private static long requestedRevision(String resourceVersion) {
    try {
      return parseRevision(resourceVersion);
    } catch (RuntimeException e) {
      throw ApiErrors.newBadRequest(
          "invalid resource version: resourceVersion: Invalid value: "
              + FieldError.quote(resourceVersion)
              + ": strconv.ParseUint: parsing "
              + FieldError.quote(resourceVersion)
              + ": invalid syntax");
    }
  }

  /** What a list tells of the items after its page: known only when none was filtered out. */
  private static Long counted(Predicate<Object> filter, long remaining) {
    return filter == EVERYTHING && remaining > 0 ? remaining : null;
  }

  /**
   * A list at {@code resourceVersion=0}, served from the watch cache as kube-apiserver serves it:
   * the objects the cache holds, at its revision; a further page, if a limit leaves one, is read
   * from the storage at that revision; {@code null} when the cache is closed.
   */
  private Page listCached(String prefix, Predicate<Object> filter, FieldValue indexed, int limit) {
    WatchCache.Snapshot snapshot = snapshot(prefix, indexed);
    if (snapshot == null) {
      return null;
    }
    return page(snapshot, snapshot.revision(), prefix, filter, limit);
  }

  /** The cache's objects under a prefix, only those with an indexed value when one is given. */
  private WatchCache.Snapshot snapshot(String prefix, FieldValue indexed) {
    WatchCache.Snapshot snapshot =
        indexed == null ? null : watchCache.snapshot(prefix, indexed.field(), indexed.value());
    return snapshot != null ? snapshot : watchCache.snapshot(prefix);
  }

  /**
   * A consistent list (no resourceVersion) served from the watch cache, as kube-apiserver serves
   * them (KEP-2340): the storage's current revision is read (one request, shared with the reads
   * arriving together: {@link CacheFreshness}), and the cache answers once it is known to hold that
   * revision — it holds it or a later one, or the storage tells that nothing under the resource
   * changed since the cache's revision ({@link Storage#unchangedSince}) — else after waiting for
   * its watch to deliver it (bounded) when {@code mayWait}; {@code null} when it cannot, and the
   * storage is read. A storage that answers from memory is read at once rather than waited for (its
   * reads never wait), but its cache answers whenever it is known to be current, which spares a
   * list the walk of the storage's keys and the lookup of each value's decoded object.
   */
  private Page listConsistentFromCache(
      String prefix, Predicate<Object> filter, FieldValue indexed, int limit, boolean mayWait) {
    CacheFreshness.Result check;
    try {
      check = freshness.await();
    } catch (StorageException e) {
      return null;
    }
    if (check.fresh()) {
      WatchCache.Snapshot snapshot = snapshot(prefix, indexed);
      if (snapshot == null) {
        return null;
      }
      // The snapshot is at the checked state or a later one: an earlier revision of its own held
      // nothing the check's did not.
      return page(snapshot, Math.max(snapshot.revision(), check.freshAt()), prefix, filter, limit);
    }
    if (!mayWait || !storage.tellsUnchanged()) {
      // The cache may never reach the revision (other resources moved it on): read the store.
      return null;
    }
    try {
      if (!watchCache.awaitRevision(check.current(), CONSISTENT_READ_WAIT)) {
        return null;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
    WatchCache.Snapshot caughtUp = snapshot(prefix, indexed);
    if (caughtUp == null || caughtUp.revision() < check.current()) {
      return null;
    }
    return page(caughtUp, caughtUp.revision(), prefix, filter, limit);
  }

  /**
   * Creates an object's key; with the definition's time to live when it has one (Events), which the
   * storage counts from this write.
   */
  private KeyValue storeNew(String key, byte[] bytes) {
    return timeToLiveSeconds == 0
        ? storage.create(key, bytes)
        : storage.create(key, bytes, timeToLiveSeconds);
  }

  /** Replaces an object's value read at {@code current}; a time to live starts again. */
  private KeyValue storeOver(KeyValue current, byte[] bytes) {
    return timeToLiveSeconds == 0
        ? storage.update(current.key(), current.modRevision(), bytes)
        : storage.update(current.key(), current.modRevision(), bytes, timeToLiveSeconds);
  }

  /** Notes the revision of a write this store made, for {@link #listSeenHere}. */
  private KeyValue wrote(KeyValue kv) {
    lastWrite.accumulateAndGet(kv.modRevision(), Math::max);
    return kv;
  }

  /**
   * Lists every object as the watch cache holds it once the cache holds every write this store
   * made: what was written through this server is always there, what other servers wrote to the
   * same storage as soon as the cache's watch brings it, as in an informer's list, and no request
   * to the storage is made. For readers on the write path (admission's policies), which
   * kube-apiserver reads from informers. Without a cache, or when the cache does not catch up in
   * time, the storage is read.
   *
   * @param filter which objects to return
   * @return the objects (shared with the cache: read them, never change them)
   */
  public List<Object> listSeenHere(Predicate<Object> filter) {
    if (watchCache != null && !storage.answersFromMemory()) {
      try {
        if (watchCache.awaitRevision(lastWrite.get(), CONSISTENT_READ_WAIT)) {
          WatchCache.Snapshot snapshot = watchCache.snapshot(prefix(null));
          if (snapshot != null && snapshot.revision() >= lastWrite.get()) {
            return page(snapshot, snapshot.revision(), prefix(null), filter, 0).items();
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return list(null, filter, 0, null, "").items();
  }

  /**
   * Whether {@link #listSeenHere} answers at once from the watch cache, without waiting and without
   * a request to the storage: the store has a cache, on a storage that does not answer from memory,
   * and the cache holds every write this store made.
   *
   * @return true when it does
   */
  public boolean holdsWritesMadeHere() {
    return watchCache != null && !storage.answersFromMemory() && watchCache.holds(lastWrite.get());
  }

  /** A page of a cache's snapshot, read as at a revision the snapshot is known to hold. */
  private Page page(
      WatchCache.Snapshot snapshot,
      long revision,
      String prefix,
      Predicate<Object> filter,
      int limit) {
    List<Object> items = new ArrayList<>();
    String next = null;
    long remaining = -1;
    List<WatchCache.Entry> entries = snapshot.items();
    for (int i = 0; i < entries.size(); i++) {
      WatchCache.Entry entry = entries.get(i);
      if (limit > 0 && items.size() == limit) {
        next = entry.kv().key();
        remaining = entries.size() - i;
        break;
      }
      Object object = entry.object();
      if (filter.test(object)) {
        items.add(object);
      }
    }
    String token =
        next == null ? null : new ContinueToken(revision, next.substring(prefix.length())).encode();
    return new Page(items, revision, token, counted(filter, remaining));
  }

  /**
   * Creates an object: fills the server-managed metadata, validates, stores.
   *
   * @param requester who asks, as admission and the resource's validator see them ({@link
   *     #LOOPBACK} for the server's own writes)
   * @param object the object, in the storage version
   * @param dryRun whether to stop before storing
   * @return the stored object (for a dry run, what would be stored)
   */
  public Object create(Attributes requester, Object object, boolean dryRun) {
    return create(requester, new AdmissionNotes(), object, dryRun);
  }

  /**
   * Creates an object, as {@link #create(Attributes, Object, boolean)}, keeping what admission
   * tells.
   *
   * @param requester who asks
   * @param notes takes admission's warnings and audit annotations
   * @param object the object
   * @param dryRun whether to store nothing
   * @return the created object
   */
  public Object create(Attributes requester, AdmissionNotes notes, Object object, boolean dryRun) {
    object = admission.mutate(requester, this, Operation.CREATE, object, null, dryRun, notes);
    MetaObject meta = Accessor.of(object);
    if (isEmpty(meta.getName()) && !isEmpty(meta.getGenerateName())) {
      meta.setName(meta.getGenerateName() + suffix());
    }
    meta.setUid(UUID.randomUUID().toString());
    meta.setCreationTimestamp(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    meta.setResourceVersion(null);
    meta.setGeneration(definition.tracksGeneration() ? 1 : 0);
    meta.setDeletionTimestamp(null);
    meta.setDeletionGracePeriodSeconds(null);
    if (status != null) {
      status.reset(object);
    }
    Object prepared =
        definition
            .prepareForCreateAs()
            .apply(requester.user(), definition.prepareForCreate().apply(object));
    MetaObject preparedMeta = Accessor.of(prepared);
    List<FieldError> errors =
        new ArrayList<>(
            ObjectMetaValidation.validateCreate(
                preparedMeta,
                definition.namespaced(),
                definition.names(),
                FieldPath.of("metadata")));
    errors.addAll(definition.validator().validate(requester, prepared, null));
    if (!errors.isEmpty()) {
      throw ApiErrors.newInvalid(definition.kind(), name(preparedMeta), errors);
    }
    admission.validate(requester, this, Operation.CREATE, prepared, null, dryRun, notes);
    if (dryRun) {
      if (storage.get(key(preparedMeta.getNamespace(), preparedMeta.getName())).isPresent()) {
        throw ApiErrors.newAlreadyExists(resource, preparedMeta.getName());
      }
      return prepared;
    }
    try {
      KeyValue kv =
          wrote(
              storeNew(key(preparedMeta.getNamespace(), preparedMeta.getName()), encode(prepared)));
      return decode(kv);
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.KEY_EXISTS) {
        throw ApiErrors.newAlreadyExists(resource, preparedMeta.getName());
      }
      throw e;
    }
  }

  /**
   * Gives the new object's managed fields the stored ones' times when they differ from them in
   * nothing else, as kube-apiserver's IgnoreManagedFieldsTimestampsTransformer: a write that
   * changes nothing but those times is no write at all.
   *
   * @return whether the times were changed (the caller puts the entries back when the rest of the
   *     object differs too)
   */
  private static boolean keepManagedFieldsTimes(MetaObject next, MetaObject old) {
    List<ManagedFieldsEntry> nextEntries = next.getManagedFields();
    List<ManagedFieldsEntry> oldEntries = old.getManagedFields();
    if (nextEntries == null
        || oldEntries == null
        || nextEntries.isEmpty()
        || nextEntries.size() != oldEntries.size()) {
      return false;
    }
    List<ManagedFieldsEntry> timed = new ArrayList<>(nextEntries.size());
    boolean changed = false;
    for (int i = 0; i < nextEntries.size(); i++) {
      ManagedFieldsEntry a = nextEntries.get(i);
      ManagedFieldsEntry b = oldEntries.get(i);
      if (!Objects.equals(a.getManager(), b.getManager())
          || !Objects.equals(a.getOperation(), b.getOperation())
          || !Objects.equals(a.getApiVersion(), b.getApiVersion())
          || !Objects.equals(a.getFieldsType(), b.getFieldsType())
          || !Objects.equals(a.getFieldsV1(), b.getFieldsV1())
          || !Objects.equals(a.getSubresource(), b.getSubresource())) {
        return false;
      }
      ManagedFieldsEntry copy = new ManagedFieldsEntry();
      copy.setManager(a.getManager());
      copy.setOperation(a.getOperation());
      copy.setApiVersion(a.getApiVersion());
      copy.setTime(b.getTime());
      copy.setFieldsType(a.getFieldsType());
      copy.setFieldsV1(a.getFieldsV1());
      copy.setSubresource(a.getSubresource());
      changed |= !Objects.equals(a.getTime(), b.getTime());
      timed.add(copy);
    }
    if (!changed) {
      return false;
    }
    next.setManagedFields(timed);
    return true;
  }

  /**
   * Updates an object: reads the stored one, asks {@code change} for the new one, applies the
   * update rules, validates and stores it if the stored one has not changed meanwhile (retrying the
   * read when it has and the new object names no resourceVersion).
   *
   * @param requester who asks, as admission and the resource's validator see them ({@link
   *     #LOOPBACK} for the server's own writes)
   * @param namespace the namespace
   * @param name the name
   * @param change makes the new object from the stored one (which it may change); a new object
   *     naming a resourceVersion other than the stored one's is refused with {@code 409}
   * @param statusOnly whether this is the status subresource (only status changes are kept)
   * @param dryRun whether to stop before storing
   * @return the stored object
   */
  public Object update(
      Attributes requester,
      String namespace,
      String name,
      UnaryOperator<Object> change,
      boolean statusOnly,
      boolean dryRun) {
    return update(requester, new AdmissionNotes(), namespace, name, change, statusOnly, dryRun);
  }

  /**
   * Updates an object, as {@link #update(Attributes, String, String, UnaryOperator, boolean,
   * boolean)}, keeping what admission tells.
   *
   * @param requester who asks
   * @param notes takes admission's warnings and audit annotations
   * @param namespace the namespace
   * @param name the name
   * @param change makes the new object from the stored one
   * @param statusOnly whether this is the status subresource
   * @param dryRun whether to stop before storing
   * @return the stored object
   */
  public Object update(
      Attributes requester,
      AdmissionNotes notes,
      String namespace,
      String name,
      UnaryOperator<Object> change,
      boolean statusOnly,
      boolean dryRun) {
    return update(requester, notes, namespace, name, change, statusOnly ? "status" : null, dryRun);
  }

  /**
   * Updates an object through the main resource or a subresource: {@code status} (only the status
   * changes are kept), or a Namespace's {@code finalize} (the new object but its status, without
   * the resource's update strategy, so that {@code spec.finalizers} change). An update that leaves
   * an object marked deleted with no finalizers (and a Namespace with no {@code spec.finalizers})
   * removes it, as kube-apiserver's {@code ShouldDeleteDuringUpdate}, unless a grace period is
   * running.
   *
   * @param requester who asks
   * @param notes takes admission's warnings and audit annotations
   * @param namespace the namespace
   * @param name the name
   * @param change makes the new object from the stored one
   * @param subresource {@code status}, {@code finalize}, a subresource of the definition's {@link
   *     ResourceDefinition#updateSubresources()} (its strategy in place of the main resource's), or
   *     {@code null} for the main resource
   * @param dryRun whether to stop before storing
   * @return the stored object
   */
  public Object update(
      Attributes requester,
      AdmissionNotes notes,
      String namespace,
      String name,
      UnaryOperator<Object> change,
      String subresource,
      boolean dryRun) {
    for (int attempt = 0; ; attempt++) {
      KeyValue current = read(namespace, name);
      Object old = decode(current);
      Object updated =
          admission.mutate(
              requester, this, Operation.UPDATE, change.apply(decode(current)), old, dryRun, notes);
      MetaObject meta = Accessor.of(updated);
      String asked = meta.getResourceVersion();
      if (!isEmpty(asked) && parseRevision(asked) != current.modRevision()) {
        throw conflict(name);
      }
      Object prepared = prepareUpdate(updated, old, current, subresource);
      Accessor.of(prepared).setResourceVersion(Long.toString(current.modRevision()));
      MetaObject oldMeta = Accessor.of(old);
      MetaObject newMeta = Accessor.of(prepared);
      List<FieldError> errors =
          new ArrayList<>(
              ObjectMetaValidation.validateUpdate(newMeta, oldMeta, FieldPath.of("metadata")));
      errors.addAll(
          ObjectMetaValidation.validateCreate(
              newMeta, definition.namespaced(), definition.names(), FieldPath.of("metadata")));
      errors.addAll(definition.validator().validate(requester, prepared, old));
      if (!errors.isEmpty()) {
        throw ApiErrors.newInvalid(definition.kind(), name, errors);
      }
      admission.validate(requester, this, Operation.UPDATE, prepared, old, dryRun, notes);
      boolean remove = shouldDeleteDuringUpdate(prepared, old);
      if (remove && dryRun) {
        return prepared;
      }
      byte[] bytes = encode(prepared);
      List<ManagedFieldsEntry> entries = newMeta.getManagedFields();
      if (!sameObject(bytes, current.value()) && keepManagedFieldsTimes(newMeta, oldMeta)) {
        byte[] untimed = encode(prepared);
        if (sameObject(untimed, current.value())) {
          bytes = untimed;
        } else {
          newMeta.setManagedFields(entries);
        }
      }
      if (!remove && (dryRun || sameObject(bytes, current.value()) && !storage.isStale(current))) {
        return dryRun ? prepared : old;
      }
      try {
        if (remove) {
          KeyValue deleted = wrote(storage.delete(current.key(), current.modRevision()));
          Accessor.of(prepared).setResourceVersion(Long.toString(deleted.modRevision()));
          return prepared;
        }
        return decode(wrote(storeOver(current, bytes)));
      } catch (StorageException e) {
        if (e.kind() == StorageException.Kind.CONFLICT && isEmpty(asked) && attempt < 16) {
          continue;
        }
        if (e.kind() == StorageException.Kind.CONFLICT) {
          throw conflict(name);
        }
        if (e.kind() == StorageException.Kind.KEY_NOT_FOUND) {
          throw ApiErrors.newNotFound(resource, name);
        }
        throw e;
      }
    }
  }

  /**
   * Whether an update removes the object ({@code ShouldDeleteDuringUpdate}): the new object has no
   * finalizers, the stored one is marked deleted with no grace period left (none, or 0), and a
   * Namespace has no {@code spec.finalizers} either.
   */
  private boolean shouldDeleteDuringUpdate(Object updated, Object old) {
    MetaObject oldMeta = Accessor.of(old);
    Long grace = oldMeta.getDeletionGracePeriodSeconds();
    return finalizers(Accessor.of(updated)).isEmpty()
        && oldMeta.getDeletionTimestamp() != null
        && (grace == null || grace == 0)
        && (!definition.kind().equals(NAMESPACE) || specFinalizers(updated).isEmpty());
  }

  private Object prepareUpdate(Object updated, Object old, KeyValue current, String subresource) {
    boolean statusOnly = "status".equals(subresource);
    boolean finalize = "finalize".equals(subresource);
    // A subresource written as the object with a strategy of its own (a CSR's approval).
    BinaryOperator<Object> strategy =
        subresource == null ? null : definition.updateSubresources().get(subresource);
    MetaObject oldMeta = Accessor.of(old);
    Object prepared = updated;
    if (statusOnly) {
      // The status subresource: the stored object (a copy of its own) with the new status.
      prepared = decode(current);
      status.set(prepared, status.get(updated));
      Accessor.of(prepared).setResourceVersion(Accessor.of(updated).getResourceVersion());
      // Who owns the new status is recorded in the new object's managed fields.
      Accessor.of(prepared).setManagedFields(Accessor.of(updated).getManagedFields());
    } else if (status != null && strategy == null) {
      // The main resource: the new object with the stored status.
      status.set(prepared, status.get(old));
    }
    MetaObject meta = Accessor.of(prepared);
    if (isEmpty(meta.getUid())) {
      meta.setUid(oldMeta.getUid());
    }
    if (isEmpty(meta.getNamespace())) {
      meta.setNamespace(oldMeta.getNamespace());
    }
    meta.setCreationTimestamp(oldMeta.getCreationTimestamp());
    meta.setDeletionTimestamp(oldMeta.getDeletionTimestamp());
    meta.setDeletionGracePeriodSeconds(oldMeta.getDeletionGracePeriodSeconds());
    meta.setResourceVersion(null);
    meta.setGeneration(
        !definition.tracksGeneration() || statusOnly || spec(prepared).equals(spec(old))
            ? oldMeta.getGeneration()
            : oldMeta.getGeneration() + 1);
    if (strategy != null) {
      return strategy.apply(prepared, old);
    }
    return statusOnly || finalize ? prepared : definition.prepareForUpdate().apply(prepared, old);
  }

  /**
   * Writes a change the server makes itself on behalf of a subresource that kube-apiserver answers
   * in code (a pod's {@code binding}, a namespace's {@code finalize}): the change is applied to the
   * stored object and stored under compare-and-swap, retried on a concurrent write, without
   * admission, the update strategy or validation (the subresource checks what it allows). The
   * object's identity (uid, namespace, creation time, deletion time) is kept. An object then being
   * deleted that no finalizer holds (neither {@code metadata.finalizers} nor a namespace's {@code
   * spec.finalizers}) is removed.
   *
   * @param namespace the namespace
   * @param name the name
   * @param change makes the new object from the stored one (which it may change)
   * @param dryRun whether to stop before storing
   * @return the stored object (as last stored when it was removed)
   */
  public Object assign(
      String namespace, String name, UnaryOperator<Object> change, boolean dryRun) {
    for (int attempt = 0; ; attempt++) {
      KeyValue current = read(namespace, name);
      Object old = decode(current);
      Object next = change.apply(decode(current));
      MetaObject oldMeta = Accessor.of(old);
      MetaObject meta = Accessor.of(next);
      meta.setUid(oldMeta.getUid());
      meta.setNamespace(oldMeta.getNamespace());
      meta.setName(oldMeta.getName());
      meta.setCreationTimestamp(oldMeta.getCreationTimestamp());
      meta.setDeletionTimestamp(oldMeta.getDeletionTimestamp());
      meta.setResourceVersion(null);
      if (dryRun) {
        meta.setResourceVersion(Long.toString(current.modRevision()));
        return next;
      }
      try {
        byte[] bytes = encode(next);
        if (meta.getDeletionTimestamp() != null
            && (meta.getFinalizers() == null || meta.getFinalizers().isEmpty())
            && specFinalizers(next).isEmpty()) {
          KeyValue deleted = wrote(storage.delete(current.key(), current.modRevision()));
          meta.setResourceVersion(Long.toString(deleted.modRevision()));
          return next;
        }
        return decode(wrote(storeOver(current, bytes)));
      } catch (StorageException e) {
        if (e.kind() == StorageException.Kind.CONFLICT && attempt < 16) {
          continue;
        }
        if (e.kind() == StorageException.Kind.KEY_NOT_FOUND) {
          throw ApiErrors.newNotFound(resource, name);
        }
        throw e;
      }
    }
  }

  /**
   * Deletes an object at once, or marks it deleted when finalizers hold it, as a delete with no
   * options but preconditions.
   *
   * @param requester who asks, as admission sees them ({@link #LOOPBACK} for the server's own
   *     deletes)
   * @param namespace the namespace
   * @param name the name
   * @param preconditions the uid and resourceVersion the object must have, or {@code null}
   * @param dryRun whether to stop before storing
   * @return the result: the object as last stored, and whether it is gone
   */
  public Deletion delete(
      Attributes requester,
      String namespace,
      String name,
      Preconditions preconditions,
      boolean dryRun) {
    return delete(requester, new AdmissionNotes(), namespace, name, options(preconditions), dryRun);
  }

  /**
   * Deletes an object, as {@link #delete(Attributes, String, String, Preconditions, boolean)},
   * keeping what admission tells.
   *
   * @param requester who asks
   * @param notes takes admission's warnings and audit annotations
   * @param namespace the namespace
   * @param name the name
   * @param preconditions the uid and resourceVersion the object must have, or {@code null}
   * @param dryRun whether to stop before storing
   * @return the result: the object as last stored, and whether it is gone
   */
  public Deletion delete(
      Attributes requester,
      AdmissionNotes notes,
      String namespace,
      String name,
      Preconditions preconditions,
      boolean dryRun) {
    return delete(requester, notes, namespace, name, options(preconditions), dryRun);
  }

  private static DeleteOptions options(Preconditions preconditions) {
    DeleteOptions options = new DeleteOptions();
    options.setPreconditions(preconditions);
    return options;
  }

  /**
   * Deletes an object under a delete's options, with the rules of kube-apiserver's generic registry
   * ({@code Store.Delete}, {@code rest.BeforeDelete}): the propagation policy ({@code
   * propagationPolicy} or the deprecated {@code orphanDependents}, else the resource's {@link
   * ResourceDefinition#garbageCollectionPolicy()}) adds or replaces the {@value #ORPHAN_FINALIZER}
   * or {@value #FOREGROUND_FINALIZER} finalizer; an object that finalizers hold is marked deleted
   * ({@code deletionTimestamp} now, {@code deletionGracePeriodSeconds} 0) and kept; a resource with
   * a {@link ResourceDefinition#gracefulDelete() graceful strategy} is marked deleted at now plus
   * its grace period and kept until a delete with period 0 (a second delete may only shorten the
   * period); anything else is removed. A Namespace follows kube's namespace registry: the first
   * delete marks it {@code Terminating}; a later one removes it once its {@code spec.finalizers}
   * are empty.
   *
   * @param requester who asks
   * @param notes takes admission's warnings and audit annotations
   * @param namespace the namespace
   * @param name the name
   * @param options the delete's options (preconditions, grace period, propagation); validated by
   *     the caller
   * @param dryRun whether to stop before storing
   * @return the result: the object as last stored (for a dry run, as it would be), and whether it
   *     is gone
   */
  public Deletion delete(
      Attributes requester,
      AdmissionNotes notes,
      String namespace,
      String name,
      DeleteOptions options,
      boolean dryRun) {
    for (int attempt = 0; ; attempt++) {
      KeyValue current = read(namespace, name);
      Object object = decode(current);
      MetaObject meta = Accessor.of(object);
      checkPreconditions(options.getPreconditions(), meta, name);
      admission.mutate(requester, this, Operation.DELETE, null, object, dryRun, notes);
      admission.validate(requester, this, Operation.DELETE, null, object, dryRun, notes);
      try {
        return definition.kind().equals(NAMESPACE)
            ? deleteNamespace(current, object, options, dryRun)
            : deleteObject(current, object, options, dryRun);
      } catch (StorageException e) {
        if (e.kind() == StorageException.Kind.CONFLICT && attempt < 16) {
          continue;
        }
        if (e.kind() == StorageException.Kind.KEY_NOT_FOUND) {
          throw ApiErrors.newNotFound(resource, name);
        }
        throw e;
      }
    }
  }

  /**
   * The delete's preconditions: a Namespace's as kube's namespace registry words them, any other
   * object's as {@code rest.BeforeDelete} does (naming the kind, as it does).
   */
  private void checkPreconditions(Preconditions preconditions, MetaObject meta, String name) {
    if (preconditions == null) {
      return;
    }
    if (!definition.kind().equals(NAMESPACE)) {
      if (!isEmpty(preconditions.getUid()) && !preconditions.getUid().equals(meta.getUid())) {
        throw kindConflict(
            name,
            "the UID in the precondition ("
                + preconditions.getUid()
                + ") does not match the UID in record ("
                + meta.getUid()
                + "). The object might have been deleted and then recreated");
      }
      if (!isEmpty(preconditions.getResourceVersion())
          && !preconditions.getResourceVersion().equals(meta.getResourceVersion())) {
        throw kindConflict(
            name,
            "the ResourceVersion in the precondition ("
                + preconditions.getResourceVersion()
                + ") does not match the ResourceVersion in record ("
                + meta.getResourceVersion()
                + "). The object might have been modified");
      }
      return;
    }
    if (!isEmpty(preconditions.getUid()) && !preconditions.getUid().equals(meta.getUid())) {
      throw ApiErrors.newConflict(
          resource,
          name,
          "Precondition failed: UID in precondition: "
              + preconditions.getUid()
              + ", UID in object meta: "
              + meta.getUid());
    }
    if (!isEmpty(preconditions.getResourceVersion())
        && !preconditions.getResourceVersion().equals(meta.getResourceVersion())) {
      throw ApiErrors.newConflict(
          resource,
          name,
          "Precondition failed: ResourceVersion in precondition: "
              + preconditions.getResourceVersion()
              + ", ResourceVersion in object meta: "
              + meta.getResourceVersion());
    }
  }

  /**
   * A {@code 409 Conflict} naming the object by its kind, as {@code rest.BeforeDelete} names it (a
   * GroupResource whose resource is the kind: {@code Operation cannot be fulfilled on
   * Deployment.apps "web": …}).
   */
  private RuntimeException kindConflict(String name, String why) {
    String group = definition.kind().group();
    String kind = definition.kind().kind();
    dev.machinery.unversioned.meta.v1.StatusDetails details =
        new dev.machinery.unversioned.meta.v1.StatusDetails();
    details.setName(name);
    details.setGroup(isEmpty(group) ? null : group);
    details.setKind(kind);
    dev.machinery.unversioned.meta.v1.Status status =
        new dev.machinery.unversioned.meta.v1.Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setMessage(
        "Operation cannot be fulfilled on "
            + kind
            + (isEmpty(group) ? "" : "." + group)
            + " "
            + FieldError.quote(name)
            + ": "
            + why);
    status.setReason("Conflict");
    status.setCode(409);
    status.setDetails(details);
    return new dev.machinery.unversioned.errors.StatusException(status);
  }

  /** The generic registry's delete: graceful deletion, then finalizers, then removal. */
  private Deletion deleteObject(
      KeyValue current, Object object, DeleteOptions options, boolean dryRun) {
    MetaObject meta = Accessor.of(object);
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    // Negative periods are 1 second on the delete path.
    Long grace = options.getGracePeriodSeconds();
    if (grace != null && grace < 0) {
      grace = 1L;
    }
    if (meta.getDeletionGracePeriodSeconds() != null && meta.getDeletionGracePeriodSeconds() < 0) {
      meta.setDeletionGracePeriodSeconds(1L);
    }
    boolean graceful = false;
    Optional<GracefulDeleteStrategy> strategy = definition.gracefulDelete();
    if (strategy.isPresent()) {
      Instant at = meta.getDeletionTimestamp();
      Long period = meta.getDeletionGracePeriodSeconds();
      if (at != null) {
        if (period != null && period != 0) {
          if (grace == null || grace >= period) {
            // Pending graceful deletion: only a shorter period changes it; nor do the finalizers.
            return new Deletion(object, false);
          }
          Instant moved = at.minusSeconds(period).plusSeconds(grace);
          long shortened = grace;
          if (moved.isBefore(now)) {
            // Never into the past; a graceful delete whose time has passed keeps 1 second.
            moved = now;
            if (shortened != 0) {
              shortened = 1;
            }
          }
          meta.setDeletionTimestamp(moved);
          meta.setDeletionGracePeriodSeconds(shortened);
          graceful = true;
        }
        // A deletion with no period or period 0 left: removed now (unless finalizers hold it).
      } else {
        OptionalLong chosen = strategy.get().gracePeriod(object, grace);
        if (chosen.isPresent()) {
          grace = Math.max(0, chosen.getAsLong());
          meta.setDeletionTimestamp(now.plusSeconds(grace));
          meta.setDeletionGracePeriodSeconds(grace);
          if (meta.getGeneration() > 0) {
            meta.setGeneration(meta.getGeneration() + 1);
          }
          graceful = true;
        }
      }
    }
    List<String> before = finalizers(meta);
    List<String> after = garbageCollectionFinalizers(before, options);
    if (graceful || !before.isEmpty() || after != null) {
      if (after != null) {
        meta.setFinalizers(after);
      }
      boolean pendingFinalizers = !finalizers(meta).isEmpty();
      if (!graceful && pendingFinalizers) {
        markAsDeleting(meta, now);
        return new Deletion(write(current, object, dryRun).object(), false);
      }
      if (graceful) {
        Written written = write(current, object, dryRun);
        if (pendingFinalizers || grace > 0) {
          return new Deletion(written.object(), false);
        }
        // Deleted gracelessly: the marked object is removed at once.
        if (dryRun) {
          return new Deletion(written.object(), true);
        }
        return remove(written.kv(), written.object());
      }
    }
    Object stored = decode(current);
    if (dryRun) {
      return new Deletion(stored, true);
    }
    return remove(current, stored);
  }

  private Deletion remove(KeyValue kv, Object object) {
    KeyValue deleted = wrote(storage.delete(kv.key(), kv.modRevision()));
    Accessor.of(object).setResourceVersion(Long.toString(deleted.modRevision()));
    return new Deletion(object, true);
  }

  /**
   * kube's namespace registry: the first delete marks the namespace deleted and {@code Terminating}
   * (with the propagation's finalizer), whatever its finalizers; a later one removes it through the
   * generic rules once its {@code spec.finalizers} are empty.
   */
  private Deletion deleteNamespace(
      KeyValue current, Object object, DeleteOptions options, boolean dryRun) {
    MetaObject meta = Accessor.of(object);
    if (meta.getDeletionTimestamp() == null) {
      meta.setDeletionTimestamp(Instant.now().truncatedTo(ChronoUnit.SECONDS));
      List<String> finalizers = new ArrayList<>(finalizers(meta));
      boolean orphan =
          namespaceFinalizer(options, finalizers.contains(ORPHAN_FINALIZER), "Orphan", true);
      boolean foreground =
          namespaceFinalizer(
              options, finalizers.contains(FOREGROUND_FINALIZER), "Foreground", false);
      List<String> next = new ArrayList<>(finalizers);
      next.removeIf(f -> f.equals(ORPHAN_FINALIZER) || f.equals(FOREGROUND_FINALIZER));
      if (orphan) {
        next.add(ORPHAN_FINALIZER);
      }
      if (foreground) {
        next.add(FOREGROUND_FINALIZER);
      }
      if (!new java.util.HashSet<>(next).equals(new java.util.HashSet<>(finalizers))) {
        meta.setFinalizers(next);
      }
      Object marked = withPhase(object, "Terminating");
      return new Deletion(write(current, marked, dryRun).object(), false);
    }
    if (!specFinalizers(object).isEmpty()) {
      return new Deletion(object, false);
    }
    return deleteObject(current, object, options, dryRun);
  }

  /**
   * Whether a namespace being marked deleted should have a propagation finalizer: {@code
   * orphanDependents} first, then {@code propagationPolicy}, else what it has.
   */
  private static boolean namespaceFinalizer(
      DeleteOptions options, boolean has, String policy, boolean orphan) {
    if (options.getOrphanDependents() != null) {
      return options.getOrphanDependents() == orphan;
    }
    if (options.getPropagationPolicy() != null) {
      return options.getPropagationPolicy().equals(policy);
    }
    return has;
  }

  /**
   * The finalizers the delete's propagation asks for ({@code
   * deletionFinalizersForGarbageCollection}): the {@value #ORPHAN_FINALIZER} and {@value
   * #FOREGROUND_FINALIZER} ones removed, then the one the delete asks for added; {@code null} when
   * the set is the same.
   */
  private List<String> garbageCollectionFinalizers(List<String> existing, DeleteOptions options) {
    boolean orphan = shouldOrphanDependents(existing, options);
    boolean foreground = shouldDeleteDependents(existing, options);
    List<String> next = new ArrayList<>();
    for (String f : existing) {
      if (!f.equals(ORPHAN_FINALIZER) && !f.equals(FOREGROUND_FINALIZER)) {
        next.add(f);
      }
    }
    if (orphan) {
      next.add(ORPHAN_FINALIZER);
    }
    if (foreground) {
      next.add(FOREGROUND_FINALIZER);
    }
    return new java.util.HashSet<>(existing).equals(new java.util.HashSet<>(next)) ? null : next;
  }

  private boolean shouldOrphanDependents(List<String> finalizers, DeleteOptions options) {
    GarbageCollectionPolicy policy = definition.garbageCollectionPolicy();
    if (policy == GarbageCollectionPolicy.UNSUPPORTED) {
      return false;
    }
    if (options.getOrphanDependents() != null) {
      return options.getOrphanDependents();
    }
    String propagation = options.getPropagationPolicy();
    if (propagation != null && PROPAGATION_POLICIES.contains(propagation)) {
      return propagation.equals("Orphan");
    }
    for (String f : finalizers) {
      if (f.equals(ORPHAN_FINALIZER)) {
        return true;
      }
      if (f.equals(FOREGROUND_FINALIZER)) {
        return false;
      }
    }
    return policy == GarbageCollectionPolicy.ORPHAN_DEPENDENTS;
  }

  private boolean shouldDeleteDependents(List<String> finalizers, DeleteOptions options) {
    if (definition.garbageCollectionPolicy() == GarbageCollectionPolicy.UNSUPPORTED) {
      return false;
    }
    if (options.getOrphanDependents() != null) {
      return false;
    }
    String propagation = options.getPropagationPolicy();
    if (propagation != null && PROPAGATION_POLICIES.contains(propagation)) {
      return propagation.equals("Foreground");
    }
    for (String f : finalizers) {
      if (f.equals(FOREGROUND_FINALIZER)) {
        return true;
      }
      if (f.equals(ORPHAN_FINALIZER)) {
        return false;
      }
    }
    return false;
  }

  /**
   * Marks an object that finalizers hold deleted ({@code markAsDeleting}): its generation bumped
   * the first time, its deletionTimestamp now unless it has an earlier one, its grace period 0.
   */
  private static void markAsDeleting(MetaObject meta, Instant now) {
    if (meta.getDeletionTimestamp() == null && meta.getGeneration() > 0) {
      meta.setGeneration(meta.getGeneration() + 1);
    }
    if (meta.getDeletionTimestamp() == null || meta.getDeletionTimestamp().isAfter(now)) {
      meta.setDeletionTimestamp(now);
    }
    meta.setDeletionGracePeriodSeconds(0L);
  }

  /**
   * Stores an object over the stored one it was read from, unless it is the same (for a dry run,
   * stores nothing): the object as stored and the value it is stored at.
   */
  private Written write(KeyValue current, Object object, boolean dryRun) {
    byte[] bytes = encode(object);
    if (sameObject(bytes, current.value())) {
      return new Written(decode(current), current);
    }
    if (dryRun) {
      Accessor.of(object).setResourceVersion(Long.toString(current.modRevision()));
      return new Written(object, current);
    }
    KeyValue kv = wrote(storeOver(current, bytes));
    return new Written(decode(kv), kv);
  }

  private record Written(Object object, KeyValue kv) {}

  private static List<String> finalizers(MetaObject meta) {
    return meta.getFinalizers() == null ? List.of() : meta.getFinalizers();
  }

  /**
   * Removes one of a Namespace's {@code spec.finalizers} through its {@code finalize} subresource,
   * as kube's namespace controller does when it has deleted the namespace's content: a namespace
   * marked deleted with no finalizers left is removed.
   *
   * @param requester who asks ({@link #LOOPBACK} for the server's own cleanup)
   * @param name the namespace
   * @param finalizer the finalizer to remove, such as {@code kubernetes}
   * @return the namespace as last stored, and whether it is gone
   */
  public Deletion finalizeNamespace(Attributes requester, String name, String finalizer) {
    Object updated =
        update(
            requester,
            new AdmissionNotes(),
            null,
            name,
            object -> withoutSpecFinalizer(object, finalizer),
            "finalize",
            false);
    return new Deletion(updated, storage.get(key(null, name)).isEmpty());
  }

  private Object withoutSpecFinalizer(Object object, String finalizer) {
    ObjectNode tree = tree(object);
    JsonNode list = tree.path("spec").path("finalizers");
    if (!list.isArray()) {
      return object;
    }
    com.fasterxml.jackson.databind.node.ArrayNode kept = tree.arrayNode();
    list.forEach(
        n -> {
          if (!n.asText().equals(finalizer)) {
            kept.add(n);
          }
        });
    if (kept.size() == list.size()) {
      return object;
    }
    ((ObjectNode) tree.get("spec")).set("finalizers", kept);
    return fromTree(tree, object);
  }

  private Object fromTree(ObjectNode tree, Object like) {
    Object changed =
        codec
            .decode(tree.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), storageClass)
            .object();
    definition.readDefaults().accept(changed);
    Accessor.of(changed).setResourceVersion(Accessor.of(like).getResourceVersion());
    return changed;
  }

  /** A namespace's {@code spec.finalizers} (none when absent). */
  private List<String> specFinalizers(Object object) {
    List<String> names = new ArrayList<>();
    tree(object).path("spec").path("finalizers").forEach(n -> names.add(n.asText()));
    return names;
  }

  /** The object with {@code status.phase} set, through its JSON (typed or not). */
  private Object withPhase(Object object, String phase) {
    ObjectNode tree = tree(object);
    if (phase.equals(tree.path("status").path("phase").asText(null))) {
      return object;
    }
    JsonNode status = tree.get("status");
    ObjectNode fields = status instanceof ObjectNode o ? o : tree.putObject("status");
    fields.put("phase", phase);
    return fromTree(tree, object);
  }

  /**
   * Watches the objects of a namespace, or all.
   *
   * @param namespace the namespace, or {@code null}
   * @param afterRevision report changes after this revision
   * @return the storage watch
   */
  public StorageWatch watch(String namespace, long afterRevision) {
    return watch(namespace, afterRevision, null);
  }

  /**
   * Watches the objects of a namespace, or all, offered from the watch cache only the changes of
   * objects that had or have a value of an indexed field, as kube-apiserver's cache offers a
   * kubelet's watch only its node's Pods; the watcher's selectors must themselves require it.
   *
   * @param namespace the namespace, or {@code null}
   * @param afterRevision report changes after this revision
   * @param indexed the value the watcher's selectors require of an indexed field, or {@code null}
   * @return the storage watch
   */
  public StorageWatch watch(String namespace, long afterRevision, FieldValue indexed) {
    if (watchCache == null) {
      return storage.watch(prefix(namespace), afterRevision);
    }
    return indexed == null
        ? watchCache.watch(prefix(namespace), afterRevision)
        : watchCache.watch(prefix(namespace), afterRevision, indexed.field(), indexed.value());
  }

  /**
   * Stops the store's watch cache, when the resource stops being served by this store or its server
   * is closed: its watchers end (clients watch again), its thread ends, the objects it held are let
   * go, and its reads go to the storage.
   */
  public void close() {
    if (watchCache != null && ownsCache) {
      watchCache.close();
    }
  }

  /**
   * Returns the store's current revision.
   *
   * @return the revision
   */
  public long currentRevision() {
    return storage.currentRevision();
  }

  /**
   * Reads the object stored before a change, if the store still has it at that revision.
   *
   * @param kv the value
   * @return the object
   */
  public Optional<Object> decodeOptional(KeyValue kv) {
    return kv == null ? Optional.empty() : Optional.of(decode(kv));
  }

  private RuntimeException conflict(String name) {
    return ApiErrors.newConflict(
        resource,
        name,
        "the object has been modified; please apply your changes to the latest version and try"
            + " again");
  }

  /**
   * Parses a resourceVersion a client sent.
   *
   * @param text the text
   * @return the revision
   * @throws dev.machinery.unversioned.errors.StatusException {@code 400} when it is not a number
   */
  public static long parseRevision(String text) {
    try {
      long value = Long.parseLong(text);
      if (value < 0) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw ApiErrors.newBadRequest("invalid resource version: " + text);
    }
  }

  private ObjectNode tree(Object object) {
    return (ObjectNode) Patches.readTree(codec.encode(object), "the object");
  }

  private JsonNode spec(Object object) {
    ObjectNode tree = tree(object);
    tree.remove("metadata");
    tree.remove("status");
    tree.remove("apiVersion");
    tree.remove("kind");
    return tree;
  }

  private static String name(MetaObject meta) {
    return isEmpty(meta.getName()) ? "" : meta.getName();
  }

  private static boolean isEmpty(String text) {
    return text == null || text.isEmpty();
  }

  private static String suffix() {
    char[] chars = new char[5];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = NAME_SUFFIX[Random.RANDOM.nextInt(NAME_SUFFIX.length)];
    }
    return new String(chars);
  }

  /**
   * One page of a list.
   *
   * @param items the objects, in the storage version
   * @param revision the revision read at (the list's resourceVersion)
   * @param continueToken the token of the next page, or {@code null} on the last
   * @param remainingItemCount how many items follow the page, when the list was not filtered
   *     ({@link #EVERYTHING}) and a page follows; {@code null} otherwise, as kube-apiserver leaves
   *     it out
   */
  public record Page(
      List<Object> items, long revision, String continueToken, Long remainingItemCount) {
    /**
     * A page whose remaining items are not counted.
     *
     * @param items see the record description
     * @param revision see the record description
     * @param continueToken see the record description
     */
    public Page(List<Object> items, long revision, String continueToken) {
      this(items, revision, continueToken, null);
    }
  }

  /**
   * The result of a delete.
   *
   * @param object the object as last stored
   * @param gone whether it is deleted (false when finalizers hold it)
   */
  public record Deletion(Object object, boolean gone) {}
}
