package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Requests answered by a server in process, as its HTTP bindings hand them over. */
final class Requests {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Requests() {}

  /**
   * A server of the built-in kinds with one namespace made.
   *
   * @param namespace the namespace's name
   */
  static ApiServer serverWithNamespace(String namespace) throws IOException {
    ApiServer server = BuiltinKinds.apiServer().build();
    ok(
        call(
            server,
            "POST",
            "/api/v1/namespaces",
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                + namespace
                + "\"}}"),
        201);
    return server;
  }

  /**
   * The answer's JSON body, once its status is the one expected (the body in the failure when not).
   */
  static JsonNode ok(ApiResponse response, int status) throws IOException {
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(status, response.status(), text);
    return JSON.readTree(text);
  }

  /** A request with a JSON body (or none) that accepts JSON. */
  static ApiResponse call(ApiServer server, String method, String path, String body) {
    return call(server, method, path, body, Map.of(), "application/json", "application/json");
  }

  /**
   * A request with query parameters, a body (or none) of a content type, and an Accept header.
   *
   * @param query each parameter's one value
   */
  static ApiResponse call(
      ApiServer server,
      String method,
      String path,
      String body,
      Map<String, String> query,
      String contentType,
      String accept) {
    Map<String, List<String>> parameters = new LinkedHashMap<>();
    query.forEach((name, value) -> parameters.put(name, List.of(value)));
    return server.handle(
        new ApiRequest(
            method,
            path,
            parameters,
            Map.of("Content-Type", List.of(contentType), "Accept", List.of(accept)),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }
}
