package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A list larger than the server keeps whole is written item by item from the items' kept encodings:
 * a streamed body with the bytes the list encoded whole has; a small list is one array.
 */
class LargeListStreamTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final GroupVersion X = GroupVersion.of("x.dev", "v1");
  private static final String WIDGETS = "/apis/x.dev/v1/namespaces/ns/widgets";

  private final ApiServer server =
      ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build())
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

  private ApiResponse call(
      String method, String path, Map<String, List<String>> query, String body) {
    return server.handleAs(
        UserInfo.of("root", List.of("system:masters")),
        new ApiRequest(
            method,
            path,
            query,
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static byte[] body(ApiResponse response) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    response.writeBody(out);
    return out.toByteArray();
  }

  @Test
  void aListLargerThanKeptWholeIsStreamedWithTheSameBytes() throws Exception {
    String filler = "x".repeat(8_000);
    for (int i = 0; i < 600; i++) {
      ApiResponse created =
          call(
              "POST",
              WIDGETS,
              Map.of(),
              "{\"apiVersion\":\"x.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w"
                  + i
                  + "\"},\"spec\":{\"filler\":\""
                  + filler
                  + "\"}}");
      assertEquals(201, created.status(), new String(created.body(), StandardCharsets.UTF_8));
    }
    for (String resourceVersion : new String[] {"0", ""}) {
      ApiResponse streamed =
          call("GET", WIDGETS, Map.of("resourceVersion", List.of(resourceVersion)), null);
      assertEquals(200, streamed.status());
      assertTrue(streamed.isStreaming(), "a list of about 4.8 MB");
      byte[] bytes = body(streamed);
      assertTrue(bytes.length > 4 << 20, "size " + bytes.length);
      ApiResponse whole =
          call(
              "GET",
              WIDGETS,
              Map.of("resourceVersion", List.of(resourceVersion), "pretty", List.of("true")),
              null);
      assertFalse(whole.isStreaming(), "a pretty list is encoded whole");
      JsonNode expected = JSON.readTree(whole.body());
      assertEquals(expected, JSON.readTree(bytes), "rv " + resourceVersion);
      assertEquals(600, expected.path("items").size());
      // The same bytes as the compact encoding of the whole list.
      assertEquals(
          new String(JSON.writeValueAsBytes(expected), StandardCharsets.UTF_8),
          new String(bytes, StandardCharsets.UTF_8));
    }
    ApiResponse page = call("GET", WIDGETS, Map.of("limit", List.of("10")), null);
    assertFalse(page.isStreaming(), "a page of ten is one array");
    assertEquals(10, JSON.readTree(page.body()).path("items").size());
  }
}
