package com.example.widgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A user's own kinds served by machinery-apiserver, from the published artifacts and the BOM. */
class WidgetServerTest {
  private static ApiServer server() {
    Scheme.Builder builder = WidgetApi.builder();
    ResourceList.addToScheme(builder, "Widget", WidgetApi.V1, WidgetApi.V2);
    return ApiServer.builder(builder.build())
        .addResource(
            ResourceDefinition.builder(GroupKind.of(WidgetApi.GROUP, "Widget"), false)
                .shortNames("wd")
                .build())
        .build();
  }

  private static ApiResponse send(ApiServer server, String method, String path, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void aWidgetWrittenInV1IsReadInV2AndStoredInThePreferredVersion() throws Exception {
    ApiServer server = server();
    ApiResponse created =
        send(
            server,
            "POST",
            "/apis/widgets.example.com/v1/widgets",
            "{\"apiVersion\":\"widgets.example.com/v1\",\"kind\":\"Widget\","
                + "\"metadata\":{\"name\":\"gear\"},\"spec\":{\"owner\":\"ops\"}}");
    assertEquals(201, created.status(), new String(created.body(), StandardCharsets.UTF_8));
    String v2 =
        new String(
            send(server, "GET", "/apis/widgets.example.com/v2/widgets/gear", null).body(),
            StandardCharsets.UTF_8);
    assertTrue(v2.contains("\"apiVersion\":\"widgets.example.com/v2\""), v2);
    assertTrue(v2.contains("\"size\":1"), "defaulted: " + v2);
    // Written in the version it is stored in: no conversion runs, and it is defaulted all the same.
    ApiResponse sprocket =
        send(
            server,
            "POST",
            "/apis/widgets.example.com/v2/widgets",
            "{\"apiVersion\":\"widgets.example.com/v2\",\"kind\":\"Widget\","
                + "\"metadata\":{\"name\":\"sprocket\"},\"spec\":{}}");
    assertEquals(201, sprocket.status(), new String(sprocket.body(), StandardCharsets.UTF_8));
    String stored = new String(sprocket.body(), StandardCharsets.UTF_8);
    assertTrue(stored.contains("\"size\":1"), "defaulted: " + stored);
    ApiResponse missing = send(server, "GET", "/apis/widgets.example.com/v1/widgets/none", null);
    assertEquals(404, missing.status());
    String notFound = new String(missing.body(), StandardCharsets.UTF_8);
    assertTrue(notFound.contains("widgets.widgets.example.com \\\"none\\\" not found"), notFound);

    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      HttpURLConnection connection =
          (HttpURLConnection)
              new URL("http://127.0.0.1:" + binding.port() + "/apis/widgets.example.com/v1/widgets")
                  .openConnection();
      assertEquals(200, connection.getResponseCode());
      try (InputStream in = connection.getInputStream()) {
        String list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(list.contains("\"kind\":\"WidgetList\""), list);
        assertTrue(list.contains("\"name\":\"gear\""), list);
      }
    }
  }
}
