package dev.machinery.cluster.controller.namespace;

import dev.machinery.api.core.v1.Namespace;
import dev.machinery.api.core.v1.NamespaceSpec;
import dev.machinery.api.core.v1.NamespaceStatus;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.controller.garbagecollector.ServerResources;
import dev.machinery.controller.clock.Clock;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.NoMatchException;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Deletes everything in a namespace being deleted, then finalizes it (Kubernetes' {@code
 * namespacedResourcesDeleter}): the namespace is marked {@code Terminating}; each namespaced
 * resource discovery lists with the {@code delete} verb is emptied with {@code deletecollection}
 * (or a list and a delete of each object where the resource does not offer it), dependents in the
 * background; what is left is counted into the status conditions; while content remains, {@link
 * #delete} says how long to wait (the longest grace period of the pods still running, or 15 seconds
 * when finalizers hold objects); when nothing is left, the {@code kubernetes} finalizer is removed
 * through {@code namespaces/<name>/finalize}, after which the server removes the namespace.
 *
 * <p>Thread-safe: workers call it for different namespaces at once.
 */
final class NamespacedResourcesDeleter {
  /** The finalizer this controller owns in a namespace's {@code spec.finalizers}. */
  static final String FINALIZER = "kubernetes";

  /** How long to wait for content that finalizers hold, as kube's estimate. */
  static final long FINALIZER_ESTIMATE_SECONDS = 15;

  private static final GroupVersionResource PODS = GroupVersionResource.of("", "v1", "pods");

  /** Content remains in the namespace; try again after the estimate. */
  static final class ResourcesRemaining extends Exception {
    private static final long serialVersionUID = 1L;
    private final long estimate;

    ResourcesRemaining(long estimate) {
      super(
          "some content remains in the namespace, estimate "
              + estimate
              + " seconds before it is removed",
          null,
          false,
          false);
      this.estimate = estimate;
    }

    long estimate() {
      return estimate;
    }
  }

  private final Client client;
  private final Clock clock;
  private final Supplier<List<ServerResources.Resource>> discovery;
  private final Set<String> notSupported = ConcurrentHashMap.newKeySet();

  NamespacedResourcesDeleter(
      Client client, Clock clock, Supplier<List<ServerResources.Resource>> discovery) {
    this.client = Objects.requireNonNull(client, "client");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.discovery = Objects.requireNonNull(discovery, "discovery");
  }

  private ResourceClient<Namespace> namespaces() {
    return client.resources(Namespace.class);
  }

  /**
   * Deletes the content of a namespace being deleted and finalizes it; nothing to do when it is
   * gone or not being deleted.
   *
   * @param name the namespace
   * @throws ResourcesRemaining when content remains: try again after its estimate
   * @throws Exception when a request failed
   */
  void delete(String name) throws Exception {
    Namespace namespace;
    try {
      namespace = namespaces().get(name);
    } catch (Exception e) {
      if (ApiErrors.isNotFound(e)) {
        return;
      }
      throw e;
    }
    if (namespace.getMetadata().getDeletionTimestamp() == null) {
      return;
    }
    try {
      namespace = markTerminating(namespace);
    } catch (Exception e) {
      if (ApiErrors.isNotFound(e)) {
        return;
      }
      throw e;
    }
    if (namespace.getMetadata().getDeletionTimestamp() == null || finalized(namespace)) {
      return;
    }
    long estimate = deleteAllContent(namespace);
    if (estimate > 0) {
      throw new ResourcesRemaining(estimate);
    }
    try {
      finalizeNamespace(namespace);
    } catch (Exception e) {
      if (!ApiErrors.isNotFound(e)) {
        throw e;
      }
    }
  }

  private static boolean finalized(Namespace namespace) {
    return namespace.getSpec() == null
        || namespace.getSpec().getFinalizers() == null
        || namespace.getSpec().getFinalizers().isEmpty();
  }

  /** Sets the phase {@code Terminating} unless it is, retried on conflicts. */
  private Namespace markTerminating(Namespace namespace) throws Exception {
    for (int attempt = 0; ; attempt++) {
      NamespaceStatus status = namespace.getStatus();
      if (status != null && "Terminating".equals(status.getPhase())) {
        return namespace;
      }
      if (status == null) {
        status = new NamespaceStatus();
        namespace.setStatus(status);
      }
      status.setPhase("Terminating");
      try {
        return namespaces().updateStatus(namespace, new UpdateOptions());
      } catch (Exception e) {
        if (!ApiErrors.isConflict(e) || attempt >= 16) {
          throw e;
        }
        namespace = reread(namespace);
      }
    }
  }

  private Namespace reread(Namespace previous) {
    Namespace latest = namespaces().get(previous.getMetadata().getName());
    if (!Objects.equals(previous.getMetadata().getUid(), latest.getMetadata().getUid())) {
      throw new IllegalStateException("namespace uid has changed across retries");
    }
    return latest;
  }

  /** Removes this controller's finalizer through {@code finalize}, retried on conflicts. */
  private void finalizeNamespace(Namespace namespace) throws Exception {
    for (int attempt = 0; ; attempt++) {
      Set<String> remaining = new TreeSet<>();
      if (namespace.getSpec() != null && namespace.getSpec().getFinalizers() != null) {
        remaining.addAll(namespace.getSpec().getFinalizers());
      }
      remaining.remove(FINALIZER);
      NamespaceSpec spec = namespace.getSpec() == null ? new NamespaceSpec() : namespace.getSpec();
      spec.setFinalizers(new ArrayList<>(remaining));
      namespace.setSpec(spec);
      try {
        namespaces()
            .updateSubresource(
                namespace.getMetadata().getName(),
                "finalize",
                namespace,
                Namespace.class,
                new UpdateOptions());
        return;
      } catch (Exception e) {
        if (!ApiErrors.isConflict(e) || attempt >= 16) {
          throw e;
        }
        namespace = reread(namespace);
      }
    }
  }

  /**
   * Deletes every resource's content and writes the conditions; returns how many seconds to wait
   * for what remains (zero when nothing does).
   */
  long deleteAllContent(Namespace namespace) throws Exception {
    String name = namespace.getMetadata().getName();
    Instant deletedAt = namespace.getMetadata().getDeletionTimestamp();
    List<String> errors = new ArrayList<>();
    ConditionUpdater conditions = new ConditionUpdater(clock.now());
    List<ServerResources.Resource> resources = List.of();
    try {
      resources = discovery.get();
    } catch (RuntimeException e) {
      errors.add(String.valueOf(e.getMessage()));
      conditions.discoveryFailed(String.valueOf(e.getMessage()));
    }
    long estimate = 0;
    Map<GroupVersionResource, Integer> remainingByResource =
        new TreeMap<>(java.util.Comparator.comparing(GroupVersionResource::toString));
    Map<String, Integer> remainingByFinalizer = new TreeMap<>();
    for (ServerResources.Resource resource : resources) {
      if (!resource.namespaced() || !resource.supports("delete")) {
        continue;
      }
      GroupVersionResource gvr = resource.resource();
      long resourceEstimate = 0;
      try {
        resourceEstimate = gvr.equals(PODS) ? estimateForPods(name, deletedAt) : 0;
        if (!deleteCollection(resource, name)) {
          deleteEachItem(resource, name);
        }
        List<Unstructured> left = list(resource, name);
        if (left == null) {
          // Not listable: nothing to verify, the estimate stands.
          estimate = Math.max(estimate, resourceEstimate);
          continue;
        }
        if (left.isEmpty()) {
          // Done: no wait for this resource, whatever the grace periods were.
          continue;
        }
        Map<String, Integer> finalizers = new TreeMap<>();
        for (Unstructured item : left) {
          if (item.getFinalizers() != null) {
            for (String finalizer : item.getFinalizers()) {
              finalizers.merge(finalizer, 1, Integer::sum);
            }
          }
        }
        remainingByResource.put(gvr, left.size());
        finalizers.forEach((f, n) -> remainingByFinalizer.merge(f, n, Integer::sum));
        if (resourceEstimate == 0 && !finalizers.isEmpty()) {
          resourceEstimate = FINALIZER_ESTIMATE_SECONDS;
        }
        estimate = Math.max(estimate, resourceEstimate);
        if (resourceEstimate == 0) {
          throw new IllegalStateException(
              "unexpected items still remain in namespace: " + name + " for gvr: " + gvr);
        }
      } catch (Exception e) {
        estimate = Math.max(estimate, resourceEstimate);
        errors.add(String.valueOf(e.getMessage()));
        conditions.deleteContentFailed(String.valueOf(e.getMessage()));
      }
    }
    conditions.contentTotals(remainingByResource, remainingByFinalizer);
    NamespaceStatus status =
        namespace.getStatus() == null ? new NamespaceStatus() : namespace.getStatus();
    namespace.setStatus(status);
    if (conditions.update(status)) {
      try {
        namespaces().updateStatus(namespace, new UpdateOptions());
      } catch (Exception e) {
        if (!ApiErrors.isNotFound(e) && !ApiErrors.isConflict(e)) {
          errors.add(
              "couldn't update status condition for namespace " + name + ": " + e.getMessage());
        }
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException(
          errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    }
    return estimate;
  }

  private ResourceClient<Unstructured> resources(ServerResources.Resource resource, String ns) {
    return client.resources(resource.resource()).inNamespace(ns);
  }

  /**
   * The client's REST mapper does not know a resource discovery listed (defined moments ago): an
   * error to retry, never taken for the resource not offering the verb, which the mapper's own
   * exception (read as "not found") would otherwise be.
   */
  private static IllegalStateException unmapped(
      ServerResources.Resource resource, NoMatchException e) {
    return new IllegalStateException(
        "the client cannot map " + resource.resource() + " yet: " + e.getMessage(), e);
  }

  /** Deletes the collection; false when the resource does not offer {@code deletecollection}. */
  private boolean deleteCollection(ServerResources.Resource resource, String ns) {
    String key = "deletecollection " + resource.resource();
    if (!resource.supports("deletecollection") || notSupported.contains(key)) {
      return false;
    }
    DeleteOptions options = new DeleteOptions();
    options.setPropagationPolicy("Background");
    try {
      resources(resource, ns).deleteCollection(options, new ListOptions());
      return true;
    } catch (NoMatchException e) {
      throw unmapped(resource, e);
    } catch (RuntimeException e) {
      if (ApiErrors.isMethodNotSupported(e) || ApiErrors.isNotFound(e)) {
        notSupported.add(key);
        return false;
      }
      throw e;
    }
  }

  /** Lists the resource's objects in the namespace; null when it cannot be listed. */
  private List<Unstructured> list(ServerResources.Resource resource, String ns) {
    String key = "list " + resource.resource();
    if (!resource.supports("list") || notSupported.contains(key)) {
      return null;
    }
    try {
      return resources(resource, ns).listAll(new ListOptions());
    } catch (NoMatchException e) {
      throw unmapped(resource, e);
    } catch (RuntimeException e) {
      if (ApiErrors.isMethodNotSupported(e) || ApiErrors.isNotFound(e)) {
        notSupported.add(key);
        return null;
      }
      throw e;
    }
  }

  private void deleteEachItem(ServerResources.Resource resource, String ns) {
    List<Unstructured> items = list(resource, ns);
    if (items == null) {
      return;
    }
    DeleteOptions options = new DeleteOptions();
    options.setPropagationPolicy("Background");
    for (Unstructured item : items) {
      try {
        resources(resource, ns).delete(item.getName(), options);
      } catch (NoMatchException e) {
        throw unmapped(resource, e);
      } catch (RuntimeException e) {
        if (!ApiErrors.isNotFound(e) && !ApiErrors.isMethodNotSupported(e)) {
          throw e;
        }
      }
    }
  }

  /**
   * The longest grace period of the namespace's pods that have not finished, less the time since
   * the namespace's deletion; zero at least.
   */
  private long estimateForPods(String ns, Instant deletedAt) {
    long estimate = 0;
    for (Unstructured pod : client.resources(PODS).inNamespace(ns).listAll(new ListOptions())) {
      String phase = pod.nestedString("status", "phase").orElse("");
      if (phase.equals("Succeeded") || phase.equals("Failed")) {
        continue;
      }
      long grace = pod.nestedLong("spec", "terminationGracePeriodSeconds").orElse(0L);
      estimate = Math.max(estimate, grace);
    }
    if (deletedAt == null) {
      return estimate;
    }
    long elapsed = Duration.between(deletedAt, clock.now()).getSeconds();
    return Math.max(0, estimate - Math.max(0, elapsed));
  }
}
