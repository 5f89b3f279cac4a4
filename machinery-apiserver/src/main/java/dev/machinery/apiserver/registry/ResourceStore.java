package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
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
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.ManagedFieldsEntry;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.ObjectMetaValidation;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
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

  private static final char[] NAME_SUFFIX = "bcdfghjklmnpqrstvwxz2456789".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  /** How many changes one watcher of the watch cache may fall behind before it is ended. */
  static final int WATCHER_QUEUE_LIMIT = 10_000;

  private final ResourceDefinition definition;
  private final GroupResource resource;
  private final GroupVersionKind storageKind;
  private final Class<?> storageClass;
  private final ObjectModel model;
  private final Codec codec;
  private final Storage storage;
  private final String root;
  private final ObjectModel.StatusAccess status;
  private final WatchCache watchCache;
  private final AdmissionHook admission;

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
    if (!keyPrefix.endsWith("/")) {
      throw new IllegalArgumentException(
          "the key prefix of " + definition.resource() + " does not end in '/': " + keyPrefix);
    }
    this.admission = admission;
    this.definition = definition;
    this.resource = GroupResource.of(definition.kind().group(), definition.resource());
    this.storageKind = storageKind;
    this.model = model;
    this.storageClass = model.type(storageKind);
    this.codec = codec;
    this.storage = storage;
    this.root = keyPrefix;
    this.status = definition.hasStatus() ? model.status(storageClass) : null;
    this.watchCache =
        watchCacheSize > 0
            ? new WatchCache(storage, root, watchCacheSize, WATCHER_QUEUE_LIMIT, this::decode)
            : null;
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
    Object object = codec.decode(kv.value(), storageClass).object();
    definition.readDefaults().accept(object);
    Accessor.of(object).setResourceVersion(Long.toString(kv.modRevision()));
    return object;
  }

  /**
   * Whether an update's encoding holds the stored object: the same bytes, or (for an object held as
   * a JSON tree, whose keys keep the order they were set in, so that a create and a later merge may
   * write the same fields in another order) the same JSON with its keys in another order, as Go's
   * encoding of the object would be the same bytes. A reordering keeps the length, so only
   * encodings of equal length are parsed.
   */
  private static boolean sameObject(byte[] encoded, byte[] stored) {
    if (Arrays.equals(encoded, stored)) {
      return true;
    }
    return encoded.length == stored.length
        && Patches.readTree(encoded, "the object").equals(Patches.readTree(stored, "the object"));
  }

  private byte[] encode(Object object) {
    MetaObject meta = Accessor.of(object);
    String version = meta.getResourceVersion();
    meta.setResourceVersion(null);
    try {
      return codec.encode(object);
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
    KeyValue kv = read(namespace, name);
    return watchCache != null ? watchCache.decoded(kv) : decode(kv);
  }

  private KeyValue read(String namespace, String name) {
    return storage
        .get(key(namespace, name))
        .orElseThrow(() -> ApiErrors.newNotFound(resource, name));
  }

  /**
   * Reads one page of objects.
   *
   * @param namespace the namespace, or {@code null} for all
   * @param filter which objects to return (selectors)
   * @param limit the most objects, 0 for all
   * @param continueToken the token of the previous page, or {@code null}
   * @param resourceVersion the list's resourceVersion parameter ({@code ""}, {@code "0"} or a
   *     revision to read at exactly); {@code "0"} without a continue token is served from the watch
   *     cache when there is one
   * @return the page; its objects may be shared with the watch cache and other requests: read them,
   *     never change them
   */
  public Page list(
      String namespace,
      Predicate<Object> filter,
      int limit,
      String continueToken,
      String resourceVersion) {
    String prefix = prefix(namespace);
    boolean noToken = continueToken == null || continueToken.isEmpty();
    if (watchCache != null && noToken && "0".equals(resourceVersion)) {
      Page cached = listCached(prefix, filter, limit);
      if (cached != null) {
        return cached;
      }
    }
    long at = 0;
    String start = null;
    if (!noToken) {
      ContinueToken token = ContinueToken.decode(continueToken);
      at = token.revision();
      start = prefix + token.start();
    } else if (resourceVersion != null
        && !resourceVersion.isEmpty()
        && !resourceVersion.equals("0")) {
      at = parseRevision(resourceVersion);
      if (at > storage.currentRevision()) {
        throw ApiErrors.newTimeout(
            "Too large resource version: " + at + ", current: " + storage.currentRevision(), 1);
      }
    }
    List<Object> items = new ArrayList<>();
    String next = null;
    String cursor = start;
    pages:
    while (true) {
      ListResult page;
      try {
        page = storage.list(prefix, at, cursor, limit == 0 ? 0 : Math.max(limit, 100));
      } catch (StorageException e) {
        if (e.kind() == StorageException.Kind.COMPACTED) {
          throw ApiErrors.newResourceExpired(
              continueToken != null
                  ? "The provided continue parameter is too old to display a consistent list"
                      + " result. You can start a new list without the continue parameter."
                  : "too old resource version: " + at + " (" + e.revision() + ")");
        }
        throw e;
      }
      at = page.revision();
      for (KeyValue kv : page.items()) {
        if (limit > 0 && items.size() == limit) {
          next = kv.key();
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
    long revision = at;
    String token =
        next == null ? null : new ContinueToken(revision, next.substring(prefix.length())).encode();
    return new Page(items, revision, token);
  }

  /**
   * A list at {@code resourceVersion=0}, served from the watch cache as kube-apiserver serves it:
   * the objects the cache holds, at its revision; a further page, if a limit leaves one, is read
   * from the storage at that revision; {@code null} when the cache is closed.
   */
  private Page listCached(String prefix, Predicate<Object> filter, int limit) {
    WatchCache.Snapshot snapshot = watchCache.snapshot(prefix);
    if (snapshot == null) {
      return null;
    }
    List<Object> items = new ArrayList<>();
    String next = null;
    for (WatchCache.Entry entry : snapshot.items()) {
      if (limit > 0 && items.size() == limit) {
        next = entry.kv().key();
        break;
      }
      Object object = entry.object();
      if (filter.test(object)) {
        items.add(object);
      }
    }
    String token =
        next == null
            ? null
            : new ContinueToken(snapshot.revision(), next.substring(prefix.length())).encode();
    return new Page(items, snapshot.revision(), token);
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
    Object prepared = definition.prepareForCreate().apply(object);
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
          storage.create(
              key(preparedMeta.getNamespace(), preparedMeta.getName()), encode(prepared));
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
      Object prepared = prepareUpdate(updated, old, current, statusOnly);
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
      if (dryRun || sameObject(bytes, current.value()) && !storage.isStale(current)) {
        return dryRun ? prepared : old;
      }
      try {
        if (newMeta.getDeletionTimestamp() != null
            && (newMeta.getFinalizers() == null || newMeta.getFinalizers().isEmpty())) {
          storage.delete(current.key(), current.modRevision());
          Accessor.of(prepared).setResourceVersion(Long.toString(storage.currentRevision()));
          return prepared;
        }
        return decode(storage.update(current.key(), current.modRevision(), bytes));
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

  private Object prepareUpdate(Object updated, Object old, KeyValue current, boolean statusOnly) {
    MetaObject oldMeta = Accessor.of(old);
    Object prepared = updated;
    if (statusOnly) {
      // The status subresource: the stored object (a copy of its own) with the new status.
      prepared = decode(current);
      status.set(prepared, status.get(updated));
      Accessor.of(prepared).setResourceVersion(Accessor.of(updated).getResourceVersion());
      // Who owns the new status is recorded in the new object's managed fields.
      Accessor.of(prepared).setManagedFields(Accessor.of(updated).getManagedFields());
    } else if (status != null) {
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
    return statusOnly ? prepared : definition.prepareForUpdate().apply(prepared, old);
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
            && !holdsSpecFinalizers(bytes)) {
          storage.delete(current.key(), current.modRevision());
          meta.setResourceVersion(Long.toString(storage.currentRevision()));
          return next;
        }
        return decode(storage.update(current.key(), current.modRevision(), bytes));
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

  /** Whether a namespace's {@code spec.finalizers} still hold it (read from its encoding). */
  private static boolean holdsSpecFinalizers(byte[] encoded) {
    JsonNode finalizers = Patches.readTree(encoded, "the object").path("spec").path("finalizers");
    return finalizers.isArray() && !finalizers.isEmpty();
  }

  /**
   * Deletes an object, or marks it deleted when finalizers hold it.
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
    return delete(requester, new AdmissionNotes(), namespace, name, preconditions, dryRun);
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
    for (int attempt = 0; ; attempt++) {
      KeyValue current = read(namespace, name);
      Object object = decode(current);
      MetaObject meta = Accessor.of(object);
      if (preconditions != null) {
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
      admission.mutate(requester, this, Operation.DELETE, null, object, dryRun, notes);
      admission.validate(requester, this, Operation.DELETE, null, object, dryRun, notes);
      boolean finalizers = meta.getFinalizers() != null && !meta.getFinalizers().isEmpty();
      if (dryRun) {
        return new Deletion(object, !finalizers);
      }
      try {
        if (finalizers) {
          if (meta.getDeletionTimestamp() != null) {
            return new Deletion(object, false);
          }
          meta.setDeletionTimestamp(Instant.now().truncatedTo(ChronoUnit.SECONDS));
          meta.setDeletionGracePeriodSeconds(0L);
          return new Deletion(
              decode(storage.update(current.key(), current.modRevision(), encode(object))), false);
        }
        KeyValue deleted = storage.delete(current.key(), current.modRevision());
        meta.setResourceVersion(Long.toString(deleted.modRevision()));
        return new Deletion(object, true);
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
   * Watches the objects of a namespace, or all.
   *
   * @param namespace the namespace, or {@code null}
   * @param afterRevision report changes after this revision
   * @return the storage watch
   */
  public StorageWatch watch(String namespace, long afterRevision) {
    return watchCache != null
        ? watchCache.watch(prefix(namespace), afterRevision)
        : storage.watch(prefix(namespace), afterRevision);
  }

  /**
   * Stops the store's watch cache, when the resource stops being served by this store or its server
   * is closed: its watchers end (clients watch again), its thread ends, the objects it held are let
   * go, and its reads go to the storage.
   */
  public void close() {
    if (watchCache != null) {
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
      chars[i] = NAME_SUFFIX[RANDOM.nextInt(NAME_SUFFIX.length)];
    }
    return new String(chars);
  }

  /**
   * One page of a list.
   *
   * @param items the objects, in the storage version
   * @param revision the revision read at (the list's resourceVersion)
   * @param continueToken the token of the next page, or {@code null} on the last
   */
  public record Page(List<Object> items, long revision, String continueToken) {}

  /**
   * The result of a delete.
   *
   * @param object the object as last stored
   * @param gone whether it is deleted (false when finalizers hold it)
   */
  public record Deletion(Object object, boolean gone) {}
}
