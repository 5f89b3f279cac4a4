package dev.machinery.apiserver.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Validation ratcheting on custom resources, as kube-apiserver's (CRDValidationRatcheting, GA in
 * 1.33): after a definition's schema is made stricter, an object stored under the old schema may
 * still be updated as long as the values the new schema refuses are left as they are; a changed
 * value must pass.
 */
class RatchetingTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String crd(String replicas) {
    return """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"widgets.example.com"},
         "spec":{"group":"example.com","scope":"Namespaced",
          "names":{"plural":"widgets","kind":"Widget"},
          "versions":[{"name":"v1","served":true,"storage":true,
           "schema":{"openAPIV3Schema":{"type":"object","properties":{
            "spec":{"type":"object","properties":{
             "replicas":REPLICAS,
             "colour":{"type":"string"},
             "tags":{"type":"array","items":{"type":"string","maxLength":TAGS}}}}}}}}]}}
        """
        .replace("REPLICAS", replicas);
  }

  @Test
  void unchangedValuesPassAStricterSchemaChangedOnesDoNot() throws Exception {
    ApiServer server =
        ApiServer.builder(CustomResourceDefinitionsTest.SCHEME).customResourceDefinitions().build();
    String crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    assertEquals(
        201,
        request(server, "POST", crdPath, crd("{\"type\":\"integer\"}").replace("TAGS", "20"), null)
            .status());
    await(server, "/apis/example.com/v1/namespaces/default/widgets", 200);
    String widget = "/apis/example.com/v1/namespaces/default/widgets/w";
    ApiResponse created =
        request(
            server,
            "POST",
            "/apis/example.com/v1/namespaces/default/widgets",
            "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                + "\"spec\":{\"replicas\":20,\"colour\":\"red\",\"tags\":[\"a-long-tag\"]}}",
            null);
    assertEquals(201, created.status(), text(created));

    // The definition's controller may still be writing its status: read and write again on a
    // conflict, as a client does.
    int status = 409;
    for (int attempt = 0; attempt < 50 && status == 409; attempt++) {
      JsonNode stored =
          JSON.readTree(
              request(server, "GET", crdPath + "/widgets.example.com", null, null).body());
      ((com.fasterxml.jackson.databind.node.ObjectNode) stored)
          .set(
              "spec",
              JSON.readTree(crd("{\"type\":\"integer\",\"maximum\":10}").replace("TAGS", "5"))
                  .get("spec"));
      status =
          request(server, "PUT", crdPath + "/widgets.example.com", stored.toString(), null)
              .status();
    }
    assertEquals(200, status);
    // The definition changes while the server runs: wait until the new schema refuses a new object.
    await(server, null, 0);
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      ApiResponse fresh =
          request(
              server,
              "POST",
              "/apis/example.com/v1/namespaces/default/widgets",
              "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"probe\"},"
                  + "\"spec\":{\"replicas\":20}}",
              null);
      if (fresh.status() == 422) {
        break;
      }
      request(
          server, "DELETE", "/apis/example.com/v1/namespaces/default/widgets/probe", null, null);
      Thread.sleep(20);
    }

    ApiResponse otherField =
        request(
            server,
            "PATCH",
            widget,
            "{\"spec\":{\"colour\":\"blue\"}}",
            "application/merge-patch+json");
    assertEquals(200, otherField.status(), "unchanged invalid values ratchet: " + text(otherField));
    ApiResponse raised =
        request(
            server,
            "PATCH",
            widget,
            "{\"spec\":{\"replicas\":30}}",
            "application/merge-patch+json");
    assertEquals(422, raised.status(), text(raised));
    assertTrue(
        text(raised)
            .contains(
                "spec.replicas: Invalid value: 30: spec.replicas in body should be less"
                    + " than or equal to 10"),
        text(raised));
    ApiResponse newTag =
        request(
            server,
            "PATCH",
            widget,
            "{\"spec\":{\"tags\":[\"a-long-tag\",\"another-long-one\"]}}",
            "application/merge-patch+json");
    assertEquals(422, newTag.status(), "a new list item is checked: " + text(newTag));
    assertTrue(text(newTag).contains("spec.tags[1]"), text(newTag));
    assertTrue(
        !text(newTag).contains("spec.tags[0]"), "the unchanged item ratchets: " + text(newTag));
    ApiResponse lowered =
        request(
            server, "PATCH", widget, "{\"spec\":{\"replicas\":5}}", "application/merge-patch+json");
    assertEquals(200, lowered.status(), text(lowered));
  }

  @Test
  void fieldPathsAreReadAsKubernetesWritesThem() {
    assertEquals(List.of("spec", "items", 2, "name"), Ratcheting.parse("spec.items[2].name"));
    assertEquals(List.of("metadata", "labels", "app"), Ratcheting.parse("metadata.labels[app]"));
    assertEquals(List.of(), Ratcheting.parse("<nil>"));
    assertEquals(null, Ratcheting.parse("spec.items[2"));
    assertEquals(Arrays.asList("a"), Ratcheting.parse("a"));
  }

  private static void await(ApiServer server, String path, int status) throws Exception {
    if (path == null) {
      return;
    }
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline
        && request(server, "GET", path, null, null).status() != status) {
      Thread.sleep(10);
    }
  }

  private static ApiResponse request(
      ApiServer server, String method, String path, String body, String contentType) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            body == null
                ? Map.of()
                : Map.of(
                    "Content-Type",
                    List.of(contentType == null ? "application/json" : contentType)),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
