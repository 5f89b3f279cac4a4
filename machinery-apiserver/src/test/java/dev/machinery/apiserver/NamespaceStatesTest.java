package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.QueuedWatch;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.apiserver.storage.testing.RemoteMemoryStorage;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Writes into a namespace read its state as kube-apiserver's NamespaceLifecycle plugin reads it:
 * from the Namespaces' watch cache, from the storage when the cache has not seen the namespace, and
 * from the storage for a while after a delete of it was admitted, whatever the cache shows.
 */
class NamespaceStatesTest {
  private static final GroupVersion CORE = GroupVersion.of("", "v1");
  private static final GroupVersion X = GroupVersion.of("x.dev", "v1");
  private static final String NS = "/api/v1/namespaces";

  /** A store read as a remote one, counting reads of namespaces, whose watch may be held. */
  private static final class Remote extends RemoteMemoryStorage {
    final AtomicInteger namespaceReads = new AtomicInteger();
    volatile boolean stallNamespaceWatch;

    @Override
    public Optional<KeyValue> get(String key) {
      if (key.startsWith("namespaces/")) {
        namespaceReads.incrementAndGet();
      }
      return super.get(key);
    }

    @Override
    public StorageWatch watch(String prefix, long afterRevision) {
      if (stallNamespaceWatch && prefix.startsWith("namespaces/")) {
        // Open, and never told of a change: a cache behind by the watch's latency, held.
        return new QueuedWatch(prefix, 1_000, w -> {});
      }
      return super.watch(prefix, afterRevision);
    }
  }

  private final Remote storage = new Remote();
  private final ApiServer server =
      ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build())
          .storage(storage)
          .addUnstructuredResource(
              ResourceDefinition.builder(GroupKind.of("", "Namespace"), false)
                  .statusSubresource()
                  .kindFromEndpoint()
                  .build(),
              CORE,
              List.of(CORE))
          .addUnstructuredResource(
              ResourceDefinition.builder(GroupKind.of("x.dev", "Widget"), true)
                  .kindFromEndpoint()
                  .build(),
              X,
              List.of(X))
          .build();

  @AfterEach
  void stop() {
    server.close();
  }

  private ApiResponse call(String method, String path, String body) {
    return server.handleAs(
        dev.machinery.apiserver.authentication.UserInfo.of("root", List.of("system:masters")),
        new ApiRequest(
            method,
            path,
            Map.of(),
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private int createNamespace(String name) {
    return call("POST", NS, "{\"metadata\":{\"name\":\"" + name + "\"}}").status();
  }

  private ApiResponse createWidget(String namespace, String name) {
    return call(
        "POST",
        "/apis/x.dev/v1/namespaces/" + namespace + "/widgets",
        "{\"apiVersion\":\"x.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\""
            + name
            + "\"}}");
  }

  @Test
  void writesIntoANamespaceTheCacheHoldsReadNoNamespaceFromTheStorage() {
    assertEquals(201, createNamespace("held"));
    assertEquals(201, createWidget("held", "first").status());
    // A consistent list waits for the cache to hold every write answered before it.
    assertEquals(200, call("GET", NS, null).status());
    storage.namespaceReads.set(0);
    for (int i = 0; i < 5; i++) {
      assertEquals(201, createWidget("held", "w" + i).status());
    }
    assertEquals(0, storage.namespaceReads.get(), "reads of the namespace from the storage");
  }

  @Test
  void aNamespaceTheCacheHasNotSeenIsReadFromTheStorage() {
    storage.stallNamespaceWatch = true;
    assertEquals(201, createNamespace("early"));
    assertEquals(201, createWidget("early", "w").status(), "starts the cache: it lists early");
    assertEquals(201, createNamespace("late"));
    storage.namespaceReads.set(0);
    assertEquals(201, createWidget("late", "w").status());
    assertTrue(storage.namespaceReads.get() > 0, "late was read from the storage");
    ApiResponse missing = createWidget("missing", "w");
    assertEquals(404, missing.status());
    assertTrue(
        new String(missing.body(), StandardCharsets.UTF_8)
            .contains("namespaces \\\"missing\\\" not found"),
        new String(missing.body(), StandardCharsets.UTF_8));
  }

  @Test
  void aDeleteAdmittedHereIsHonouredBeforeTheCacheSeesIt() {
    storage.stallNamespaceWatch = true;
    assertEquals(201, createNamespace("doomed"));
    assertEquals(201, createWidget("doomed", "w").status(), "starts the cache: doomed is active");
    assertEquals(200, call("DELETE", NS + "/doomed", null).status());
    ApiResponse refused = createWidget("doomed", "after");
    assertTrue(
        refused.status() == 404 || refused.status() == 403,
        "a write into the deleted namespace: " + refused.status());
  }
}
