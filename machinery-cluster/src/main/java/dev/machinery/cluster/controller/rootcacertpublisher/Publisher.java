package dev.machinery.cluster.controller.rootcacertpublisher;

import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.api.core.v1.Namespace;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Keeps the ConfigMap {@value #CONFIG_MAP} in every namespace, holding the cluster's root CA under
 * {@value #CA_KEY} and kube's description under {@value #DESCRIPTION_ANNOTATION}, as Go's {@code
 * rootcacertpublisher.Publisher}: made when missing (a namespace added, the ConfigMap deleted), put
 * back when its data or annotation was changed, left alone otherwise; a create refused because the
 * namespace is gone or terminating is not retried. It writes as {@value #IDENTITY}.
 *
 * <p>Thread-safe: the controller's workers may sync different namespaces at once.
 */
public final class Publisher {
  /** kube-controller-manager's name of this controller. */
  public static final String NAME = "root-ca-certificate-publisher-controller";

  /** The older name {@code --controllers} accepts. */
  public static final String ALIAS = "root-ca-cert-publisher";

  /** The service account the controller writes as. */
  public static final String IDENTITY = "root-ca-cert-publisher";

  /** The ConfigMap's name. */
  public static final String CONFIG_MAP = "kube-root-ca.crt";

  /** The key of the CA bundle in the ConfigMap's data. */
  public static final String CA_KEY = "ca.crt";

  /** The annotation describing the ConfigMap. */
  public static final String DESCRIPTION_ANNOTATION = "kubernetes.io/description";

  /** The annotation's value, kube's words. */
  public static final String DESCRIPTION =
      "Contains a CA bundle that can be used to verify the kube-apiserver when using internal"
          + " endpoints such as the internal service IP or kubernetes.default.svc. No other usage"
          + " is guaranteed across distributions of Kubernetes clusters.";

  private final Lister<ConfigMap> configMaps;
  private final Client client;
  private final String rootCa;

  private Publisher(Lister<ConfigMap> configMaps, Client client, String rootCa) {
    this.configMaps = configMaps;
    this.client = client;
    this.rootCa = rootCa;
  }

  /**
   * Sets the controller up in a context: informers of namespaces and ConfigMaps, a controller keyed
   * by namespace, publishing {@link ControllerContext#rootCaCertificate()}.
   *
   * @param context the controller context
   * @throws InterruptedException when interrupted while a late controller waits for its caches
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    var namespaceInformer = context.informer(Namespace.class);
    var configMapInformer = context.informer(ConfigMap.class);
    Publisher publisher =
        new Publisher(
            configMapInformer.lister(), context.client(IDENTITY), context.rootCaCertificate());
    context.add(
        Controller.builder(NAME, publisher::reconcile)
            .watches(namespaceInformer, namespaceEvents())
            .watches(configMapInformer, configMapEvents())
            .workers(1)
            .build());
  }

  /** Syncs one namespace (the request's name). */
  Result reconcile(Request request) {
    String namespace = request.name();
    Optional<ConfigMap> current = configMaps.namespace(namespace).get(CONFIG_MAP);
    Map<String, String> data = Map.of(CA_KEY, rootCa);
    if (current.isEmpty()) {
      ConfigMap made = new ConfigMap();
      ObjectMeta meta = new ObjectMeta();
      meta.setName(CONFIG_MAP);
      meta.setNamespace(namespace);
      meta.setAnnotations(Map.of(DESCRIPTION_ANNOTATION, DESCRIPTION));
      made.setMetadata(meta);
      made.setData(data);
      try {
        client.resources(ConfigMap.class).inNamespace(namespace).create(made);
      } catch (RuntimeException e) {
        if (ApiErrors.isNotFound(e) || namespaceTerminating(e)) {
          return Result.done();
        }
        throw e;
      }
      return Result.done();
    }
    ConfigMap found = current.get();
    Map<String, String> annotations =
        found.getMetadata().getAnnotations() == null
            ? Map.of()
            : found.getMetadata().getAnnotations();
    String description = annotations.get(DESCRIPTION_ANNOTATION);
    if (Objects.equals(found.getData(), data) && description != null && !description.isEmpty()) {
      return Result.done();
    }
    // A copy: the cache's object is never changed.
    ConfigMap copy = new ConfigMap();
    ObjectMeta meta = copyMeta(found.getMetadata());
    Map<String, String> newAnnotations = new LinkedHashMap<>(annotations);
    newAnnotations.put(DESCRIPTION_ANNOTATION, DESCRIPTION);
    meta.setAnnotations(newAnnotations);
    copy.setMetadata(meta);
    copy.setData(data);
    copy.setBinaryData(found.getBinaryData());
    copy.setImmutable(found.getImmutable());
    client.resources(ConfigMap.class).inNamespace(namespace).update(copy);
    return Result.done();
  }

  private static ObjectMeta copyMeta(ObjectMeta from) {
    ObjectMeta meta = new ObjectMeta();
    meta.setName(from.getName());
    meta.setNamespace(from.getNamespace());
    meta.setUid(from.getUid());
    meta.setCreationTimestamp(from.getCreationTimestamp());
    meta.setResourceVersion(from.getResourceVersion());
    meta.setLabels(from.getLabels());
    meta.setOwnerReferences(from.getOwnerReferences());
    meta.setFinalizers(from.getFinalizers());
    return meta;
  }

  static boolean namespaceTerminating(RuntimeException e) {
    if (!ApiErrors.isForbidden(e)) {
      return false;
    }
    var status = ApiErrors.statusFor(e);
    return status.getDetails() != null
        && status.getDetails().getCauses() != null
        && status.getDetails().getCauses().stream()
            .anyMatch(c -> "NamespaceTerminating".equals(c.getReason()));
  }

  private static EventHandler<Namespace> namespaceEvents() {
    return new EventHandler<>() {
      @Override
      public void create(Namespace object, RateLimitingQueue<Request> queue) {
        queue.add(new Request("", object.getMetadata().getName()));
      }

      @Override
      public void update(
          Namespace oldObject, Namespace newObject, RateLimitingQueue<Request> queue) {
        queue.add(new Request("", newObject.getMetadata().getName()));
      }

      @Override
      public void delete(
          Namespace object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {}
    };
  }

  private static EventHandler<ConfigMap> configMapEvents() {
    return new EventHandler<>() {
      @Override
      public void create(ConfigMap object, RateLimitingQueue<Request> queue) {}

      @Override
      public void update(
          ConfigMap oldObject, ConfigMap newObject, RateLimitingQueue<Request> queue) {
        enqueue(newObject, queue);
      }

      @Override
      public void delete(
          ConfigMap object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        enqueue(object, queue);
      }

      private void enqueue(ConfigMap map, RateLimitingQueue<Request> queue) {
        ObjectMeta meta = map.getMetadata();
        if (meta != null && CONFIG_MAP.equals(meta.getName())) {
          queue.add(new Request("", meta.getNamespace()));
        }
      }
    };
  }
}
