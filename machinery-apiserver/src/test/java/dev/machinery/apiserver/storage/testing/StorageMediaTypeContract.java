package dev.machinery.apiserver.storage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageKeys;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A store whose server changes its storage media type ({@code --storage-media-type}): values
 * written in one are read in the other (a GET, a LIST, a watch from before the switch), new values
 * are written in the new one, an update that changes nothing leaves a value already in the current
 * media type as it is (no new revision) and rewrites one in the other, as kube-apiserver compares
 * the stored bytes. Run each way: JSON to protobuf and protobuf to JSON. Extend it and return a
 * fresh, empty store from {@link #newStorage()}.
 */
public abstract class StorageMediaTypeContract {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Scheme SCHEME =
      RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
  private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";

  private Storage storage;

  /**
   * Returns a new, empty store.
   *
   * @return the store
   */
  protected abstract Storage newStorage();

  @BeforeEach
  void open() {
    storage = newStorage();
  }

  @AfterEach
  void closeStorage() {
    storage.close();
  }

  private ApiServer server(StorageMediaType mediaType) {
    return ApiServer.builder(SCHEME)
        .storage(storage)
        .storageMediaType(mediaType)
        .addResource(ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
        .build();
  }

  private static ApiResponse call(ApiServer server, String method, String path, String body) {
    return server.handleAs(
        ROOT,
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  private static String role(String name, String verb) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
        + "\"metadata\":{\"name\":\""
        + name
        + "\"},\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"secrets\"],"
        + "\"verbs\":[\""
        + verb
        + "\"]}]}";
  }

  private byte[] raw(String name) {
    String key =
        StorageKeys.objectKey(
            StorageKeys.resourcePrefix(GroupResource.of(RbacV1.GROUP, "roles")), "ns", name);
    return storage.get(key).orElseThrow().value();
  }

  private void assertStoredIn(StorageMediaType mediaType, String name) {
    String value = new String(raw(name), StandardCharsets.ISO_8859_1);
    assertTrue(
        value.startsWith(mediaType == StorageMediaType.PROTOBUF ? "k8s\0" : "{"),
        name + " is stored in " + mediaType + ": " + value);
  }

  private static JsonNode json(ApiResponse response) throws IOException {
    assertTrue(response.status() < 300, response.status() + " " + text(response));
    return JSON.readTree(response.body());
  }

  private static String resourceVersion(JsonNode object) {
    return object.path("metadata").path("resourceVersion").asText();
  }

  private static StorageMediaType other(StorageMediaType mediaType) {
    return mediaType == StorageMediaType.JSON ? StorageMediaType.PROTOBUF : StorageMediaType.JSON;
  }

  @ParameterizedTest
  @EnumSource(StorageMediaType.class)
  void valuesWrittenBeforeASwitchReadAfterIt(StorageMediaType before) throws IOException {
    StorageMediaType after = other(before);
    String created;
    String changed;
    try (ApiServer first = server(before)) {
      created = resourceVersion(json(call(first, "POST", ROLES, role("r1", "get"))));
      JsonNode r1 = json(call(first, "GET", ROLES + "/r1", null));
      ((com.fasterxml.jackson.databind.node.ObjectNode) r1.path("rules").get(0))
          .putArray("verbs")
          .add("list");
      changed = resourceVersion(json(call(first, "PUT", ROLES + "/r1", r1.toString())));
      json(call(first, "POST", ROLES, role("r2", "get")));
      assertStoredIn(before, "r1");
    }
    try (ApiServer second = server(after)) {
      JsonNode r1 = json(call(second, "GET", ROLES + "/r1", null));
      assertEquals(changed, resourceVersion(r1));
      assertEquals("list", r1.path("rules").get(0).path("verbs").get(0).asText());
      assertEquals("ns", r1.path("metadata").path("namespace").asText());
      JsonNode list = json(call(second, "GET", ROLES, null));
      assertEquals(2, list.path("items").size(), list.toString());
      // A watch from before the change sees it, decoded from the other media type.
      List<String> events = watch(second, created, 1);
      assertEquals(1, events.size(), events.toString());
      JsonNode event = JSON.readTree(events.get(0));
      assertEquals("MODIFIED", event.path("type").asText());
      assertEquals(changed, resourceVersion(event.path("object")));
      assertEquals("list", event.path("object").path("rules").get(0).path("verbs").get(0).asText());

      // New values are written in the new media type.
      json(call(second, "POST", ROLES, role("r3", "get")));
      assertStoredIn(after, "r3");
      JsonNode r3 = json(call(second, "GET", ROLES + "/r3", null));
      assertEquals(
          resourceVersion(r3),
          resourceVersion(json(call(second, "PUT", ROLES + "/r3", r3.toString()))),
          "an update that changes nothing is no new revision");

      // An unchanged update of a value in the other media type rewrites it, as kube-apiserver does.
      JsonNode rewritten = json(call(second, "PUT", ROLES + "/r1", r1.toString()));
      assertNotEquals(changed, resourceVersion(rewritten));
      assertStoredIn(after, "r1");
      assertEquals(
          resourceVersion(rewritten),
          resourceVersion(json(call(second, "PUT", ROLES + "/r1", rewritten.toString()))),
          "once rewritten, an unchanged update is no new revision");
      assertStoredIn(before, "r2");
    }
    try (ApiServer back = server(before)) {
      JsonNode list = json(call(back, "GET", ROLES, null));
      assertEquals(3, list.path("items").size(), list.toString());
      assertEquals(
          "list",
          json(call(back, "GET", ROLES + "/r1", null))
              .path("rules")
              .get(0)
              .path("verbs")
              .get(0)
              .asText());
    }
  }

  /** The first events of a watch of the roles from a resourceVersion, over HTTP. */
  private static List<String> watch(ApiServer server, String from, int count) throws IOException {
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      HttpResponse<Stream<String>> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + binding.port()
                                  + ROLES
                                  + "?watch=true&resourceVersion="
                                  + from))
                      .timeout(Duration.ofSeconds(20))
                      .build(),
                  HttpResponse.BodyHandlers.ofLines());
      assertEquals(200, response.statusCode());
      try (Stream<String> lines = response.body()) {
        return lines.filter(l -> !l.isBlank()).limit(count).toList();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
