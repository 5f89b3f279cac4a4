package dev.machinery.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinition;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionCondition;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionNames;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionSpec;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionStatus;
import dev.machinery.apiserver.endpoints.Served;
import dev.machinery.apiserver.endpoints.ServedResources;
import dev.machinery.apiserver.registry.AdmissionHook;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.registry.rest.ObjectModel;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.UnstructuredConversion;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageKeys;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.apiserver.storage.encryption.EncryptionConfiguration;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.discovery.ResourceInfo;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CustomResourceDefinition controller of an {@code ApiServer}, as kube-apiserver's naming and
 * establishing controllers and its custom resource handler together: it watches the stored
 * CustomResourceDefinitions and, for each, accepts its names unless another definition of the same
 * group uses them ({@code NamesAccepted}), then serves its kind in every served version and marks
 * it {@code Established}; discovery and OpenAPI are republished on every change. A deleted
 * definition stops being served and its objects are deleted.
 *
 * <p>Thread-safe: one daemon thread reconciles definitions in revision order, until {@link
 * #close()}; the served resources and the published documents are changed through thread-safe
 * registries.
 */
public final class CustomResourceDefinitions {
  /**
   * The logger, made on first use: the server logs nothing while it starts, and the first logger
   * starts SLF4J (its provider found and configured), which costs a fresh JVM about 0.1 s.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(CustomResourceDefinitions.class);
  }

  /** The kind this controller serves. */
  public static final GroupKind KIND =
      GroupKind.of("apiextensions.k8s.io", "CustomResourceDefinition");

  /**
   * The finalizer that holds a deleted definition until its objects are deleted, as
   * kube-apiserver's.
   */
  public static final String CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

  /** Writes a version's schema as the JSON tree OpenAPI publishes. */
  private static final ObjectMapper SCHEMAS = new ObjectMapper();

  private final ResourceStore definitions;
  private final int watchCacheSize;
  private final ServedResources served;
  private final Codec json;
  private final Storage storage;
  private final EncryptionConfiguration encryption;
  private final ValidationRules rules;
  private final Map<String, UnstructuredConversion> conversions;
  private final AdmissionHook admission;
  private final BiConsumer<Map<GroupVersion, List<ResourceInfo>>, Map<GroupVersionKind, JsonNode>>
      publish;
  private final Map<String, Active> active = new LinkedHashMap<>();
  private final List<Runnable> pendingStatus = new ArrayList<>();
  private final java.util.Set<String> terminating = new java.util.HashSet<>();
  private boolean dirty;
  private volatile boolean closed;
  private volatile Thread thread;

  private CustomResourceDefinitions(
      ResourceStore definitions,
      ServedResources served,
      Codec json,
      Storage storage,
      EncryptionConfiguration encryption,
      int watchCacheSize,
      ValidationRules rules,
      Map<String, UnstructuredConversion> conversions,
      AdmissionHook admission,
      BiConsumer<Map<GroupVersion, List<ResourceInfo>>, Map<GroupVersionKind, JsonNode>> publish) {
    this.watchCacheSize = watchCacheSize;
    this.admission = admission;
    this.rules = rules;
    this.conversions = Map.copyOf(conversions);
    this.definitions = definitions;
    this.served = served;
    this.json = json;
    this.storage = storage;
    this.encryption = encryption;
    this.publish = publish;
  }

  /**
   * The CustomResourceDefinition resource itself: cluster-scoped, with its status subresource,
   * short names {@code crd} and {@code crds}, category {@code api-extensions}, and kube-apiserver's
   * validation.
   *
   * @param rules how the schemas' CEL rules are checked
   * @return the definition
   */
  public static ResourceDefinition definition(ValidationRules rules) {
    return ResourceDefinition.builder(KIND, false)
        .resource("customresourcedefinitions")
        .shortNames("crd", "crds")
        .categories("api-extensions")
        .statusSubresource()
        .tracksGeneration()
        .prepareForCreate(
            object -> {
              // Deleting the definition then waits until its objects are gone (see terminate).
              var meta = ((CustomResourceDefinition) object).getMetadata();
              List<String> finalizers =
                  meta.getFinalizers() == null
                      ? new ArrayList<>()
                      : new ArrayList<>(meta.getFinalizers());
              if (!finalizers.contains(CLEANUP_FINALIZER)) {
                finalizers.add(CLEANUP_FINALIZER);
              }
              meta.setFinalizers(finalizers);
              return object;
            })
        .validator((object, old) -> CustomResourceDefinitionValidation.validate(object, old, rules))
        .build();
  }

  /**
   * Serves the definitions already stored, then starts the thread that follows their changes.
   *
   * @param definitions the store of CustomResourceDefinitions
   * @param served the registry the custom resources are served from
   * @param json the JSON codec objects are stored with
   * @param storage the storage
   * @param encryption which custom resources' values are encrypted at rest, or {@code null}
   * @param watchCacheSize how many changes each custom resource's watch cache keeps; 0 for none
   * @param rules how the schemas' CEL rules are evaluated
   * @param conversions the conversions registered for groups (their definitions' objects move
   *     between versions by them, in place of a webhook); others convert with {@code None}
   * @param admission the server's admission, which every write of a custom resource passes through,
   *     as every other resource's
   * @param publish republishes discovery and OpenAPI with the custom resources and their schemas
   *     given (all of them each time)
   * @return the running controller
   */
  public static CustomResourceDefinitions start(
      ResourceStore definitions,
      ServedResources served,
      Codec json,
      Storage storage,
      EncryptionConfiguration encryption,
      int watchCacheSize,
      ValidationRules rules,
      Map<String, UnstructuredConversion> conversions,
      AdmissionHook admission,
      BiConsumer<Map<GroupVersion, List<ResourceInfo>>, Map<GroupVersionKind, JsonNode>> publish) {
    CustomResourceDefinitions controller =
        new CustomResourceDefinitions(
            definitions,
            served,
            json,
            storage,
            encryption,
            watchCacheSize,
            rules,
            conversions,
            admission,
            publish);
    ResourceStore.Page page = definitions.list(null, o -> true, 0, null, "");
    for (Object crd : page.items()) {
      controller.reconcile((CustomResourceDefinition) crd);
    }
    controller.flush();
    // The first watch is opened here, before any request can create a definition: on an empty
    // storage the list's revision is 0, which a watch takes as "from now", so a watch opened later
    // by the thread would miss a definition created in between.
    StorageWatch first = definitions.watch(null, page.revision());
    Thread thread =
        new Thread(
            () -> controller.run(page.revision(), first), "customresourcedefinitions controller");
    thread.setDaemon(true);
    controller.thread = thread;
    thread.start();
    return controller;
  }

  /**
   * Stops the controller: its thread ends (this waits up to ten seconds for it) and the watch cache
   * of every custom resource it serves is closed, so that neither thread nor cached object stays.
   * The resources stay registered, served from the storage; definitions changed later are not
   * followed. Calling it again does nothing more.
   */
  public void close() {
    closed = true;
    Thread running = thread;
    if (running != null && running != Thread.currentThread()) {
      running.interrupt();
      boolean interrupted = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (running.isAlive() && System.nanoTime() < deadline) {
        try {
          running.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      if (running.isAlive()) {
        Log.LOG.warn("the CustomResourceDefinition controller did not stop within 10 seconds");
      }
    }
    synchronized (this) {
      for (Active crd : active.values()) {
        crd.store().close();
      }
    }
  }

  /**
   * Follows the stored definitions from a revision on, with the watch given first, starting the
   * watch again when it ends; while the storage is unavailable (an unreachable etcd, or a closed
   * store) it waits longer each time, up to half a minute, and logs the first failure of each
   * streak only.
   */
  private void run(long revision, StorageWatch first) {
    long after = revision;
    long backoff = 0;
    StorageWatch opened = first;
    while (true) {
      if (closed) {
        if (opened != null) {
          opened.close();
        }
        return;
      }
      StorageWatch next = opened;
      opened = null;
      try (StorageWatch watch = next != null ? next : definitions.watch(null, after)) {
        backoff = 0;
        while (!watch.isDone() && !closed) {
          StorageEvent event = watch.poll(1, TimeUnit.SECONDS);
          // The changes that came together are handled together, and published once.
          for (int taken = 0; event != null && taken < 256; taken++) {
            after = event.revision();
            handle(event);
            event = watch.poll(0, TimeUnit.MILLISECONDS);
          }
          if (event != null) {
            after = event.revision();
            handle(event);
          }
          flush();
        }
        StorageException error = watch.error();
        if (error != null && error.kind() == StorageException.Kind.COMPACTED) {
          after = definitions.currentRevision();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        if (closed) {
          return;
        }
        if (backoff == 0) {
          Log.LOG.warn(
              "the CustomResourceDefinition watch failed; starting it again: {}", e.toString());
        } else {
          Log.LOG.debug("the CustomResourceDefinition watch failed again: {}", e.getMessage());
        }
        backoff = Math.min(backoff == 0 ? 1000 : backoff * 2, 30_000);
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private void handle(StorageEvent event) {
    try {
      if (event.type() == StorageEvent.Type.DELETE) {
        deleted(event.kv().key());
      } else {
        reconcile((CustomResourceDefinition) definitions.decode(event.kv()));
      }
    } catch (RuntimeException e) {
      Log.LOG.warn("reconciling {} failed", event.kv().key(), e);
    }
  }

  /**
   * Publishes discovery and OpenAPI once for the changes reconciled since the last time, then
   * writes the definitions' new status: a client that sees {@code Established} finds the kind in
   * discovery.
   */
  private synchronized void flush() {
    if (dirty) {
      republish();
      dirty = false;
    }
    List<Runnable> writes = new ArrayList<>(pendingStatus);
    pendingStatus.clear();
    writes.forEach(Runnable::run);
  }

  private synchronized void reconcile(CustomResourceDefinition crd) {
    String name = crd.getMetadata().getName();
    if (crd.getMetadata().getDeletionTimestamp() != null) {
      terminate(crd);
      return;
    }
    CustomResourceDefinitionSpec spec = crd.getSpec();
    CustomResourceDefinitionNames requested = withDefaults(spec.names());
    String conflict = conflict(name, spec.group(), requested);
    if (conflict == null) {
      conflict = builtIn(name, spec, requested);
    }
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    List<CustomResourceDefinitionCondition> conditions = new ArrayList<>();
    CustomResourceDefinitionNames accepted;
    if (conflict == null) {
      accepted = requested;
      conditions.add(
          condition(crd, "NamesAccepted", "True", "NoConflicts", "no conflicts found", now));
      conditions.add(
          condition(
              crd,
              "Established",
              "True",
              "InitialNamesAccepted",
              "the initial names have been accepted",
              now));
      serve(crd, accepted);
    } else {
      accepted =
          crd.getStatus() == null || crd.getStatus().acceptedNames() == null
              ? new CustomResourceDefinitionNames(null, null, null, null, null, null)
              : crd.getStatus().acceptedNames();
      String reason = conflict.substring(0, conflict.indexOf(' '));
      conditions.add(
          condition(
              crd,
              "NamesAccepted",
              "False",
              reason,
              conflict.substring(conflict.indexOf(' ') + 1),
              now));
      conditions.add(
          condition(crd, "Established", "False", "NotAccepted", "not all names are accepted", now));
      unserve(name);
    }
    List<String> stored = new ArrayList<>();
    if (crd.getStatus() != null) {
      stored.addAll(crd.getStatus().storedVersions());
    }
    if (conflict == null) {
      spec.versions().stream()
          .filter(v -> v.storage() && !stored.contains(v.name()))
          .forEach(v -> stored.add(v.name()));
    }
    CustomResourceDefinitionStatus status =
        new CustomResourceDefinitionStatus(conditions, accepted, stored);
    if (!status.equals(crd.getStatus())) {
      pendingStatus.add(
          () -> {
            try {
              definitions.update(
                  ResourceStore.LOOPBACK,
                  null,
                  name,
                  old -> {
                    ((CustomResourceDefinition) old).setStatus(status);
                    return old;
                  },
                  true,
                  false);
            } catch (RuntimeException e) {
              Log.LOG.warn("the status of {} was not written: {}", name, e.getMessage());
            }
          });
    }
  }

  /**
   * A definition being deleted: no longer served, its objects deleted, then its cleanup finalizer
   * removed, which lets the store delete it; meanwhile its status says {@code Terminating} ({@code
   * InstanceDeletionInProgress}), as kube-apiserver's finalizing controller does.
   */
  private void terminate(CustomResourceDefinition crd) {
    String name = crd.getMetadata().getName();
    Active was = active.get(name);
    unserve(name);
    List<String> finalizers = crd.getMetadata().getFinalizers();
    if (finalizers == null || !finalizers.contains(CLEANUP_FINALIZER) || !terminating.add(name)) {
      return; // not held for cleanup, or its cleanup already under way
    }
    String group = crd.getSpec().group();
    String plural =
        was != null
            ? was.names().plural()
            : crd.getStatus() != null && crd.getStatus().acceptedNames() != null
                ? crd.getStatus().acceptedNames().plural()
                : crd.getSpec().names().plural();
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    List<CustomResourceDefinitionCondition> conditions = new ArrayList<>();
    if (crd.getStatus() != null) {
      crd.getStatus().conditions().stream()
          .filter(c -> !c.type().equals("Terminating"))
          .forEach(conditions::add);
    }
    conditions.add(
        condition(
            crd,
            "Terminating",
            "True",
            "InstanceDeletionInProgress",
            "CustomResource deletion is in progress",
            now));
    pendingStatus.add(
        () -> {
          try {
            definitions.update(
                ResourceStore.LOOPBACK,
                null,
                name,
                old -> {
                  CustomResourceDefinition d = (CustomResourceDefinition) old;
                  CustomResourceDefinitionStatus status = d.getStatus();
                  d.setStatus(
                      new CustomResourceDefinitionStatus(
                          conditions,
                          status == null ? null : status.acceptedNames(),
                          status == null ? List.of() : status.storedVersions()));
                  return d;
                },
                true,
                false);
            deleteObjects(StorageKeys.customResourcePrefix(group, plural));
            definitions.update(
                ResourceStore.LOOPBACK,
                null,
                name,
                old -> {
                  CustomResourceDefinition d = (CustomResourceDefinition) old;
                  List<String> left = new ArrayList<>(d.getMetadata().getFinalizers());
                  left.remove(CLEANUP_FINALIZER);
                  d.getMetadata().setFinalizers(left);
                  return d;
                },
                false,
                false);
          } catch (RuntimeException e) {
            Log.LOG.warn("the objects of {} were not all deleted: {}", name, e.getMessage());
          }
        });
  }

  /** The condition, keeping its transition time when its status has not changed. */
  private static CustomResourceDefinitionCondition condition(
      CustomResourceDefinition crd,
      String type,
      String status,
      String reason,
      String message,
      Instant now) {
    Instant since = now;
    if (crd.getStatus() != null) {
      for (CustomResourceDefinitionCondition existing : crd.getStatus().conditions()) {
        if (existing.type().equals(type) && existing.status().equals(status)) {
          since = existing.lastTransitionTime();
        }
      }
    }
    return new CustomResourceDefinitionCondition(type, status, since, reason, message);
  }

  /**
   * The first name another definition of the group has accepted, as {@code "<Reason> <message>"},
   * or null.
   */
  /**
   * A resource the server itself serves (a built-in kind) in one of the definition's versions, as
   * {@code "PluralConflict <message>"}, or null. kube-apiserver would establish such a definition
   * and never reach it, its own resource answering first; here it is not accepted, so that its
   * status says why its objects are not served.
   */
  private String builtIn(
      String name, CustomResourceDefinitionSpec spec, CustomResourceDefinitionNames requested) {
    Active own = active.get(name);
    for (var version : spec.versions()) {
      var there = served.find(spec.group(), version.name(), requested.plural());
      if (there.isPresent() && (own == null || there.get().store() != own.store())) {
        return "PluralConflict \""
            + requested.plural()
            + "\" is already served in "
            + spec.group()
            + "/"
            + version.name()
            + " by the server's own "
            + there.get().kind().kind();
      }
    }
    return null;
  }

  private String conflict(String name, String group, CustomResourceDefinitionNames requested) {
    for (Map.Entry<String, Active> entry : active.entrySet()) {
      if (entry.getKey().equals(name) || !entry.getValue().group().equals(group)) {
        continue;
      }
      CustomResourceDefinitionNames other = entry.getValue().names();
      List<String> taken = new ArrayList<>();
      taken.add(other.plural());
      taken.add(other.singular());
      taken.addAll(other.shortNames());
      if (taken.contains(requested.plural())) {
        return "PluralConflict \"" + requested.plural() + "\" is already in use";
      }
      if (taken.contains(requested.singular())) {
        return "SingularConflict \"" + requested.singular() + "\" is already in use";
      }
      for (String shortName : requested.shortNames()) {
        if (taken.contains(shortName)) {
          return "ShortNamesConflict \"" + shortName + "\" is already in use";
        }
      }
      if (Objects.equals(other.kind(), requested.kind())
          || Objects.equals(other.listKind(), requested.kind())) {
        return "KindConflict \"" + requested.kind() + "\" is already in use";
      }
      if (Objects.equals(other.kind(), requested.listKind())
          || Objects.equals(other.listKind(), requested.listKind())) {
        return "ListKindConflict \"" + requested.listKind() + "\" is already in use";
      }
    }
    return null;
  }

  private static CustomResourceDefinitionNames withDefaults(CustomResourceDefinitionNames names) {
    String singular =
        names.singular() == null || names.singular().isEmpty()
            ? names.kind().toLowerCase(Locale.ROOT)
            : names.singular();
    String listKind =
        names.listKind() == null || names.listKind().isEmpty()
            ? names.kind() + "List"
            : names.listKind();
    return new CustomResourceDefinitionNames(
        names.plural(), singular, names.shortNames(), names.kind(), listKind, names.categories());
  }

  /**
   * A definition's conversion: the one the server registered for its group, else its webhook when
   * its strategy is {@code Webhook}, else {@code None}.
   */
  private UnstructuredConversion conversion(CustomResourceDefinition crd) {
    UnstructuredConversion registered = conversions.get(crd.getSpec().group());
    if (registered != null) {
      return registered;
    }
    if (WebhookConversion.isWebhook(crd.getSpec().conversion())) {
      return WebhookConversion.of(crd.getSpec().conversion());
    }
    return UnstructuredConversion.none();
  }

  private void serve(CustomResourceDefinition crd, CustomResourceDefinitionNames names) {
    String name = crd.getMetadata().getName();
    Active previous = active.get(name);
    if (previous != null && previous.spec().equals(crd.getSpec())) {
      return;
    }
    CustomResourceServing serving = CustomResourceServing.of(crd, rules, conversion(crd));
    ResourceDefinition definition = serving.definition();
    // Custom resources are stored as JSON whatever the storage media type, as kube-apiserver
    // stores them (the constructor's JSON storage codec).
    ResourceStore store =
        new ResourceStore(
            definition,
            serving.storageVersion().withKind(names.kind()),
            ObjectModel.unstructured(definition),
            json,
            encryption == null
                ? storage
                : encryption.storage(crd.getSpec().group(), names.plural(), storage),
            watchCacheSize,
            admission,
            StorageKeys.customResourcePrefix(crd.getSpec().group(), names.plural()));
    Map<String, Served> entries = new LinkedHashMap<>();
    Map<GroupVersion, ResourceInfo> infos = new LinkedHashMap<>();
    for (GroupVersion version : serving.servedVersions()) {
      GroupVersionKind kind = version.withKind(names.kind());
      entries.put(
          ServedResources.key(version.group(), version.version(), names.plural()),
          new Served(store, kind, store.model().type(kind)));
      infos.put(version, definition.info(version).withStorageVersion(store.storageKind()));
    }
    served.put(name, entries, definition.kind(), definition.table().orElse(null));
    Map<GroupVersionKind, JsonNode> schemas = new LinkedHashMap<>();
    for (var version : crd.getSpec().versions()) {
      if (version.served()
          && version.schema() != null
          && version.schema().openAPIV3Schema() != null) {
        schemas.put(
            GroupVersion.of(crd.getSpec().group(), version.name()).withKind(names.kind()),
            SCHEMAS.valueToTree(version.schema().openAPIV3Schema()));
      }
    }
    Active replaced =
        active.put(
            name, new Active(crd.getSpec().group(), names, crd.getSpec(), infos, schemas, store));
    if (replaced != null) {
      replaced.store().close();
    }
    dirty = true;
    Log.LOG.debug("serving {} in {}", name, serving.servedVersions());
  }

  private void unserve(String name) {
    Active was = active.remove(name);
    if (was != null) {
      served.remove(name);
      was.store().close();
      dirty = true;
    }
  }

  private synchronized void deleted(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    terminating.remove(name);
    Active was = active.get(name);
    unserve(name);
    if (was != null) {
      deleteObjects(StorageKeys.customResourcePrefix(was.group(), was.names().plural()));
    }
  }

  /** Deletes every object under a prefix, as the CRD finalizer does before a definition goes. */
  private void deleteObjects(String prefix) {
    String start = null;
    while (true) {
      ListResult page = storage.list(prefix, 0, start, 500);
      for (KeyValue kv : page.items()) {
        try {
          storage.delete(kv.key(), kv.modRevision());
        } catch (StorageException e) {
          Log.LOG.debug("{} was not deleted: {}", kv.key(), e.getMessage());
        }
      }
      if (!page.more() || page.items().isEmpty()) {
        return;
      }
      start = page.items().get(page.items().size() - 1).key() + "\0";
    }
  }

  private void republish() {
    Map<GroupVersion, List<ResourceInfo>> all = new LinkedHashMap<>();
    Map<GroupVersionKind, JsonNode> schemas = new LinkedHashMap<>();
    for (Active crd : active.values()) {
      crd.infos().forEach((v, i) -> all.computeIfAbsent(v, x -> new ArrayList<>()).add(i));
      schemas.putAll(crd.schemas());
    }
    publish.accept(all, schemas);
  }

  private record Active(
      String group,
      CustomResourceDefinitionNames names,
      CustomResourceDefinitionSpec spec,
      Map<GroupVersion, ResourceInfo> infos,
      Map<GroupVersionKind, JsonNode> schemas,
      ResourceStore store) {}
}
