package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.apiserver.storage.testing.RemoteMemoryStorage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * RBAC reads its policy as kube-apiserver's authorizer does, from informers: on a storage that does
 * not answer from memory (etcd), a decision makes no request to the storage; a binding written
 * through this server decides the very next request, on a worker while its cache lags and without a
 * thread once the cache holds it; one written through another server on the same storage decides
 * once the watch has brought it.
 */
class RbacFromCachesTest {
  private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";
  private static final UserInfo JANE = UserInfo.of("jane", List.of("system:authenticated"));

  /** Counts the reads a decision could make of the storage. */
  private static final class Counted extends RemoteMemoryStorage {
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public long currentRevision() {
      reads.incrementAndGet();
      return super.currentRevision();
    }

    @Override
    public RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
      reads.incrementAndGet();
      return super.checkUnchanged(prefix, afterRevision, keysAtAfter);
    }

    @Override
    public ListResult list(String prefix, long revision, String startKey, int limit) {
      reads.incrementAndGet();
      return super.list(prefix, revision, startKey, limit);
    }
  }

  /** A remote store whose watches can be held: a change taken waits until they are let go. */
  private static final class Held extends RemoteMemoryStorage {
    volatile boolean held;

    @Override
    public StorageWatch watch(String prefix, long afterRevision) {
      StorageWatch watch = super.watch(prefix, afterRevision);
      return new StorageWatch() {
        @Override
        public StorageEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
          StorageEvent event = watch.poll(timeout, unit);
          // A change taken while held is handed over once let go (or the watch closed).
          while (event != null && held && !watch.isDone()) {
            Thread.sleep(5);
          }
          return event;
        }

        @Override
        public boolean isDone() {
          return watch.isDone();
        }

        @Override
        public StorageException error() {
          return watch.error();
        }

        @Override
        public void close() {
          watch.close();
        }
      };
    }
  }

  private static ApiServer server(Storage storage) {
    return ApiServer.builder(RbacServerTest.scheme()).storage(storage).rbac().build();
  }

  private static ApiResponse call(ApiServer server, UserInfo user, String method, String path) {
    return RbacServerTest.call(server, user, method, path, null);
  }

  private static ApiResponse call(
      ApiServer server, UserInfo user, String method, String path, String body) {
    return RbacServerTest.call(server, user, method, path, body);
  }

  private static String adminOf(String user) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
        + "\"metadata\":{\"name\":\""
        + user
        + "-admin\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
        + "\"kind\":\"ClusterRole\",\"name\":\"admin\"},\"subjects\":[{\"kind\":\"User\","
        + "\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\""
        + user
        + "\"}]}";
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  @Test
  void aBindingWrittenHereDecidesTheNextRequestAndNoDecisionReadsTheStorage() {
    Counted storage = new Counted();
    ApiServer server = server(storage);
    String bindings = RBAC + "/namespaces/team/rolebindings";
    assertEquals(403, call(server, JANE, "GET", bindings).status());
    ApiResponse created = call(server, ApiServer.LOOPBACK_USER, "POST", bindings, adminOf("jane"));
    assertEquals(201, created.status(), () -> text(created));
    ApiResponse listed = call(server, JANE, "GET", bindings);
    assertEquals(200, listed.status(), () -> text(listed));

    // Discovery reads no store: whatever the storage is asked now, RBAC asked it.
    storage.reads.set(0);
    for (int i = 0; i < 50; i++) {
      ApiResponse discovery = call(server, JANE, "GET", "/apis");
      assertEquals(200, discovery.status(), () -> text(discovery));
    }
    assertEquals(0, storage.reads.get(), "requests to the storage for 50 decisions");
  }

  @Test
  void aBindingWrittenThroughAnotherServerDecidesOnceItsWatchBringsIt() throws Exception {
    RemoteMemoryStorage storage = new RemoteMemoryStorage();
    ApiServer first = server(storage);
    ApiServer second = server(storage);
    String bindings = RBAC + "/namespaces/team/rolebindings";
    assertEquals(403, call(second, JANE, "GET", bindings).status());
    ApiResponse created = call(first, ApiServer.LOOPBACK_USER, "POST", bindings, adminOf("jane"));
    assertEquals(201, created.status(), () -> text(created));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int status;
    do {
      status = call(second, JANE, "GET", bindings).status();
      if (status != 200) {
        Thread.sleep(5);
      }
    } while (status != 200 && System.nanoTime() < deadline);
    assertEquals(200, status, "the other server's binding never decided a request");

    // And its removal, the same way.
    ApiResponse deleted = call(first, ApiServer.LOOPBACK_USER, "DELETE", bindings + "/jane-admin");
    assertEquals(200, deleted.status(), () -> text(deleted));
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    do {
      status = call(second, JANE, "GET", bindings).status();
      if (status != 403) {
        Thread.sleep(5);
      }
    } while (status != 403 && System.nanoTime() < deadline);
    assertEquals(403, status, "the other server's removal never took effect");
  }

  /** Whether a GET of a ClusterRole would wait for its check without a thread. */
  private static boolean withoutAThread(ApiServer server) {
    Executor direct = Runnable::run;
    ApiRequest get =
        new ApiRequest(
            "GET",
            RBAC + "/clusterroles/admin",
            Map.of(),
            Map.of(),
            new ByteArrayInputStream(new byte[0]));
    return server.handleAsync(get, direct, direct) != null;
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what);
      }
      Thread.sleep(5);
    }
  }

  @Test
  void whileABindingWrittenHereIsNotInItsCacheGetsWaitOnAWorkerAndTheBindingStillDecides()
      throws Exception {
    Held storage = new Held();
    ApiServer server =
        ApiServer.builder(RbacServerTest.scheme())
            .storage(storage)
            .rbac()
            .readsWithoutWaiting(true)
            .build();
    String bindings = RBAC + "/namespaces/team/rolebindings";
    assertEquals(403, call(server, JANE, "GET", bindings).status());
    await(() -> withoutAThread(server), "the caches never held the server's own writes");

    storage.held = true;
    ApiResponse created = call(server, ApiServer.LOOPBACK_USER, "POST", bindings, adminOf("jane"));
    assertEquals(201, created.status(), () -> text(created));
    assertFalse(withoutAThread(server), "RBAC's cache lags a binding written here");
    // On a worker, the decision reads what the cache lacks: the binding decides already.
    ApiResponse listed = call(server, JANE, "GET", bindings);
    assertEquals(200, listed.status(), () -> text(listed));

    storage.held = false;
    await(() -> withoutAThread(server), "the cache never caught up with the binding");
    assertEquals(200, call(server, JANE, "GET", bindings).status());
    server.close();
  }
}
