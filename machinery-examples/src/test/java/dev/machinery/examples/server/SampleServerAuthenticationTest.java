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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample server's authentication as {@link ApiServer#handle} answers it: the 401 Status, the
 * SelfSubjectReview in each version kubectl asks for, and the loopback user of in-process loaders.
 */
class SampleServerAuthenticationTest {
  @TempDir Path dir;

  private ApiServer server(boolean anonymous) throws Exception {
    Path tokens = dir.resolve("tokens.csv");
    Files.writeString(tokens, "tok-bob,bob,uid-bob,\"devs,qa\"\n");
    ApiServer.Builder builder =
        SampleServer.builder(
            Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100);
    SampleServer.configureSecurity(
        builder, Map.of("--token-auth-file", tokens.toString()), anonymous);
    ApiServer server = builder.build();
    SampleServer.loadSamples(server);
    return server;
  }

  private static ApiResponse call(ApiServer server, String method, String path, String token) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            token == null
                ? Map.of("Content-Type", List.of("application/json"))
                : Map.of(
                    "Authorization",
                    List.of("Bearer " + token),
                    "Content-Type",
                    List.of("application/json")),
            new ByteArrayInputStream(
                "{\"kind\":\"SelfSubjectReview\"}".getBytes(StandardCharsets.UTF_8))));
  }

  private static String body(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  @Test
  void badCredentialsAreA401Status() throws Exception {
    String unauthorized =
        "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";
    ApiResponse badToken = call(server(true), "GET", "/api/v1/namespaces", "nope");
    assertEquals(401, badToken.status());
    assertEquals(unauthorized, body(badToken).strip());
    ApiResponse none = call(server(false), "GET", "/api/v1/namespaces", null);
    assertEquals(401, none.status());
    assertEquals(unauthorized, body(none).strip());
    assertEquals(200, call(server(false), "GET", "/api/v1/namespaces", "tok-bob").status());
    assertEquals(200, call(server(true), "GET", "/api/v1/namespaces", null).status());
  }

  @Test
  void selfSubjectReviewTellsTheUserInEachVersion() throws Exception {
    ApiServer server = server(true);
    for (String version : List.of("v1", "v1beta1", "v1alpha1")) {
      ApiResponse bob =
          call(
              server,
              "POST",
              "/apis/authentication.k8s.io/" + version + "/selfsubjectreviews",
              "tok-bob");
      assertEquals(201, bob.status());
      assertEquals(
          "{\"kind\":\"SelfSubjectReview\",\"apiVersion\":\"authentication.k8s.io/"
              + version
              + "\",\"metadata\":{\"creationTimestamp\":null},\"status\":{\"userInfo\":"
              + "{\"username\":\"bob\",\"uid\":\"uid-bob\","
              + "\"groups\":[\"devs\",\"qa\",\"system:authenticated\"]}}}",
          body(bob).strip());
    }
    ApiResponse anonymous =
        call(server, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", null);
    assertTrue(
        body(anonymous)
            .contains(
                "{\"username\":\"system:anonymous\",\"groups\":[\"system:unauthenticated\"]}"),
        body(anonymous));
    ApiResponse get =
        call(server, "GET", "/apis/authentication.k8s.io/v1/selfsubjectreviews", null);
    assertEquals(405, get.status(), body(get));
  }

  @Test
  void aClientCertificateCannotBeClaimedByAHeader() throws Exception {
    ApiServer server = server(false);
    ApiResponse response =
        server.handle(
            new ApiRequest(
                "GET",
                "/api/v1/namespaces",
                Map.of(),
                Map.of(
                    "X-Remote-User", List.of("admin"),
                    "X-Client-Certificate", List.of("CN=admin"),
                    "Impersonate-User", List.of("admin")),
                new ByteArrayInputStream(new byte[0])));
    assertEquals(401, response.status());
  }
}
