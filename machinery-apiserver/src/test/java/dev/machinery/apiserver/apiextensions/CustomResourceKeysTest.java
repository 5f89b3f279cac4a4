package dev.machinery.apiserver.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where a CustomResourceDefinition and its objects are kept, as apiextensions-apiserver keeps them
 * (Kubernetes' test/integration/etcd/data.go): the definition under {@code
 * apiextensions.k8s.io/customresourcedefinitions/NAME}, its objects under {@code
 * GROUP/PLURAL/NAMESPACE/NAME}; deleting the definition deletes the objects under that prefix.
 */
@Timeout(60)
class CustomResourceKeysTest {
  @Test
  void aDefinitionAndItsObjectsAreUnderApiextensionsKeys() throws Exception {
    ApiServer server =
        ApiServer.builder(CustomResourceDefinitionsTest.SCHEME).customResourceDefinitions().build();
    try {
      ApiResponse crd =
          request(
              server,
              "POST",
              "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
              "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                  + "\"metadata\":{\"name\":\"foos.cr.bar.com\"},\"spec\":{\"group\":\"cr.bar.com\","
                  + "\"scope\":\"Namespaced\",\"names\":{\"plural\":\"foos\",\"kind\":\"Foo\"},"
                  + "\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":"
                  + "{\"openAPIV3Schema\":{\"type\":\"object\","
                  + "\"x-kubernetes-preserve-unknown-fields\":true}}}]}}");
      assertEquals(201, crd.status(), text(crd));
      String path = "/apis/cr.bar.com/v1/namespaces/default/foos";
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (System.nanoTime() < deadline && request(server, "GET", path, null).status() != 200) {
        Thread.sleep(10);
      }
      ApiResponse created =
          request(
              server,
              "POST",
              path,
              "{\"apiVersion\":\"cr.bar.com/v1\",\"kind\":\"Foo\",\"metadata\":{\"name\":\"cr1foo\"}}");
      assertEquals(201, created.status(), text(created));
      assertEquals(
          Set.of(
              "apiextensions.k8s.io/customresourcedefinitions/foos.cr.bar.com",
              "cr.bar.com/foos/default/cr1foo"),
          keys(server));

      ApiResponse deleted =
          request(
              server,
              "DELETE",
              "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.cr.bar.com",
              null);
      assertEquals(200, deleted.status(), text(deleted));
      while (System.nanoTime() < deadline && !keys(server).isEmpty()) {
        Thread.sleep(10);
      }
      assertTrue(keys(server).isEmpty(), "left after the definition went: " + keys(server));
    } finally {
      server.storage().close();
    }
  }

  private static Set<String> keys(ApiServer server) {
    Set<String> keys = new TreeSet<>();
    server.storage().list("", 0, null, 0).items().forEach(kv -> keys.add(kv.key()));
    return keys;
  }

  private static ApiResponse request(ApiServer server, String method, String path, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
