package dev.machinery.examples.webpage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.Condition;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The WebPage controller against a real API server (the JUnit test server with the WebPage
 * CustomResourceDefinition), its client talking to the server in process and over HTTP.
 */
class WebPageControllerTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final GroupVersionResource EVENTS =
      new GroupVersionResource("events.k8s.io", "v1", "events");

  private static TestApiServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestApiServer.start();
    Path crd = Files.createTempFile("webpages", ".yaml");
    Files.writeString(crd, WebPageController.customResourceDefinition());
    server.createCustomResourceDefinitions(crd.toString());
    Files.delete(crd);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Client client(String transport) {
    Client.Builder builder =
        switch (transport) {
          case "in-process" -> Client.builder(InProcessTransport.of(server.apiServer()::handleAs));
          case "http" -> Client.builder(HttpTransport.builder(server.url()).build());
          default -> throw new IllegalArgumentException(transport);
        };
    return builder.scheme(WebPageController.scheme()).build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"in-process", "http"})
  void publishesTheContentInAnOwnedConfigMapAndKeepsItInStep(String transport) throws Exception {
    String namespace = "default";
    String name = "home-" + transport;
    String mapName = WebPageReconciler.configMapName(name);
    try (Client client = client(transport);
        WebPageController controller =
            WebPageController.start(client, namespace, "replica-" + transport)) {
      assertTrue(controller.isRunning(), "no leader election: runs at once");
      ResourceClient<WebPage> pages = client.resources(WebPage.class).inNamespace(namespace);
      ResourceClient<ConfigMap> maps = client.resources(ConfigMap.class).inNamespace(namespace);
      WebPage created = pages.create(WebPage.of(namespace, name, "<h1>one</h1>"));

      ConfigMap map =
          await("the ConfigMap", () -> find(maps, mapName), m -> hasContent(m, "<h1>one</h1>"));
      List<OwnerReference> owners = map.getMetadata().getOwnerReferences();
      assertEquals(1, owners.size(), owners.toString());
      OwnerReference owner = owners.get(0);
      assertEquals("web.example.dev/v1", owner.getApiVersion());
      assertEquals("WebPage", owner.getKind());
      assertEquals(name, owner.getName());
      assertEquals(created.getMetadata().getUid(), owner.getUid());
      assertEquals(Boolean.TRUE, owner.getController());
      assertEquals(Boolean.TRUE, owner.getBlockOwnerDeletion());
      assertEquals(Map.of(WebPageReconciler.PAGE_LABEL, name), map.getMetadata().getLabels());

      WebPage ready =
          await(
              "the status of generation 1",
              () -> Optional.of(pages.get(name)),
              p -> isReady(p, p.getMetadata().getGeneration()));
      assertEquals(1L, ready.getStatus().observedGeneration());
      Condition condition = ready(ready).orElseThrow();
      assertEquals(WebPageReconciler.REASON_PUBLISHED, condition.getReason());
      assertEquals(1L, condition.getObservedGeneration());

      // The content changes: the ConfigMap follows, the status names the new generation.
      WebPage changed = pages.get(name);
      changed.setSpec(new WebPageSpec("<h1>two</h1>"));
      long generation = pages.update(changed).getMetadata().getGeneration();
      assertEquals(2L, generation, "a change of the spec bumps the generation");
      await("the ConfigMap changed", () -> find(maps, mapName), m -> hasContent(m, "<h1>two</h1>"));
      await(
          "the status of generation 2",
          () -> Optional.of(pages.get(name)),
          p -> isReady(p, 2L) && p.getStatus().observedGeneration() == 2L);

      // Deleted by hand, the ConfigMap is made again: the controller watches what it owns.
      String firstUid = maps.get(mapName).getMetadata().getUid();
      maps.delete(mapName);
      ConfigMap again =
          await(
              "the ConfigMap made again",
              () -> find(maps, mapName),
              m -> !m.getMetadata().getUid().equals(firstUid));
      assertEquals(Map.of(WebPageReconciler.CONTENT_KEY, "<h1>two</h1>"), again.getData());

      // Changed by hand, it is put back.
      ConfigMap edited = maps.get(mapName);
      edited.setData(Map.of(WebPageReconciler.CONTENT_KEY, "defaced"));
      maps.update(edited);
      await(
          "the ConfigMap put back", () -> find(maps, mapName), m -> hasContent(m, "<h1>two</h1>"));

      // The events: created (twice: at first and after the deletion) and updated.
      ResourceClient<Unstructured> events = client.resources(EVENTS).inNamespace(namespace);
      for (String reason : List.of("Created", "Updated")) {
        Unstructured event =
            await("a " + reason + " event", () -> eventOf(events, name, reason), e -> true);
        assertEquals(
            WebPageController.REPORTING_CONTROLLER,
            event.nestedString("reportingController").orElse(""));
        assertEquals("replica-" + transport, event.nestedString("reportingInstance").orElse(""));
        assertEquals("Normal", event.nestedString("type").orElse(""));
        assertEquals("WebPage", event.nestedString("regarding", "kind").orElse(""));
        assertEquals(
            created.getMetadata().getUid(), event.nestedString("regarding", "uid").orElse(""));
        assertEquals(
            reason.toLowerCase(java.util.Locale.ROOT) + " ConfigMap " + mapName,
            event.nestedString("note").orElse(""));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"in-process", "http"})
  void leavesAConfigMapItDoesNotControlAlone(String transport) throws Exception {
    String namespace = "default";
    String name = "taken-" + transport;
    String mapName = WebPageReconciler.configMapName(name);
    try (Client client = client(transport);
        WebPageController controller =
            WebPageController.start(client, namespace, "replica-" + transport)) {
      assertTrue(controller.isRunning(), "no leader election: runs at once");
      ResourceClient<ConfigMap> maps = client.resources(ConfigMap.class).inNamespace(namespace);
      ConfigMap foreign = new ConfigMap();
      ObjectMeta meta = new ObjectMeta();
      meta.setName(mapName);
      foreign.setMetadata(meta);
      foreign.setData(Map.of("owner", "someone else"));
      maps.create(foreign);
      ResourceClient<WebPage> pages = client.resources(WebPage.class).inNamespace(namespace);
      pages.create(WebPage.of(namespace, name, "mine"));

      WebPage refused =
          await(
              "the Ready condition False",
              () -> Optional.of(pages.get(name)),
              p -> ready(p).map(c -> Condition.FALSE.equals(c.getStatus())).orElse(false));
      assertEquals(WebPageReconciler.REASON_NOT_OWNED, ready(refused).orElseThrow().getReason());
      assertEquals(Map.of("owner", "someone else"), maps.get(mapName).getData());
      assertNotEquals(
          null,
          eventOf(
                  client.resources(EVENTS).inNamespace(namespace),
                  name,
                  WebPageReconciler.REASON_NOT_OWNED)
              .orElse(null));
    }
  }

  static boolean hasContent(ConfigMap map, String content) {
    return Map.of(WebPageReconciler.CONTENT_KEY, content).equals(map.getData());
  }

  static Optional<ConfigMap> find(ResourceClient<ConfigMap> maps, String name) {
    return maps.list(new ListOptions()).items().stream()
        .filter(m -> m.getMetadata().getName().equals(name))
        .findFirst();
  }

  static Optional<Condition> ready(WebPage page) {
    if (page.getStatus() == null || page.getStatus().conditions() == null) {
      return Optional.empty();
    }
    return page.getStatus().conditions().stream()
        .filter(c -> WebPageReconciler.CONDITION_READY.equals(c.getType()))
        .findFirst();
  }

  static boolean isReady(WebPage page, long generation) {
    return page.getStatus() != null
        && page.getStatus().observedGeneration() != null
        && page.getStatus().observedGeneration() == generation
        && ready(page).map(c -> Condition.TRUE.equals(c.getStatus())).orElse(false);
  }

  private static Optional<Unstructured> eventOf(
      ResourceClient<Unstructured> events, String regarding, String reason) {
    return events.list(new ListOptions()).items().stream()
        .filter(e -> regarding.equals(e.nestedString("regarding", "name").orElse("")))
        .filter(e -> reason.equals(e.nestedString("reason").orElse("")))
        .findFirst();
  }

  static <T> T await(String what, Supplier<Optional<T>> value, Predicate<T> condition)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    Optional<T> last = value.get();
    while (last.isEmpty() || !condition.test(last.get())) {
      if (Instant.now().isAfter(deadline)) {
        fail("never saw " + what + "; last seen: " + last);
      }
      Thread.sleep(50);
      last = value.get();
    }
    return last.get();
  }
}
