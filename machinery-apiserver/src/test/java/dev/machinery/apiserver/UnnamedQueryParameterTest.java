package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A query parameter without a name ({@code ?=x}) is no field of the options, and is ignored as Go's
 * parameter codec ignores such parameters; a LIST and a DELETE with one were answered {@code 500}
 * (the options' reader took the name's first letter).
 */
class UnnamedQueryParameterTest {
  @ParameterizedTest
  @ValueSource(strings = {"=x", "=x&limit=1", "limit=1&="})
  void aListOrDeleteWithAParameterWithoutANameIsServed(String query) throws Exception {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    try (ApiServer server =
            ApiServer.builder(scheme)
                .addResource(
                    ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
                .build();
        JdkHttpBinding binding =
            server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      HttpClient client = HttpClient.newHttpClient();
      String roles =
          "http://127.0.0.1:"
              + binding.port()
              + "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles";
      HttpResponse<String> list =
          client.send(
              HttpRequest.newBuilder(URI.create(roles + "?" + query)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, list.statusCode(), list.body());
      HttpResponse<String> delete =
          client.send(
              HttpRequest.newBuilder(URI.create(roles + "?" + query)).DELETE().build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, delete.statusCode(), delete.body());
    }
  }
}
