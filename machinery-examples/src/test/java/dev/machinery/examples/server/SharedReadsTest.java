package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A GET answers with the watch cache's decoded object, shared with lists and other requests: no
 * representation it is answered in (Table, partial metadata, YAML, protobuf, another version)
 * changes it, and a change written since is read, not the cache's older object.
 */
class SharedReadsTest {
  private static final String PATH = "/api/v1/namespaces/default/configmaps/shared";

  private static ApiResponse call(
      ApiServer server,
      String method,
      String path,
      String accept,
      String contentType,
      String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of("Accept", List.of(accept), "Content-Type", List.of(contentType)),
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String get(ApiServer server, String accept) {
    ApiResponse response = call(server, "GET", PATH, accept, "application/json", "");
    assertEquals(200, response.status(), new String(response.body(), StandardCharsets.UTF_8));
    return new String(response.body(), StandardCharsets.ISO_8859_1);
  }

  @Test
  void noRepresentationChangesTheSharedObjectAndANewerWriteIsRead() throws Exception {
    ApiServer server =
        SampleServer.build(Enablement.all(), Duration.ofSeconds(60), null, new MemoryStorage());
    SampleServer.loadSamples(server);
    ApiResponse created =
        call(
            server,
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "application/json",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"shared\","
                + "\"labels\":{\"a\":\"b\"},\"annotations\":{\"x\":\"y\"}},\"data\":{\"k\":\"v\"}}");
    assertEquals(201, created.status());
    String first = get(server, "application/json");
    // Every representation, twice, and a list, between two reads of the JSON.
    for (int i = 0; i < 2; i++) {
      assertTrue(get(server, "application/json;as=Table;v=v1;g=meta.k8s.io").contains("\"rows\""));
      assertTrue(
          get(server, "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io")
              .contains("PartialObjectMetadata"));
      assertTrue(get(server, "application/yaml").contains("k: v"));
      assertTrue(get(server, "application/vnd.kubernetes.protobuf").startsWith("k8s"));
      call(
          server,
          "GET",
          "/api/v1/namespaces/default/configmaps",
          "application/json",
          "application/json",
          "");
    }
    assertEquals(first, get(server, "application/json"));

    ApiResponse patched =
        call(
            server,
            "PATCH",
            PATH,
            "application/json",
            "application/merge-patch+json",
            "{\"data\":{\"k\":\"w\"}}");
    assertEquals(200, patched.status());
    // Read at once, before the cache may have seen the change: the newer object.
    String after = get(server, "application/json");
    assertTrue(after.contains("\"k\":\"w\"") || after.contains("\"k\": \"w\""), after);
  }
}
