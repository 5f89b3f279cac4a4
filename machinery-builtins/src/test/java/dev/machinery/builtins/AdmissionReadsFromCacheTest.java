package dev.machinery.builtins;

import static dev.machinery.builtins.Requests.call;
import static dev.machinery.builtins.Requests.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.testing.LateRemoteStorage;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the default admission plugins read of other objects while a Pod is created (its namespace,
 * service account, PriorityClass and the namespace's LimitRanges, quotas and policies), they read
 * as kube-apiserver's plugins read their informers: from the server's watch cache, with no request
 * to the storage, so a create on etcd waits for etcd only to write. Every object written through
 * the same server is read at once, though the storage's watch brings it here 300 ms late; one
 * another server wrote, not yet in the cache, is read from the storage when a plugin looks for it
 * by name.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AdmissionReadsFromCacheTest {
  private final MemoryStorage shared = new MemoryStorage();
  private final LateRemoteStorage storage = new LateRemoteStorage(shared, Duration.ofMillis(300));
  private final ApiServer server = server(storage);

  /** kube-apiserver's default plugins, and {@code ServiceAccount}. */
  private static ApiServer server(LateRemoteStorage storage) {
    return BuiltinKinds.apiServer(
            DefaultAdmission.kubernetes().enable(ServiceAccountAdmission.NAME))
        .storage(storage)
        .build();
  }

  @AfterEach
  void close() {
    server.close();
    shared.close();
  }

  private static JsonNode create(ApiServer server, String path, String body) throws IOException {
    return ok(call(server, "POST", path, body), 201);
  }

  private static String pod(String name, String priorityClass) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"priorityClassName\":\""
        + priorityClass
        + "\",\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";
  }

  private static String priorityClass(String name, int value) {
    return "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
        + "\"metadata\":{\"name\":\""
        + name
        + "\"},\"value\":"
        + value
        + "}";
  }

  @Test
  void aPodsCreateReadsOnlyTheCacheAndSeesWhatWasJustWrittenHere() throws IOException {
    create(server, "/api/v1/namespaces", "{\"metadata\":{\"name\":\"ns\"}}");
    create(
        server, "/api/v1/namespaces/ns/serviceaccounts", "{\"metadata\":{\"name\":\"default\"}}");
    create(server, "/apis/scheduling.k8s.io/v1/priorityclasses", priorityClass("high", 1000));
    // The first Pod starts the caches the plugins read (their first lists of the storage), as
    // kube-apiserver's informers start with it.
    create(server, "/api/v1/namespaces/ns/pods", pod("first", "high"));
    create(server, "/apis/scheduling.k8s.io/v1/priorityclasses", priorityClass("higher", 2000));
    create(
        server,
        "/api/v1/namespaces/ns/limitranges",
        "{\"metadata\":{\"name\":\"cpu\"},\"spec\":{\"limits\":[{\"type\":\"Container\","
            + "\"defaultRequest\":{\"cpu\":\"100m\"}}]}}");
    storage.takeReads();

    JsonNode pod = create(server, "/api/v1/namespaces/ns/pods", pod("second", "higher"));

    assertEquals(0, storage.takeReads(), "no request to the storage but the write");
    assertEquals(2000, pod.path("spec").path("priority").asInt(), "Priority: " + pod);
    assertEquals("default", pod.path("spec").path("serviceAccountName").asText(), "account");
    assertEquals(
        "100m",
        pod.path("spec")
            .path("containers")
            .path(0)
            .path("resources")
            .path("requests")
            .path("cpu")
            .asText(),
        "LimitRanger: " + pod);
  }

  @Test
  void aPriorityClassAnotherServerWroteIsReadFromTheStorage() throws IOException {
    create(server, "/api/v1/namespaces", "{\"metadata\":{\"name\":\"ns\"}}");
    create(
        server, "/api/v1/namespaces/ns/serviceaccounts", "{\"metadata\":{\"name\":\"default\"}}");
    try (ApiServer other = server(new LateRemoteStorage(shared, Duration.ZERO))) {
      create(other, "/apis/scheduling.k8s.io/v1/priorityclasses", priorityClass("elsewhere", 7));
    }

    JsonNode pod = create(server, "/api/v1/namespaces/ns/pods", pod("p", "elsewhere"));

    assertEquals(7, pod.path("spec").path("priority").asInt(), pod.toString());
  }
}
