package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.negotiation.Negotiator;
import dev.machinery.apiserver.registry.AdmissionHook;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.registry.StorageCodec;
import dev.machinery.apiserver.registry.rest.ObjectModel;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageKeys;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.apiserver.storage.encryption.EncryptionConfiguration;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.discovery.ResourceInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one path by which a server registers the resources it is built with, as kube-apiserver's
 * {@code InstallAPIGroup}: for each resource one {@link ResourceStore} in its storage version, a
 * {@link Served} entry for each enabled version, its discovery entry in each, and its Table and
 * Scale views for the negotiator. A resource is either of a kind the Scheme registers ({@link
 * #addTyped}: its versions, classes and list kinds are the Scheme's) or held without a class
 * ({@link #addUnstructured}: {@code Unstructured} objects in the versions given), each with its
 * {@link ObjectModel}; after that the two are the same.
 *
 * <p>Not thread-safe: used while a server is built.
 */
public final class ResourceRegistry {
  private final Scheme scheme;
  private final Enablement enablement;
  private final Codec json;
  private final Storage storage;
  private final EncryptionConfiguration encryption;
  private final StorageMediaType mediaType;
  private final int watchCacheSize;
  private final AdmissionHook admission;
  private final Negotiator.Builder negotiator;
  private final Map<String, Served> served = new LinkedHashMap<>();
  private final Map<GroupKind, ResourceStore> stores = new LinkedHashMap<>();

  /** The first store registered under each key prefix, whose watch cache a cohabitant shares. */
  private final Map<String, ResourceStore> storesByPrefix = new LinkedHashMap<>();

  private final Map<GroupVersion, List<ResourceInfo>> typedDiscovery = new LinkedHashMap<>();
  private final Map<GroupVersion, List<ResourceInfo>> unregisteredDiscovery = new LinkedHashMap<>();

  /**
   * Starts a registry.
   *
   * @param scheme the Scheme of the typed kinds
   * @param enablement which group versions are served
   * @param json the JSON codec the stores encode with
   * @param storage the storage
   * @param encryption which resources' values are encrypted at rest, or {@code null} for none
   * @param watchCacheSize the changes each store's watch cache keeps
   * @param admission the admission every store's writes pass through
   * @param negotiator where each resource's Table and Scale views go
   */
  public ResourceRegistry(
      Scheme scheme,
      Enablement enablement,
      Codec json,
      Storage storage,
      EncryptionConfiguration encryption,
      int watchCacheSize,
      AdmissionHook admission,
      Negotiator.Builder negotiator) {
    this(
        scheme,
        enablement,
        json,
        storage,
        StorageMediaType.JSON,
        encryption,
        watchCacheSize,
        admission,
        negotiator);
  }

  /**
   * Starts a registry whose stores write their values in a media type ({@link StorageCodec#of}).
   *
   * @param scheme the Scheme of the typed kinds
   * @param enablement which group versions are served
   * @param json the JSON codec the stores encode with
   * @param storage the storage
   * @param mediaType the media type values are stored in
   * @param encryption which resources' values are encrypted at rest, or {@code null} for none
   * @param watchCacheSize the changes each store's watch cache keeps
   * @param admission the admission every store's writes pass through
   * @param negotiator where each resource's Table and Scale views go
   */
  public ResourceRegistry(
      Scheme scheme,
      Enablement enablement,
      Codec json,
      Storage storage,
      StorageMediaType mediaType,
      EncryptionConfiguration encryption,
      int watchCacheSize,
      AdmissionHook admission,
      Negotiator.Builder negotiator) {
    this.mediaType = Objects.requireNonNull(mediaType, "mediaType");
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.enablement = Objects.requireNonNull(enablement, "enablement");
    this.json = Objects.requireNonNull(json, "json");
    this.storage = Objects.requireNonNull(storage, "storage");
    this.encryption = encryption;
    this.watchCacheSize = watchCacheSize;
    this.admission = Objects.requireNonNull(admission, "admission");
    this.negotiator = Objects.requireNonNull(negotiator, "negotiator");
  }

  /**
   * Registers a resource of a kind the Scheme registers, in every version of its group that has the
   * kind, stored in the definition's storage version or else the group's preferred one.
   *
   * @param definition the resource
   * @throws IllegalArgumentException when the Scheme lacks the kind's storage version or a list
   *     kind
   */
  public void addTyped(ResourceDefinition definition) {
    GroupKind kind = definition.kind();
    List<GroupVersion> versions = new ArrayList<>();
    for (GroupVersion version : scheme.prioritizedVersionsForGroup(kind.group())) {
      if (scheme.recognizes(version.withKind(kind.kind()))) {
        versions.add(version);
      }
    }
    if (versions.isEmpty()) {
      throw new IllegalArgumentException(
          "the Scheme registers " + kind + " in no version of its group");
    }
    GroupVersion storageVersion = definition.storageVersion().orElse(versions.get(0));
    GroupVersionKind storageKind = storageVersion.withKind(kind.kind());
    Class<?> storageClass =
        scheme
            .typeFor(storageKind)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "the storage version of "
                            + kind
                            + " is "
                            + storageVersion
                            + ", where the Scheme does not register it"));
    for (GroupVersion version : versions) {
      GroupVersionKind listKind = version.withKind(kind.kind() + "List");
      if (enablement.isEnabled(version) && !scheme.recognizes(listKind)) {
        throw new IllegalArgumentException(
            "the Scheme does not register "
                + listKind
                + "; register the list kinds with ResourceList.addToScheme(builder, \""
                + kind.kind()
                + "\", versions...)");
      }
    }
    register(
        definition,
        storageKind,
        ObjectModel.of(scheme, json, storageClass, definition),
        versions,
        typedDiscovery);
    definition
        .scale()
        .ifPresent(
            scale ->
                negotiator.addScale(
                    kind, Object.class, new ScaleView(scheme, definition.scaleType(), scale)));
  }

  /**
   * Registers a resource held without a class: {@code Unstructured} objects stored in one version
   * and served in several. A kind already registered (by its class) is left as it is.
   *
   * @param definition the resource
   * @param storageVersion the version objects are stored in
   * @param servedVersions the versions it is served in, most preferred first
   */
  public void addUnstructured(
      ResourceDefinition definition,
      GroupVersion storageVersion,
      List<GroupVersion> servedVersions) {
    if (stores.containsKey(definition.kind())) {
      return;
    }
    register(
        definition,
        storageVersion.withKind(definition.kind().kind()),
        ObjectModel.unstructured(definition),
        servedVersions,
        unregisteredDiscovery);
  }

  private void register(
      ResourceDefinition definition,
      GroupVersionKind storageKind,
      ObjectModel model,
      List<GroupVersion> versions,
      Map<GroupVersion, List<ResourceInfo>> discovery) {
    // Values are encrypted as the resource they are stored as: events.k8s.io Events as core Events
    // (kube-apiserver's configuration names them "events").
    Storage resourceStorage =
        encryption == null
            ? storage
            : encryption.storage(storageKind.group(), definition.resource(), storage);
    String prefix =
        StorageKeys.resourcePrefix(
            GroupResource.of(definition.kind().group(), definition.resource()));
    ResourceStore keeper = storesByPrefix.get(prefix);
    ResourceStore store =
        keeper != null
                && keeper.storageKind().equals(storageKind)
                // and encrypted alike: by the stored kind's group and the resource's name
                && keeper.definition().resource().equals(definition.resource())
                && keeper.model().type(storageKind) == model.type(storageKind)
                && definition.indexedFields().isEmpty()
            // Another resource kept under the same keys in the same kind (events.k8s.io Events
            // beside core Events): one watch cache for both.
            ? keeper.cohabitant(definition, model, admission)
            : new ResourceStore(
                definition,
                storageKind,
                model,
                json,
                StorageCodec.of(mediaType, json, storageKind),
                resourceStorage,
                watchCacheSize,
                admission,
                prefix);
    stores.put(definition.kind(), store);
    storesByPrefix.putIfAbsent(prefix, store);
    for (GroupVersion version : versions) {
      if (!enablement.isEnabled(version)) {
        continue;
      }
      GroupVersionKind kind = version.withKind(definition.kind().kind());
      served.put(
          ServedResources.key(version.group(), version.version(), definition.resource()),
          new Served(store, kind, model.type(kind)));
      discovery
          .computeIfAbsent(version, v -> new ArrayList<>())
          .add(definition.info(version).withStorageVersion(storageKind));
    }
    definition.table().ifPresent(t -> negotiator.addTableConvertor(definition.kind(), t));
  }

  /**
   * Lists, beside the registered resources, one that is answered by a handler of its own (such as
   * the access reviews) in discovery.
   *
   * @param version its group version
   * @param info its discovery entry
   */
  public void addDiscoveryOnly(GroupVersion version, ResourceInfo info) {
    unregisteredDiscovery.computeIfAbsent(version, v -> new ArrayList<>()).add(info);
  }

  /**
   * The served entries, by {@link ServedResources#key}.
   *
   * @return the entries, in the order registered
   */
  public Map<String, Served> served() {
    return Collections.unmodifiableMap(served);
  }

  /**
   * The store of a kind.
   *
   * @param kind the kind
   * @return its store, or empty when no resource of the kind is registered
   */
  public Optional<ResourceStore> store(GroupKind kind) {
    return Optional.ofNullable(stores.get(kind));
  }

  /**
   * The stores of a group's kinds, by kind.
   *
   * @param group the API group
   * @return the stores
   */
  public Map<String, ResourceStore> storesOfGroup(String group) {
    Map<String, ResourceStore> found = new LinkedHashMap<>();
    stores.forEach(
        (kind, store) -> {
          if (kind.group().equals(group)) {
            found.put(kind.kind(), store);
          }
        });
    return found;
  }

  /**
   * The discovery entries of the kinds the Scheme registers, by group version.
   *
   * @return the entries
   */
  public Map<GroupVersion, List<ResourceInfo>> typedDiscovery() {
    return Collections.unmodifiableMap(typedDiscovery);
  }

  /**
   * The discovery entries of the resources held without classes and of those answered by handlers
   * of their own, by group version.
   *
   * @return the entries
   */
  public Map<GroupVersion, List<ResourceInfo>> unregisteredDiscovery() {
    return Collections.unmodifiableMap(unregisteredDiscovery);
  }
}
