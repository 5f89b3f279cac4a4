package dev.machinery.examples.webpage;

import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.client.Client;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.unversioned.meta.v1.Condition;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reconciles one WebPage: its ConfigMap {@code <name>-content} holds the spec's content under
 * {@value #CONTENT_KEY} and is owned by the page (an owner reference with {@code controller: true},
 * so the garbage collector deletes it with the page); the page's status says which generation was
 * published and carries a {@code Ready} condition.
 *
 * <p>Reads come from the informers' caches; writes are plain creates and updates (no server-side
 * apply), an update carrying the resource version the cache held, so a write over a change the
 * cache has not seen yet fails with a conflict and the request is retried through the rate limiter.
 * Objects read from the caches are never changed. A ConfigMap of that name controlled by another
 * object is left alone: the page's {@code Ready} condition turns {@code False} with reason {@value
 * #REASON_NOT_OWNED} and a warning event says why.
 *
 * <p>Thread-safe: it holds no state of its own, and the listers, the client and the recorder are
 * thread-safe, so the controller's workers may share one instance (a controller never hands the
 * same request to two workers at once).
 */
public final class WebPageReconciler implements Reconciler {
  /** The ConfigMap key that holds the content. */
  public static final String CONTENT_KEY = "index.html";

  /** The condition type the status carries. */
  public static final String CONDITION_READY = "Ready";

  /** The reason of a {@code Ready} condition that is {@code True}. */
  public static final String REASON_PUBLISHED = "ContentPublished";

  /** The reason of a {@code Ready} condition that is {@code False}: the name is taken. */
  public static final String REASON_NOT_OWNED = "ConfigMapNotOwned";

  /** The label every ConfigMap of a page carries, with the page's name. */
  public static final String PAGE_LABEL = "web.example.dev/page";

  private final Client client;
  private final Lister<WebPage> pages;
  private final Lister<ConfigMap> configMaps;
  private final EventRecorder events;

  /**
   * Creates a reconciler.
   *
   * @param client the client it writes through
   * @param pages the cache of WebPages
   * @param configMaps the cache of ConfigMaps
   * @param events where it records what it did
   */
  public WebPageReconciler(
      Client client, Lister<WebPage> pages, Lister<ConfigMap> configMaps, EventRecorder events) {
    this.client = Objects.requireNonNull(client, "client");
    this.pages = Objects.requireNonNull(pages, "pages");
    this.configMaps = Objects.requireNonNull(configMaps, "configMaps");
    this.events = Objects.requireNonNull(events, "events");
  }

  /**
   * The name of a page's ConfigMap.
   *
   * @param pageName the page's name
   * @return {@code <pageName>-content}
   */
  public static String configMapName(String pageName) {
    return pageName + "-content";
  }

  @Override
  public Result reconcile(Request request) {
    Optional<WebPage> found = pages.namespace(request.namespace()).get(request.name());
    if (found.isEmpty()) {
      return Result.done(); // deleted: the garbage collector deletes the ConfigMap it owned
    }
    WebPage page = found.get();
    if (page.getMetadata().getDeletionTimestamp() != null) {
      return Result.done();
    }
    String namespace = page.getMetadata().getNamespace();
    String mapName = configMapName(page.getMetadata().getName());
    Optional<ConfigMap> current = configMaps.namespace(namespace).get(mapName);
    if (current.isPresent() && !controlledBy(current.get(), page)) {
      events.eventf(
          page,
          null,
          Event.TYPE_WARNING,
          REASON_NOT_OWNED,
          "Reconcile",
          "ConfigMap %s exists and is not controlled by this WebPage",
          mapName);
      writeStatus(
          page,
          Condition.FALSE,
          REASON_NOT_OWNED,
          "ConfigMap " + mapName + " exists and is not controlled by this WebPage");
      return Result.done(); // a change to that ConfigMap brings the page back only if it owns it
    }
    ConfigMap desired = desired(page, mapName);
    if (current.isEmpty()) {
      client.resources(ConfigMap.class).inNamespace(namespace).create(desired);
      events.eventf(
          page,
          null,
          Event.TYPE_NORMAL,
          "Created",
          "CreateConfigMap",
          "created ConfigMap %s",
          mapName);
    } else if (!inSync(current.get(), desired)) {
      desired.getMetadata().setResourceVersion(current.get().getMetadata().getResourceVersion());
      client.resources(ConfigMap.class).inNamespace(namespace).update(desired);
      events.eventf(
          page,
          null,
          Event.TYPE_NORMAL,
          "Updated",
          "UpdateConfigMap",
          "updated ConfigMap %s",
          mapName);
    }
    writeStatus(
        page, Condition.TRUE, REASON_PUBLISHED, "ConfigMap " + mapName + " holds the content");
    return Result.done();
  }

  private static boolean controlledBy(ConfigMap map, WebPage page) {
    List<OwnerReference> owners = map.getMetadata().getOwnerReferences();
    if (owners == null) {
      return false;
    }
    for (OwnerReference owner : owners) {
      if (Boolean.TRUE.equals(owner.getController())) {
        return page.getMetadata().getUid().equals(owner.getUid());
      }
    }
    return false;
  }

  private static ConfigMap desired(WebPage page, String mapName) {
    OwnerReference owner = new OwnerReference();
    owner.setApiVersion(WebPage.V1.toString());
    owner.setKind(WebPage.KIND);
    owner.setName(page.getMetadata().getName());
    owner.setUid(page.getMetadata().getUid());
    owner.setController(true);
    owner.setBlockOwnerDeletion(true);
    ObjectMeta meta = new ObjectMeta();
    meta.setName(mapName);
    meta.setNamespace(page.getMetadata().getNamespace());
    meta.setLabels(Map.of(PAGE_LABEL, page.getMetadata().getName()));
    meta.setOwnerReferences(List.of(owner));
    ConfigMap map = new ConfigMap();
    map.setApiVersion("v1");
    map.setKind("ConfigMap");
    map.setMetadata(meta);
    String content = page.getSpec() == null ? null : page.getSpec().content();
    map.setData(Map.of(CONTENT_KEY, content == null ? "" : content));
    return map;
  }

  private static boolean inSync(ConfigMap current, ConfigMap desired) {
    return Objects.equals(current.getData(), desired.getData())
        && Objects.equals(current.getMetadata().getLabels(), desired.getMetadata().getLabels())
        && Objects.equals(
            current.getMetadata().getOwnerReferences(), desired.getMetadata().getOwnerReferences());
  }

  /** Writes the status when it differs; the cached page is copied, never changed. */
  private void writeStatus(WebPage page, String ready, String reason, String message) {
    long generation = page.getMetadata().getGeneration();
    WebPageStatus status = page.getStatus();
    Condition previous = null;
    List<Condition> conditions = new ArrayList<>();
    if (status != null && status.conditions() != null) {
      for (Condition condition : status.conditions()) {
        if (CONDITION_READY.equals(condition.getType())) {
          previous = condition;
        } else {
          conditions.add(condition);
        }
      }
    }
    boolean same =
        previous != null
            && ready.equals(previous.getStatus())
            && reason.equals(previous.getReason())
            && message.equals(previous.getMessage())
            && previous.getObservedGeneration() == generation
            && status.observedGeneration() != null
            && status.observedGeneration() == generation;
    if (same) {
      return;
    }
    Condition condition = new Condition(CONDITION_READY, ready, reason, message);
    condition.setObservedGeneration(generation);
    condition.setLastTransitionTime(
        previous != null && ready.equals(previous.getStatus())
            ? previous.getLastTransitionTime()
            : Time.now());
    conditions.add(condition);
    WebPage update = new WebPage();
    update.setApiVersion(WebPage.V1.toString());
    update.setKind(WebPage.KIND);
    update.setMetadata(page.getMetadata()); // read only, by the client's encoder
    update.setSpec(page.getSpec());
    update.setStatus(new WebPageStatus(generation, List.copyOf(conditions)));
    client
        .resources(WebPage.class)
        .inNamespace(page.getMetadata().getNamespace())
        .updateStatus(update, new UpdateOptions());
  }
}
