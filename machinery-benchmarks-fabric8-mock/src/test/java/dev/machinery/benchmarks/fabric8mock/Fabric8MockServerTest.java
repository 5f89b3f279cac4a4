package dev.machinery.benchmarks.fabric8mock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mock server starts with the objects it is given, and answers as docs/performance.md says: the
 * object and the list; the list again when a Table is asked for; 409 for a stale update; 400 for a
 * watch over plain HTTP.
 */
class Fabric8MockServerTest {
  private static final String NS = "/api/v1/namespaces/load/configmaps";

  @Test
  void servesWhatItWasGivenAndWhatTheLoadProgramsReport(@TempDir Path dir) throws Exception {
    Path objects = dir.resolve("objects.txt");
    Files.writeString(
        objects,
        "/api/v1/namespaces {\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
            + "\"metadata\":{\"name\":\"load\"}}\n"
            + NS
            + " {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"one\"},"
            + "\"data\":{\"k\":\"v\"}}\n");
    KubernetesMockServer server = Fabric8MockServer.start(0, objects);
    try {
      String base = "http://127.0.0.1:" + server.getPort();
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

      HttpResponse<String> one = send(client, "GET", base + NS + "/one", "application/json", null);
      assertEquals(200, one.statusCode());
      assertTrue(one.body().contains("\"name\":\"one\""), one.body());

      HttpResponse<String> table =
          send(client, "GET", base + NS, "application/json;as=Table;v=v1;g=meta.k8s.io", null);
      assertEquals(200, table.statusCode());
      assertTrue(table.body().contains("\"kind\":\"List\""), table.body());

      HttpResponse<String> stale =
          send(
              client,
              "PUT",
              base + NS + "/one",
              "application/json",
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"one\","
                  + "\"resourceVersion\":\"1\"},\"data\":{\"k\":\"w\"}}");
      assertEquals(409, stale.statusCode());

      HttpResponse<String> watch =
          send(client, "GET", base + NS + "?watch=true", "application/json", null);
      assertEquals(400, watch.statusCode());
    } finally {
      server.destroy();
    }
  }

  private static HttpResponse<String> send(
      HttpClient client, String method, String url, String accept, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .header("Accept", accept)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
