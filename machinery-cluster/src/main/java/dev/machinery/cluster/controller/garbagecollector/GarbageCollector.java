package dev.machinery.cluster.controller.garbagecollector;

import dev.machinery.client.Client;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.restmapper.NoMatchException;
import dev.machinery.restmapper.RESTMapping;
import dev.machinery.restmapper.Scope;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The garbage collector's workers (Go's {@code GarbageCollector}): {@link #attemptToDelete} deletes
 * an object whose owners are all gone, keeps an owner deleted in the foreground until its blocking
 * dependents are gone, and removes references to owners that are gone or waiting; {@link
 * #attemptToOrphan} removes an owner from its dependents' references and then its {@code orphan}
 * finalizer. Every read and write goes through the API with the collector's client.
 *
 * <p>Thread-safe: any number of workers call it at once (each on another node).
 */
final class GarbageCollector {
  private static final System.Logger LOG = System.getLogger(GarbageCollector.class.getName());

  /** What to do with a queue item after a try. */
  enum Action {
    /** Done: forget the item's failures. */
    FORGET,
    /** Try again later, through the rate limiter. */
    REQUEUE
  }

  /** The server says the object does not exist: a virtual delete event was applied. */
  private static final class VirtualDeleteApplied extends Exception {
    private static final long serialVersionUID = 1L;

    VirtualDeleteApplied() {
      super("enqueued virtual delete event", null, false, false);
    }
  }

  /** A cluster-scoped object names a namespaced owner: retrying would not help. */
  private static final class NamespacedOwnerOfClusterScopedObject extends Exception {
    private static final long serialVersionUID = 1L;

    NamespacedOwnerOfClusterScopedObject() {
      super("cluster-scoped objects cannot refer to namespaced owners", null, false, false);
    }
  }

  /** The client could not map a kind or resource: retried, never taken for a missing object. */
  static final class RestMappingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RestMappingException(NoMatchException cause) {
      // Without the cause: ApiErrors reads a cause's "not found" as the failure's own.
      super(cause.getMessage());
    }
  }

  /**
   * One resource's requests, where the client's REST mapper failing to map it (a kind defined
   * moments ago) is a {@link RestMappingException} rather than the mapper's own exception, which
   * reads as "not found" and would make an existing owner look absent.
   */
  private static final class Resources {
    private final ResourceClient<Unstructured> client;

    Resources(ResourceClient<Unstructured> client) {
      this.client = client;
    }

    Unstructured get(String name) {
      try {
        return client.get(name);
      } catch (NoMatchException e) {
        throw new RestMappingException(e);
      }
    }

    void delete(String name, DeleteOptions options) {
      try {
        client.delete(name, options);
      } catch (NoMatchException e) {
        throw new RestMappingException(e);
      }
    }

    void patch(String name, PatchType type, String body) {
      try {
        client.patch(name, type, body, new PatchOptions());
      } catch (NoMatchException e) {
        throw new RestMappingException(e);
      }
    }
  }

  private final Client client;
  private final GraphBuilder graph;
  private final Consumer<Node> attemptToDeleteQueue;
  private volatile Map<GroupVersionKind, RESTMapping> discovered = Map.of();

  GarbageCollector(Client client, GraphBuilder graph, Consumer<Node> attemptToDeleteQueue) {
    this.client = Objects.requireNonNull(client, "client");
    this.graph = Objects.requireNonNull(graph, "graph");
    this.attemptToDeleteQueue = Objects.requireNonNull(attemptToDeleteQueue, "queue");
  }

  /**
   * Processes one item of the attempt-to-delete queue.
   *
   * @param uid the node's uid
   * @return whether to forget or requeue it
   * @throws Exception when a request failed (the item is requeued through the rate limiter)
   */
  Action attemptToDelete(String uid) throws Exception {
    Optional<Node> found = graph.node(uid);
    if (found.isEmpty()) {
      // Deleted from the graph since it was queued.
      return Action.FORGET;
    }
    Node node = found.get();
    try {
      attemptToDeleteItem(node);
    } catch (VirtualDeleteApplied | NamespacedOwnerOfClusterScopedObject e) {
      return Action.FORGET;
    }
    if (!node.isObserved()) {
      // Not yet seen by an informer: look again, or a virtual node for an object added and
      // removed while a watch was re-established could stay in the graph for ever.
      return Action.REQUEUE;
    }
    return Action.FORGET;
  }

  /**
   * Processes one item of the attempt-to-orphan queue: removes the owner from its dependents' owner
   * references, then removes its {@code orphan} finalizer.
   *
   * @param uid the owner's uid
   * @return whether to forget or requeue it
   * @throws Exception when a request failed
   */
  Action attemptToOrphan(String uid) throws Exception {
    Optional<Node> found = graph.node(uid);
    if (found.isEmpty()) {
      return Action.FORGET;
    }
    Node owner = found.get();
    List<String> failures = new ArrayList<>();
    for (Node dependent : owner.dependents()) {
      try {
        removeOwnerReferences(dependent, Set.of(owner.identity().uid()));
      } catch (Exception e) {
        if (!ApiErrors.isNotFound(e)) {
          failures.add("orphaning " + dependent.identity() + " failed, " + e.getMessage());
        }
      }
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException(
          "failed to orphan dependents of owner "
              + owner.identity()
              + ", got errors: "
              + String.join(", ", failures));
    }
    removeFinalizer(owner, GraphBuilder.FINALIZER_ORPHAN);
    return Action.FORGET;
  }

  private void attemptToDeleteItem(Node item) throws Exception {
    // Being deleted is a one-way trip: wait for the deletion, then the dependents are processed.
    if (item.isBeingDeleted() && !item.isDeletingDependents()) {
      return;
    }
    Identity identity = item.identity();
    Unstructured latest;
    try {
      latest =
          resourceClient(identity.apiVersion(), identity.kind(), identity.namespace())
              .get(identity.name());
    } catch (Exception e) {
      if (ApiErrors.isNotFound(e)) {
        graph.virtualDelete(identity);
        throw new VirtualDeleteApplied();
      }
      throw e;
    }
    if (!identity.uid().equals(latest.getUid())) {
      graph.virtualDelete(identity);
      throw new VirtualDeleteApplied();
    }
    if (item.isDeletingDependents()) {
      processDeletingDependentsItem(item);
      return;
    }
    List<OwnerRef> owners = OwnerRef.of(latest);
    if (owners.isEmpty()) {
      return;
    }
    List<OwnerRef> solid = new ArrayList<>();
    List<OwnerRef> dangling = new ArrayList<>();
    List<OwnerRef> waiting = new ArrayList<>();
    for (OwnerRef reference : owners) {
      Optional<Unstructured> owner = liveOwner(reference, item);
      if (owner.isEmpty()) {
        dangling.add(reference);
      } else if (owner.get().getDeletionTimestamp() != null
          && GraphBuilder.hasFinalizer(owner.get(), GraphBuilder.FINALIZER_DELETE_DEPENDENTS)) {
        waiting.add(reference);
      } else {
        solid.add(reference);
      }
    }
    if (!solid.isEmpty()) {
      if (dangling.isEmpty() && waiting.isEmpty()) {
        return;
      }
      // References to owners waiting for their dependents go too, or those owners would wait
      // for ever.
      Set<String> gone =
          java.util.stream.Stream.concat(dangling.stream(), waiting.stream())
              .map(OwnerRef::uid)
              .collect(Collectors.toSet());
      removeOwnerReferences(item, gone);
      return;
    }
    if (!waiting.isEmpty() && item.dependentsLength() != 0) {
      for (Node dependent : item.dependents()) {
        if (dependent.isDeletingDependents()) {
          // A possible cycle: make this item's references non-blocking before it is deleted in
          // the foreground.
          unblockOwnerReferences(item);
          break;
        }
      }
      deleteObject(item, latest, "Foreground");
      return;
    }
    String policy;
    if (GraphBuilder.hasFinalizer(latest, GraphBuilder.FINALIZER_ORPHAN)) {
      policy = "Orphan";
    } else if (GraphBuilder.hasFinalizer(latest, GraphBuilder.FINALIZER_DELETE_DEPENDENTS)) {
      policy = "Foreground";
    } else {
      policy = "Background";
    }
    LOG.log(System.Logger.Level.DEBUG, "deleting {0} with propagation {1}", identity, policy);
    deleteObject(item, latest, policy);
  }

  private void processDeletingDependentsItem(Node item) throws Exception {
    List<Node> blocking = item.blockingDependents();
    if (blocking.isEmpty()) {
      removeFinalizer(item, GraphBuilder.FINALIZER_DELETE_DEPENDENTS);
      return;
    }
    for (Node dependent : blocking) {
      if (!dependent.isDeletingDependents()) {
        attemptToDeleteQueue.accept(dependent);
      }
    }
  }

  /**
   * The owner a reference names, read from the server, or empty when it is dangling: not found, or
   * found with another uid (remembered in the absent owners' cache).
   */
  private Optional<Unstructured> liveOwner(OwnerRef reference, Node item) throws Exception {
    ReferenceCache absent = graph.absentOwnerCache();
    Identity clusterKey = Identity.of(reference.coordinates(), "");
    if (absent.has(clusterKey)) {
      return Optional.empty();
    }
    Identity namespacedKey = clusterKey.inNamespace(item.identity().namespace());
    if (absent.has(namespacedKey)) {
      return Optional.empty();
    }
    RESTMapping mapping = mapping(reference.apiVersion(), reference.kind());
    boolean namespaced = mapping.scope() == Scope.NAMESPACE;
    Identity key = namespaced ? namespacedKey : clusterKey;
    if (item.identity().namespace().isEmpty() && namespaced) {
      LOG.log(
          System.Logger.Level.INFO,
          "{0} is cluster-scoped, but refers to a namespaced owner {1}",
          item.identity(),
          reference);
      throw new NamespacedOwnerOfClusterScopedObject();
    }
    Unstructured owner;
    try {
      ResourceClient<Unstructured> resources = client.resources(mapping.resource());
      if (namespaced) {
        resources = resources.inNamespace(item.identity().namespace());
      }
      owner = resources.get(reference.name());
    } catch (Exception e) {
      if (ApiErrors.isNotFound(e)) {
        absent.add(key);
        return Optional.empty();
      }
      throw e;
    }
    if (!reference.uid().equals(owner.getUid())) {
      absent.add(key);
      return Optional.empty();
    }
    return Optional.of(owner);
  }

  /**
   * Takes the resources of the latest discovery as the first answer of {@link #mapping}, as kube's
   * collector resets its REST mapper when discovery changes: a kind defined since the client's
   * mapper was built is mapped at once.
   *
   * @param resources the preferred resources
   */
  void discovered(List<ServerResources.Resource> resources) {
    Map<GroupVersionKind, RESTMapping> byKind = new HashMap<>();
    for (ServerResources.Resource resource : resources) {
      byKind.put(
          resource.kind(),
          new RESTMapping(
              resource.resource(),
              resource.kind(),
              resource.namespaced() ? Scope.NAMESPACE : Scope.ROOT));
    }
    discovered = Map.copyOf(byKind);
  }

  private RESTMapping mapping(String apiVersion, String kind) {
    GroupVersionKind gvk = GroupVersionKind.fromApiVersionAndKind(apiVersion, kind);
    RESTMapping known = discovered.get(gvk);
    if (known != null) {
      return known;
    }
    return client.restMapper().restMapping(GroupKind.of(gvk.group(), gvk.kind()), gvk.version());
  }

  private Resources resourceClient(String apiVersion, String kind, String namespace) {
    RESTMapping mapping = mapping(apiVersion, kind);
    ResourceClient<Unstructured> resources = client.resources(mapping.resource());
    if (mapping.scope() == Scope.NAMESPACE) {
      resources = resources.inNamespace(namespace);
    }
    return new Resources(resources);
  }

  /**
   * Deletes an object under preconditions on its uid and resource version; when only the resource
   * version moved and the owner references did not, tries once more without it, so that frequent
   * unrelated updates do not starve the collector.
   */
  private void deleteObject(Node item, Unstructured latest, String policy) throws Exception {
    Identity identity = item.identity();
    Resources resources =
        resourceClient(identity.apiVersion(), identity.kind(), identity.namespace());
    Preconditions preconditions = new Preconditions();
    preconditions.setUid(identity.uid());
    String resourceVersion = latest.getResourceVersion();
    if (resourceVersion != null && !resourceVersion.isEmpty()) {
      preconditions.setResourceVersion(resourceVersion);
    }
    DeleteOptions options = new DeleteOptions();
    options.setPreconditions(preconditions);
    options.setPropagationPolicy(policy);
    try {
      resources.delete(identity.name(), options);
    } catch (Exception e) {
      if (ApiErrors.isNotFound(e)) {
        graph.virtualDelete(identity);
        throw new VirtualDeleteApplied();
      }
      if (!ApiErrors.isConflict(e) || preconditions.getResourceVersion() == null) {
        throw e;
      }
      Unstructured live;
      try {
        live = resources.get(identity.name());
      } catch (Exception again) {
        if (ApiErrors.isNotFound(again)) {
          return;
        }
        throw e;
      }
      if (identity.uid().equals(live.getUid())
          && !Objects.equals(live.getResourceVersion(), resourceVersion)
          && OwnerRef.of(live).equals(OwnerRef.of(latest))) {
        preconditions.setResourceVersion(null);
        try {
          resources.delete(identity.name(), options);
        } catch (Exception retry) {
          if (ApiErrors.isNotFound(retry)) {
            return;
          }
          throw retry;
        }
        return;
      }
      throw e;
    }
  }

  /**
   * Removes the references to some owners from an object: a strategic merge patch deleting them by
   * uid (with the object's uid as a precondition), or, where the server refuses strategic merge
   * (custom resources), a JSON merge patch of the whole list at the object's resource version.
   */
  private void removeOwnerReferences(Node item, Set<String> ownerUids) throws Exception {
    Identity identity = item.identity();
    Resources resources =
        resourceClient(identity.apiVersion(), identity.kind(), identity.namespace());
    String pieces =
        ownerUids.stream()
            .sorted()
            .map(uid -> "{\"$patch\":\"delete\",\"uid\":" + Json.quote(uid) + "}")
            .collect(Collectors.joining(","));
    String strategic =
        "{\"metadata\":{\"ownerReferences\":["
            + pieces
            + "],\"uid\":"
            + Json.quote(identity.uid())
            + "}}";
    try {
      resources.patch(identity.name(), PatchType.STRATEGIC_MERGE, strategic);
      return;
    } catch (Exception e) {
      if (!ApiErrors.isUnsupportedMediaType(e)) {
        throw e;
      }
    }
    Unstructured live = resources.get(identity.name());
    List<String> kept = new ArrayList<>();
    for (OwnerRef ref : OwnerRef.of(live)) {
      if (!ownerUids.contains(ref.uid())) {
        kept.add(ref.toJson());
      }
    }
    resources.patch(
        identity.name(), PatchType.MERGE, ownerReferencesPatch(live.getResourceVersion(), kept));
  }

  /** Makes every blocking owner reference of an object non-blocking. */
  private void unblockOwnerReferences(Node item) throws Exception {
    Identity identity = item.identity();
    Resources resources =
        resourceClient(identity.apiVersion(), identity.kind(), identity.namespace());
    List<String> blocking = new ArrayList<>();
    for (OwnerRef ref : item.owners()) {
      if (ref.blocking()) {
        blocking.add(ref.withBlockOwnerDeletion(false).toJson());
      }
    }
    String strategic =
        "{\"metadata\":{\"ownerReferences\":["
            + String.join(",", blocking)
            + "],\"uid\":"
            + Json.quote(identity.uid())
            + "}}";
    try {
      resources.patch(identity.name(), PatchType.STRATEGIC_MERGE, strategic);
      return;
    } catch (Exception e) {
      if (!ApiErrors.isUnsupportedMediaType(e)) {
        throw e;
      }
    }
    Unstructured live = resources.get(identity.name());
    List<String> all = new ArrayList<>();
    for (OwnerRef ref : item.owners()) {
      all.add(ref.withBlockOwnerDeletion(false).toJson());
    }
    resources.patch(
        identity.name(), PatchType.MERGE, ownerReferencesPatch(live.getResourceVersion(), all));
  }

  static String ownerReferencesPatch(String resourceVersion, List<String> references) {
    return "{\"metadata\":{\"resourceVersion\":"
        + Json.quote(Objects.requireNonNullElse(resourceVersion, ""))
        + ",\"ownerReferences\":["
        + String.join(",", references)
        + "]}}";
  }

  /**
   * Removes a finalizer from an object with a JSON merge patch at its resource version, read again
   * and retried on a conflict (five tries, as client-go's default back-off); nothing to do when the
   * object or the finalizer is gone.
   */
  private void removeFinalizer(Node owner, String finalizer) throws Exception {
    Identity identity = owner.identity();
    Resources resources =
        resourceClient(identity.apiVersion(), identity.kind(), identity.namespace());
    for (int attempt = 1; ; attempt++) {
      Unstructured object;
      try {
        object = resources.get(identity.name());
      } catch (Exception e) {
        if (ApiErrors.isNotFound(e)) {
          return;
        }
        throw e;
      }
      List<String> finalizers = object.getFinalizers() == null ? List.of() : object.getFinalizers();
      if (!finalizers.contains(finalizer)) {
        return;
      }
      List<String> remaining = new ArrayList<>(finalizers);
      remaining.removeIf(finalizer::equals);
      String patch =
          "{\"metadata\":{\"resourceVersion\":"
              + Json.quote(Objects.requireNonNullElse(object.getResourceVersion(), ""))
              + ",\"finalizers\":"
              + Json.strings(remaining)
              + "}}";
      try {
        resources.patch(identity.name(), PatchType.MERGE, patch);
        return;
      } catch (Exception e) {
        if (ApiErrors.isNotFound(e)) {
          return;
        }
        if (!ApiErrors.isConflict(e)) {
          throw e;
        }
        if (attempt == 5) {
          throw new IllegalStateException(
              "updateMaxRetries(5) has reached. The garbage collector will retry later for owner "
                  + identity,
              e);
        }
        Thread.sleep(10L * attempt);
      }
    }
  }
}
