package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.testing.RemoteMemoryStorage;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which requests a server declared {@link ApiServer.Builder#readsWithoutWaiting} says it answers
 * without waiting: GETs of one object (or one namespace), never lists, watches or writes; and none
 * at all when not declared. On a storage that does not answer from memory, those GETs wait for
 * their cache's check without a thread instead ({@link ApiServer#handleAsync}), and still see every
 * write answered before them.
 */
class ReadsWithoutWaitingTest {
  private static final Scheme SCHEME = MetaV1.addToScheme(Scheme.builder()).build();

  private static ApiRequest request(String method, String path, String query) {
    Map<String, List<String>> parameters =
        query.isEmpty() ? Map.of() : Map.of(query.split("=")[0], List.of(query.split("=")[1]));
    return new ApiRequest(
        method, path, parameters, Map.of(), new ByteArrayInputStream(new byte[0]));
  }

  @ParameterizedTest
  @CsvSource({
    "GET, /api/v1/namespaces/default/configmaps/one, '', true",
    "GET, /api/v1/namespaces/default, '', true",
    "GET, /apis/apps/v1/namespaces/default/deployments/web, '', true",
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin, '', true",
    "GET, /api/v1/namespaces/default/configmaps/one, watch=false, true",
    "GET, /api/v1/namespaces/default/configmaps, '', false",
    "GET, /api/v1/configmaps, '', false",
    "GET, /apis/apps/v1/namespaces/default/deployments, '', false",
    "GET, /api/v1/namespaces/default/configmaps/one, watch=true, false",
    "GET, /api/v1/namespaces/default/configmaps/one, watch=1, false",
    "GET, /api/v1/watch/namespaces/default/configmaps, '', false",
    "GET, /apis/apps/v1/watch/namespaces/default/deployments/web, '', false",
    "GET, /apis/apps/v1/namespaces/default/deployments/web/scale, '', false",
    "GET, /openapi/v3, '', false",
    "GET, /version, '', false",
    "PUT, /api/v1/namespaces/default/configmaps/one, '', false",
    "DELETE, /api/v1/namespaces/default/configmaps/one, '', false",
  })
  void onlyGetsOfOneObject(String method, String path, String query, boolean expected) {
    ApiServer declared =
        ApiServer.builder(SCHEME).storage(new MemoryStorage()).readsWithoutWaiting(true).build();
    assertEquals(expected, declared.answersWithoutWaiting(request(method, path, query)));
    ApiServer undeclared = ApiServer.builder(SCHEME).storage(new MemoryStorage()).build();
    assertFalse(undeclared.answersWithoutWaiting(request(method, path, query)));
  }

  /** A memory store that says it does not answer from memory, as etcd; its checks may fail. */
  private static final class Remote extends RemoteMemoryStorage {
    volatile boolean checksFail;

    @Override
    public RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
      if (checksFail) {
        throw new StorageException(StorageException.Kind.UNAVAILABLE, prefix, 0, "down");
      }
      return super.checkUnchanged(prefix, afterRevision, keysAtAfter);
    }
  }

  /** Runs tasks at once, noting its name for each. */
  private record Named(String name, List<String> ran) implements Executor {
    @Override
    public void execute(Runnable task) {
      ran.add(name);
      task.run();
    }
  }

  private static ApiResponse answer(CompletionStage<ApiResponse> later) throws Exception {
    return later.toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/clusterroles";

  /** A server of ClusterRoles. */
  private static ApiServer.Builder roles(dev.machinery.apiserver.storage.Storage storage) {
    return ApiServer.builder(RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build())
        .storage(storage)
        .addResource(
            ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "ClusterRole"), false).build());
  }

  private static ApiRequest create(String name) {
    return new ApiRequest(
        "POST",
        ROLES,
        Map.of(),
        Map.of("Content-Type", List.of("application/json")),
        new ByteArrayInputStream(
            ("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                    + "\"metadata\":{\"name\":\""
                    + name
                    + "\"}}")
                .getBytes(StandardCharsets.UTF_8)));
  }

  @ParameterizedTest
  @CsvSource({
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin, '', true",
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin, watch=false, true",
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin, resourceVersion=0, false",
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin, resourceVersion=5, false",
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles, '', false",
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin, watch=true, false",
    "GET, /apis/rbac.authorization.k8s.io/v1/watch/clusterroles/admin, '', false",
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin/status, '', false",
    "GET, /apis/rbac.authorization.k8s.io/v1/widgets/admin, '', false",
    "GET, /api/v1/namespaces/default, '', false",
    "GET, /version, '', false",
    "PUT, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin, '', false",
  })
  void onARemoteStorageOnlyGetsOfOneServedObjectWaitWithoutAThread(
      String method, String path, String query, boolean expected) {
    ApiServer declared = roles(new Remote()).readsWithoutWaiting(true).build();
    ApiRequest request = request(method, path, query);
    Executor direct = Runnable::run;
    assertFalse(declared.answersWithoutWaiting(request), "never on the loop at once");
    assertEquals(expected, declared.handleAsync(request, direct, direct) != null);
    ApiServer undeclared = roles(new Remote()).build();
    assertNull(undeclared.handleAsync(request, direct, direct));
    ApiServer onMemory = roles(new MemoryStorage()).readsWithoutWaiting(true).build();
    assertNull(onMemory.handleAsync(request, direct, direct), "answered on the loop instead");
    ApiServer withRbac =
        ApiServer.builder(RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build())
            .storage(new Remote())
            .rbac()
            .readsWithoutWaiting(true)
            .build();
    // RBAC decides from its stores' caches: without a thread too, once they hold its own writes
    // (the default roles it stored while it was built). The first decision, on a worker, starts
    // them.
    withRbac.handle(request);
    CompletionStage<ApiResponse> decided = withRbac.handleAsync(request, direct, direct);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (expected && decided == null && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      decided = withRbac.handleAsync(request, direct, direct);
    }
    assertEquals(expected, decided != null);
  }

  @Test
  void aGetWaitingWithoutAThreadSeesEveryWriteBeforeItAndFallsBackWhenTheCheckFails()
      throws Exception {
    Remote storage = new Remote();
    ApiServer server = roles(storage).readsWithoutWaiting(true).build();
    List<String> ran = new CopyOnWriteArrayList<>();
    Executor loop = new Named("loop", ran);
    Executor workers = new Named("workers", ran);
    assertEquals(201, server.handle(create("first")).status());
    ApiResponse first =
        answer(server.handleAsync(request("GET", ROLES + "/first", ""), loop, workers));
    assertEquals(200, first.status());
    assertTrue(new String(first.body(), StandardCharsets.UTF_8).contains("\"name\":\"first\""));

    // Each write answered before the GET is seen: from the cache on the loop once the check finds
    // it current, else (its watch not yet there) from the storage on a worker.
    for (int i = 0; i < 20; i++) {
      assertEquals(201, server.handle(create("ns-" + i)).status());
      ran.clear();
      ApiResponse got =
          answer(server.handleAsync(request("GET", ROLES + "/ns-" + i, ""), loop, workers));
      assertEquals(200, got.status(), "ns-" + i);
      assertEquals(1, ran.size(), "one of the two: " + ran);
    }
    // Nothing changing, the cache catches up and GETs are answered on the loop.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    do {
      assertTrue(System.nanoTime() < deadline, "never answered on the loop: " + ran);
      ran.clear();
      assertEquals(
          200,
          answer(server.handleAsync(request("GET", ROLES + "/ns-19", ""), loop, workers)).status());
    } while (!ran.equals(List.of("loop")));
    ApiResponse missing =
        answer(server.handleAsync(request("GET", ROLES + "/none", ""), loop, workers));
    assertEquals(404, missing.status());

    // A check that fails: the GET is answered on a worker, from the storage.
    storage.checksFail = true;
    ran.clear();
    ApiResponse fallback =
        answer(server.handleAsync(request("GET", ROLES + "/ns-3", ""), loop, workers));
    assertEquals(200, fallback.status());
    assertEquals(List.of("workers"), ran);
    server.close();
  }

  @Test
  void memoryStorageSaysItAnswersFromMemory() {
    assertTrue(new MemoryStorage().answersFromMemory());
  }
}
