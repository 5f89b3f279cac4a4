package dev.machinery.apiserver.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FilterTest {
  private static RequestContext request(String path) {
    return RequestContext.received(
        new ApiRequest("GET", path, Map.of(), Map.of(), new ByteArrayInputStream(new byte[0])),
        Instant.EPOCH);
  }

  private static String body(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  @Test
  void filtersRunInTheOrderGivenAroundTheHandler() {
    List<String> seen = new ArrayList<>();
    Filter first =
        (request, next) -> {
          seen.add("first in");
          ApiResponse response = next.handle(request);
          seen.add("first out");
          return response;
        };
    Filter second =
        (request, next) -> {
          seen.add("second in");
          ApiResponse response = next.handle(request);
          seen.add("second out");
          return response;
        };
    Filter.Handler chain =
        Filter.chain(
            List.of(first, second),
            request -> {
              seen.add("handler");
              return ApiResponse.of(200, "text/plain", new byte[0]);
            });
    assertEquals(200, chain.handle(request("/version")).status());
    assertEquals(List.of("first in", "second in", "handler", "second out", "first out"), seen);
  }

  @Test
  void aFilterHandsTheNextStepWhatItLearnt() {
    UserInfo alice = UserInfo.of("alice", List.of("system:authenticated"));
    Filter authenticate = (request, next) -> next.handle(request.withUser(alice));
    Filter.Handler chain =
        Filter.chain(
            List.of(authenticate),
            request ->
                ApiResponse.of(
                    200,
                    "text/plain",
                    (request.user().name() + " " + request.attributes().verb())
                        .getBytes(StandardCharsets.UTF_8)));
    assertEquals(
        "alice list", body(chain.handle(request("/api/v1/namespaces/default/configmaps"))));
  }

  @Test
  void aFilterThatAnswersEndsTheChain() {
    Filter refuse = (request, next) -> ApiResponse.of(403, "text/plain", new byte[0]);
    Filter.Handler chain =
        Filter.chain(
            List.of(refuse),
            request -> {
              throw new AssertionError("the handler ran after a refusal");
            });
    assertEquals(403, chain.handle(request("/api")).status());
  }

  @Test
  void theContextParsesThePathOnce() {
    RequestContext context = request("/apis/apps/v1/namespaces/demo/deployments/hello/scale");
    assertEquals("apps", context.info().orElseThrow().group());
    assertEquals("scale", context.info().orElseThrow().subresource());
    assertEquals(true, request("/version").info().isEmpty());
    assertEquals(
        "the request is not authenticated yet",
        assertThrows(IllegalStateException.class, context::user).getMessage());
    assertEquals(
        "the request is not authenticated yet",
        assertThrows(IllegalStateException.class, context::attributes).getMessage());
  }

  @Test
  void aHeaderFieldLimitMustBePositive() {
    Failures failures =
        new Failures(CodecFactory.create(MetaV1.addToScheme(Scheme.builder()).build()).json());
    assertEquals(
        "the header field limit must be positive",
        assertThrows(IllegalArgumentException.class, () -> new HeaderLimitFilter(0, failures))
            .getMessage());
    Filter.Handler chain =
        Filter.chain(
            List.of(new HeaderLimitFilter(1, failures)),
            request -> ApiResponse.of(200, "text/plain", new byte[0]));
    ApiResponse refused =
        chain.handle(
            RequestContext.received(
                new ApiRequest(
                    "GET",
                    "/version",
                    Map.of(),
                    Map.of("A", List.of("1"), "B", List.of("2")),
                    new ByteArrayInputStream(new byte[0])),
                Instant.EPOCH));
    assertEquals(431, refused.status());
    assertEquals(
        true,
        body(refused)
            .contains("\"message\":\"the request has 2 header fields; at most 1 are read\""),
        body(refused));
  }
}
