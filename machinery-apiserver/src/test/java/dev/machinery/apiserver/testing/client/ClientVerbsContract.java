package dev.machinery.apiserver.testing.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.client.Client;
import dev.machinery.client.ListPage;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.ResourceExpiredException;
import dev.machinery.client.Watch;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.NoKindMatchException;
import dev.machinery.restmapper.Scope;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.CreateOptions;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusCause;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every verb of the client against a real {@link ApiServer}, over the transport a subclass chooses:
 * reads, pages and selectors, watches with bookmarks, resumption and 410, writes of every kind with
 * dry runs and field validation, apply with conflicts, deletes with preconditions and propagation,
 * the status and scale subresources, and each refusal's typed exception.
 */
public abstract class ClientVerbsContract {
  protected static final GroupVersionResource WIDGETS =
      GroupVersionResource.of("test.machinery.dev", "v1", "widgets");

  protected ApiServer server;
  protected Client client;
  protected final List<String> warnings = new CopyOnWriteArrayList<>();

  /** Starts what the transport needs and builds the client over it. */
  protected abstract Client connect(ApiServer server) throws Exception;

  /** Stops what {@link #connect} started. */
  protected void disconnect() throws Exception {}

  /** Adds what the transport needs to the server (TLS). */
  protected ApiServer.Builder configure(ApiServer.Builder builder) throws Exception {
    return builder;
  }

  /** The client's settings every subclass shares: warnings collected, no rate limit. */
  protected Client.Builder common(Client.Builder builder) {
    return builder
        .scheme(WidgetServer.SCHEME)
        .warningHandler((code, agent, text) -> warnings.add(text))
        .rateLimiter(dev.machinery.client.RateLimiter.unlimited());
  }

  @BeforeEach
  void start() throws Exception {
    server = configure(WidgetServer.builder().rbac().watchCacheSize(4)).build();
    client = connect(server);
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    disconnect();
    server.close();
  }

  protected ResourceClient<Widget> widgets() {
    return client.resources(Widget.class).inNamespace("ns");
  }

  protected static Widget labelled(String name, String tier) {
    Widget w = Widget.of(name, 1, "red");
    w.getMetadata().setLabels(Map.of("tier", tier));
    return w;
  }

  protected static List<String> names(List<Widget> items) {
    return items.stream().map(w -> w.getMetadata().getName()).collect(Collectors.toList());
  }

  // ---------------------------------------------------------------------------------- reads

  @Test
  void createGetAndUpdateATypedObject() {
    Widget created = widgets().create(Widget.of("a", 2, "red"));
    assertEquals("ns", created.getMetadata().getNamespace());
    assertFalse(created.getMetadata().getUid().isEmpty());
    assertEquals(1L, created.getMetadata().getGeneration());

    Widget got = widgets().get("a");
    assertEquals("red", got.getSpec().getColor());
    assertEquals(
        created.getMetadata().getResourceVersion(), got.getMetadata().getResourceVersion());

    got.getSpec().setColor("blue");
    Widget updated = widgets().update(got);
    assertEquals("blue", updated.getSpec().getColor());
    assertEquals(2L, updated.getMetadata().getGeneration());
    assertNotEquals(
        got.getMetadata().getResourceVersion(), updated.getMetadata().getResourceVersion());
  }

  @Test
  void theNamespaceComesFromTheObjectWhenTheClientHasNone() {
    Widget w = Widget.of("b", 1, "red");
    w.getMetadata().setNamespace("other");
    Widget created = client.resources(Widget.class).create(w);
    assertEquals("other", created.getMetadata().getNamespace());
    assertEquals(1, client.resources(Widget.class).list(new ListOptions()).items().size());
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> client.resources(Widget.class).get("b"));
    assertTrue(refused.getMessage().startsWith("namespace: "), refused.getMessage());
  }

  @Test
  void aMissingObjectIsNotFoundAndASecondCreateAlreadyExists() {
    StatusException missing = assertThrows(StatusException.class, () -> widgets().get("nope"));
    assertTrue(ApiErrors.isNotFound(missing));
    assertEquals(404, missing.statusCode());
    assertEquals("widgets.test.machinery.dev \"nope\" not found", missing.getMessage());

    widgets().create(Widget.of("a", 1, "red"));
    StatusException again =
        assertThrows(StatusException.class, () -> widgets().create(Widget.of("a", 1, "red")));
    assertTrue(ApiErrors.isAlreadyExists(again));
    assertEquals(409, again.statusCode());
  }

  @Test
  void anUpdateFromAStaleVersionIsAConflict() {
    Widget created = widgets().create(Widget.of("a", 1, "red"));
    Widget first = widgets().get("a");
    first.getSpec().setColor("blue");
    widgets().update(first);
    created.getSpec().setColor("green");
    StatusException conflict = assertThrows(StatusException.class, () -> widgets().update(created));
    assertTrue(ApiErrors.isConflict(conflict), conflict.getMessage());
    assertEquals("Conflict", conflict.statusReason());
  }

  @Test
  void anInvalidNameIsInvalidWithItsCauses() {
    StatusException invalid =
        assertThrows(
            StatusException.class, () -> widgets().create(Widget.of("Not_A_Name", 1, "red")));
    assertTrue(ApiErrors.isInvalid(invalid));
    assertEquals(422, invalid.statusCode());
    List<StatusCause> causes = invalid.status().getDetails().getCauses();
    assertEquals("metadata.name", causes.get(0).getField());
    assertEquals("FieldValueInvalid", causes.get(0).getReason());
  }

  @Test
  void listsPageWithContinueAndRemainingCountsAndFollowAllPages() {
    for (int i = 0; i < 5; i++) {
      widgets().create(labelled("w" + i, i % 2 == 0 ? "even" : "odd"));
    }
    ListOptions options = new ListOptions();
    options.setLimit(2);
    ListPage<Widget> first = widgets().list(options);
    assertEquals(List.of("w0", "w1"), names(first.items()));
    assertTrue(first.hasNext());
    assertFalse(first.resourceVersion().isEmpty());
    assertEquals("Widget", first.items().get(0).getKind());
    assertEquals("test.machinery.dev/v1", first.items().get(0).getApiVersion());

    assertEquals(Optional.of(3L), first.remaining(), "kube counts what an unfiltered list left");

    options.setContinue(first.continueToken());
    ListPage<Widget> second = widgets().list(options);
    assertEquals(List.of("w2", "w3"), names(second.items()));
    assertEquals(first.resourceVersion(), second.resourceVersion());
    assertEquals(Optional.of(1L), second.remaining());
    options.setContinue(second.continueToken());
    ListPage<Widget> last = widgets().list(options);
    assertEquals(List.of("w4"), names(last.items()));
    assertFalse(last.hasNext());
    assertEquals(Optional.empty(), last.remaining(), "nothing left: no count");

    ListOptions evenPage = new ListOptions();
    evenPage.setLimit(1);
    evenPage.setLabelSelector("tier=even");
    ListPage<Widget> filtered = widgets().list(evenPage);
    assertEquals(List.of("w0"), names(filtered.items()));
    assertTrue(filtered.hasNext());
    assertEquals(Optional.empty(), filtered.remaining(), "a filtered list is not counted");

    ListOptions cached = new ListOptions();
    cached.setLimit(2);
    cached.setResourceVersion("0");
    ListPage<Widget> fromCache = widgets().list(cached);
    assertEquals(2, fromCache.items().size());
    assertEquals(Optional.of(3L), fromCache.remaining(), "resourceVersion=0 counts as well");

    ListOptions all = new ListOptions();
    all.setLimit(2);
    assertEquals(List.of("w0", "w1", "w2", "w3", "w4"), names(widgets().listAll(all)));

    ListOptions even = new ListOptions();
    even.setLabelSelector("tier=even");
    assertEquals(List.of("w0", "w2", "w4"), names(widgets().list(even).items()));
    ListOptions byName = new ListOptions();
    byName.setFieldSelector("metadata.name=w3");
    assertEquals(List.of("w3"), names(widgets().list(byName).items()));
  }

  @Test
  void aBadSelectorIsABadRequest() {
    ListOptions options = new ListOptions();
    options.setLabelSelector("tier in (");
    StatusException refused = assertThrows(StatusException.class, () -> widgets().list(options));
    assertTrue(ApiErrors.isBadRequest(refused), refused.getMessage());
  }

  // -------------------------------------------------------------------------------- watches

  @Test
  void aWatchSeesChangesAndBookmarksAndResumesFromItsVersion() {
    String start = widgets().list(new ListOptions()).resourceVersion();
    ListOptions options = new ListOptions();
    options.setResourceVersion(start);
    options.setAllowWatchBookmarks(true);
    String resumeAt;
    try (Watch<Widget> watch = widgets().watch(options)) {
      widgets().create(Widget.of("a", 1, "red"));
      Event added = nextNonBookmark(watch);
      assertEquals(EventType.ADDED, added.type());
      assertEquals("a", ((Widget) added.object()).getMetadata().getName());
      Widget changed = widgets().get("a");
      changed.getSpec().setColor("blue");
      widgets().update(changed);
      Event modified = nextNonBookmark(watch);
      assertEquals(EventType.MODIFIED, modified.type());
      assertEquals("blue", ((Widget) modified.object()).getSpec().getColor());
      Event bookmark = watch.next();
      while (bookmark.type() != EventType.BOOKMARK) {
        bookmark = watch.next();
      }
      assertEquals(Widget.class, bookmark.object().getClass());
      resumeAt = watch.resourceVersion();
      assertEquals(((Widget) bookmark.object()).getMetadata().getResourceVersion(), resumeAt);
    }
    widgets().delete("a");
    ListOptions resume = new ListOptions();
    resume.setResourceVersion(resumeAt);
    try (Watch<Widget> watch = widgets().watch(resume)) {
      Event deleted = watch.next();
      assertEquals(EventType.DELETED, deleted.type(), "only what came after the version");
      assertEquals("a", ((Widget) deleted.object()).getMetadata().getName());
    }
  }

  private static Event nextNonBookmark(Watch<?> watch) {
    Event event = watch.next();
    while (event.type() == EventType.BOOKMARK) {
      event = watch.next();
    }
    return event;
  }

  @Test
  void aWatchFromACompactedVersionIsResourceExpired() {
    String start = widgets().create(Widget.of("a", 1, "red")).getMetadata().getResourceVersion();
    for (int i = 0; i < 8; i++) {
      Widget w = widgets().get("a");
      w.getSpec().setReplicas(i + 2);
      widgets().update(w);
    }
    server.storage().compact(server.storage().currentRevision());
    ListOptions options = new ListOptions();
    options.setResourceVersion(start);
    ResourceExpiredException expired =
        assertThrows(
            ResourceExpiredException.class,
            () -> {
              try (Watch<Widget> watch = widgets().watch(options)) {
                watch.hasNext();
              }
            });
    assertEquals(410, expired.statusCode());
    assertTrue(ApiErrors.isResourceExpired(expired) || ApiErrors.isGone(expired));
  }

  @Test
  void aClosedWatchEndsTheIteration() {
    Watch<Widget> watch = widgets().watch(new ListOptions());
    watch.close();
    assertFalse(watch.hasNext());
  }

  // --------------------------------------------------------------------------------- writes

  @Test
  void patchesOfEveryType() {
    widgets().create(Widget.of("a", 1, "red"));
    Widget merged =
        widgets()
            .patch("a", PatchType.MERGE, "{\"spec\":{\"color\":\"blue\"}}", new PatchOptions());
    assertEquals("blue", merged.getSpec().getColor());
    Widget json =
        widgets()
            .patch(
                "a",
                PatchType.JSON,
                "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":4}]",
                new PatchOptions());
    assertEquals(4, json.getSpec().getReplicas());
    Widget strategic =
        widgets()
            .patch(
                "a",
                PatchType.STRATEGIC_MERGE,
                "{\"spec\":{\"tags\":[\"x\",\"y\"]}}",
                new PatchOptions());
    assertEquals(List.of("x", "y"), strategic.getSpec().getTags());
    assertEquals("blue", strategic.getSpec().getColor());
    StatusException bad =
        assertThrows(
            StatusException.class,
            () ->
                widgets()
                    .patch(
                        "a",
                        PatchType.JSON,
                        "[{\"op\":\"test\",\"path\":\"/spec/color\",\"value\":\"red\"}]",
                        new PatchOptions()));
    assertEquals(422, bad.statusCode(), bad.getMessage());
  }

  @Test
  void applyOwnsFieldsAndAConflictIsRefusedUnlessForced() {
    Widget mine = Widget.of("a", 3, "red");
    Widget applied = widgets().apply(mine, "alice", false);
    assertEquals(3, applied.getSpec().getReplicas());
    assertTrue(
        applied.getMetadata().getManagedFields().stream()
            .anyMatch(f -> f.getManager().equals("alice") && f.getOperation().equals("Apply")));

    Widget theirs = Widget.of("a", 5, "red");
    StatusException conflict =
        assertThrows(StatusException.class, () -> widgets().apply(theirs, "bob", false));
    assertTrue(ApiErrors.isConflict(conflict), conflict.getMessage());
    assertTrue(conflict.getMessage().contains(".spec.replicas"), conflict.getMessage());

    Widget forced = widgets().apply(theirs, "bob", true);
    assertEquals(5, forced.getSpec().getReplicas());
    IllegalArgumentException noManager =
        assertThrows(IllegalArgumentException.class, () -> widgets().apply(theirs, "", true));
    assertTrue(noManager.getMessage().startsWith("fieldManager"));
  }

  @Test
  void aDryRunCreateStoresNothing() {
    CreateOptions dry = new CreateOptions();
    dry.setDryRun(List.of("All"));
    Widget answered = widgets().create(Widget.of("a", 1, "red"), dry);
    assertEquals("a", answered.getMetadata().getName());
    assertTrue(ApiErrors.isNotFound(assertThrows(StatusException.class, () -> widgets().get("a"))));
  }

  @Test
  void strictFieldValidationRefusesAnUnknownFieldAndWarnReportsIt() {
    ResourceClient<Unstructured> raw = client.resources(WIDGETS).inNamespace("ns");
    Unstructured w = new Unstructured();
    w.setApiVersion("test.machinery.dev/v1");
    w.setKind("Widget");
    w.setName("a");
    w.setNested("red", "spec", "color");
    w.setNested("surprise", "spec", "flavour");
    CreateOptions strict = new CreateOptions();
    strict.setFieldValidation("Strict");
    StatusException refused = assertThrows(StatusException.class, () -> raw.create(w, strict));
    assertTrue(ApiErrors.isBadRequest(refused), refused.getMessage());
    assertTrue(
        refused.getMessage().contains("unknown field \"spec.flavour\""), refused.getMessage());

    CreateOptions warn = new CreateOptions();
    warn.setFieldValidation("Warn");
    Unstructured created = raw.create(w, warn);
    assertEquals(Optional.empty(), created.nested("spec", "flavour"));
    assertTrue(
        warnings.stream().anyMatch(t -> t.contains("unknown field \"spec.flavour\"")),
        warnings.toString());
  }

  @Test
  void unstructuredObjectsByResourceAndByKind() {
    widgets().create(Widget.of("a", 1, "red"));
    ResourceClient<Unstructured> byResource = client.resources(WIDGETS).inNamespace("ns");
    Unstructured got = byResource.get("a");
    assertEquals(Optional.of("red"), got.nestedString("spec", "color"));
    assertEquals("Widget", got.getKind());
    assertEquals(Scope.NAMESPACE, byResource.mapping().scope());

    ResourceClient<Unstructured> byKind =
        client
            .resources(GroupVersionKind.of("test.machinery.dev", "v1", "Widget"))
            .inNamespace("ns");
    List<Unstructured> items = byKind.list(new ListOptions()).items();
    assertEquals(1, items.size());
    assertEquals("Widget", items.get(0).getKind(), "items get the list's kind");
    Unstructured patched =
        byKind.patch("a", PatchType.MERGE, "{\"spec\":{\"color\":\"green\"}}", new PatchOptions());
    assertEquals(Optional.of("green"), patched.nestedString("spec", "color"));
  }

  @Test
  void anUnknownKindIsNoKindMatch() {
    ResourceClient<Unstructured> unknown =
        client.resources(GroupVersionKind.of("nowhere.dev", "v1", "Ghost"));
    assertThrows(NoKindMatchException.class, () -> unknown.list(new ListOptions()));
  }

  // -------------------------------------------------------------------------------- deletes

  @Test
  void deletePreconditionsDryRunAndPropagation() {
    Widget created = widgets().create(Widget.of("a", 1, "red"));
    DeleteOptions wrongUid = new DeleteOptions();
    Preconditions preconditions = new Preconditions();
    preconditions.setUid("not-the-uid");
    wrongUid.setPreconditions(preconditions);
    StatusException conflict =
        assertThrows(StatusException.class, () -> widgets().delete("a", wrongUid));
    assertTrue(ApiErrors.isConflict(conflict), conflict.getMessage());

    DeleteOptions badPolicy = new DeleteOptions();
    badPolicy.setPropagationPolicy("Sideways");
    StatusException bad =
        assertThrows(StatusException.class, () -> widgets().delete("a", badPolicy));
    // kube-apiserver's ValidateDeleteOptions: 422 Invalid.
    assertTrue(ApiErrors.isInvalid(bad), bad.getMessage());
    assertTrue(bad.getMessage().contains("Sideways"), bad.getMessage());

    DeleteOptions dry = new DeleteOptions();
    dry.setDryRun(List.of("All"));
    widgets().delete("a", dry);
    assertEquals(created.getMetadata().getUid(), widgets().get("a").getMetadata().getUid());

    DeleteOptions right = new DeleteOptions();
    Preconditions matching = new Preconditions();
    matching.setUid(created.getMetadata().getUid());
    right.setPreconditions(matching);
    right.setPropagationPolicy("Foreground");
    right.setGracePeriodSeconds(0L);
    // Foreground: kube-apiserver's registry adds the foregroundDeletion finalizer, which the
    // garbage collector removes once the dependents are gone; the object waits for it.
    Widget waiting = widgets().delete("a", right).orElseThrow();
    assertEquals(List.of("foregroundDeletion"), waiting.getMetadata().getFinalizers());
    assertTrue(waiting.getMetadata().getDeletionTimestamp() != null);
    Widget held = widgets().get("a");
    held.getMetadata().setFinalizers(List.of());
    widgets().update(held);
    assertTrue(ApiErrors.isNotFound(assertThrows(StatusException.class, () -> widgets().get("a"))));
    assertTrue(
        ApiErrors.isNotFound(
            assertThrows(StatusException.class, () -> widgets().delete("a", new DeleteOptions()))));
  }

  @Test
  void aFinalizerKeepsTheDeletedObjectWhichTheDeleteReturns() {
    Widget w = Widget.of("a", 1, "red");
    w.getMetadata().setFinalizers(List.of("test.machinery.dev/hold"));
    widgets().create(w);
    Optional<Widget> pending = widgets().delete("a");
    assertTrue(pending.isPresent());
    assertTrue(pending.get().getMetadata().getDeletionTimestamp() != null);
    Widget held = widgets().get("a");
    held.getMetadata().setFinalizers(List.of());
    widgets().update(held);
    assertTrue(ApiErrors.isNotFound(assertThrows(StatusException.class, () -> widgets().get("a"))));
  }

  @Test
  void deleteCollectionDeletesWhatTheSelectorSelects() {
    for (int i = 0; i < 4; i++) {
      widgets().create(labelled("w" + i, i < 3 ? "doomed" : "kept"));
    }
    ListOptions doomed = new ListOptions();
    doomed.setLabelSelector("tier=doomed");
    widgets().deleteCollection(new DeleteOptions(), doomed);
    assertEquals(List.of("w3"), names(widgets().list(new ListOptions()).items()));
  }

  // --------------------------------------------------------------------------- subresources

  @Test
  void statusIsWrittenThroughItsSubresourceOnly() {
    widgets().create(Widget.of("a", 2, "red"));
    Widget w = widgets().get("a");
    Widget.Status status = new Widget.Status();
    status.setPhase("Ready");
    status.setReadyReplicas(2);
    w.setStatus(status);
    w.getSpec().setColor("ignored");
    Widget afterStatus = widgets().updateStatus(w, new UpdateOptions());
    assertEquals("Ready", afterStatus.getStatus().getPhase());
    assertEquals("red", afterStatus.getSpec().getColor(), "the status subresource keeps the spec");

    Widget again = widgets().get("a");
    again.getStatus().setPhase("Changed");
    Widget afterUpdate = widgets().update(again);
    assertEquals("Ready", afterUpdate.getStatus().getPhase(), "an update keeps the status");

    Widget patched =
        widgets()
            .patch(
                "a",
                PatchType.MERGE,
                "{\"status\":{\"phase\":\"Patched\"}}",
                new PatchOptions(),
                "status");
    assertEquals("Patched", patched.getStatus().getPhase());
  }

  @Test
  void anySubresourceThroughTheGenericMethods() {
    widgets().create(Widget.of("a", 2, "red"));
    Widget w = widgets().getSubresource("a", "status", Widget.class);
    w.setStatus(new Widget.Status());
    w.getStatus().setPhase("Generic");
    Widget written =
        widgets().updateSubresource("a", "status", w, Widget.class, new UpdateOptions());
    assertEquals("Generic", written.getStatus().getPhase());
    Unstructured raw = widgets().getSubresource("a", "status", Unstructured.class);
    assertEquals(Optional.of("Generic"), raw.nestedString("status", "phase"));
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class,
            () -> widgets().getSubresource("a", "sta/tus", Widget.class));
    assertEquals("subresource: \"sta/tus\" is not a subresource", bad.getMessage());
  }

  @Test
  void scaleIsReadAndWritten() {
    widgets().create(Widget.of("a", 2, "red"));
    Scale scale = widgets().getScale("a");
    assertEquals(2, scale.getSpec().getReplicas());
    assertEquals("autoscaling/v1", scale.getApiVersion());
    scale.getSpec().setReplicas(7);
    Scale written = widgets().updateScale("a", scale, new UpdateOptions());
    assertEquals(7, written.getSpec().getReplicas());
    assertEquals(7, widgets().get("a").getSpec().getReplicas());
    Status notThere =
        assertThrows(StatusException.class, () -> widgets().getScale("missing")).status();
    assertEquals(404, notThere.getCode());
  }

  @Test
  void manyThreadsShareOneClient() throws Exception {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    for (int t = 0; t < 4; t++) {
      int id = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < 5; i++) {
                    widgets().create(Widget.of("t" + id + "-" + i, i, "red"));
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(List.of(), failures);
    assertEquals(20, widgets().list(new ListOptions()).items().size());
    assertNull(widgets().list(new ListOptions()).remainingItemCount());
  }
}
