package dev.machinery.apiserver.storage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageKeys;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.apiserver.storage.encryption.EncryptionConfiguration;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Encryption at rest through a server over a {@link Storage}, as kube-apiserver's encryption tests
 * and its documented key rotation go: values of the configured resource are kept encrypted under
 * the first key (and others as they are), read back in the clear; a server started with a new first
 * key reads the old values and rewrites each one that is replaced unchanged (the {@code kubectl get
 * -o json | kubectl replace -f -} step); a server whose keys cannot read a value answers a 500
 * naming the key and the resource for it, and goes on serving every other object. Extend it and
 * return a fresh, empty store from {@link #newStorage()}; override {@link #storageMediaType()} to
 * run it with the values below the encryption written in protobuf.
 */
public abstract class EncryptionAtRestContract {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Scheme SCHEME =
      RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
  private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";
  private static final String CLUSTER_ROLES = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
  private static final String KEY1 = "c2VjcmV0IGlzIHNlY3VyZQ==";
  private static final String KEY2 = "dGhpcyBpcyBwYXNzd29yZA==";
  private static final String KEY3 = "MDEyMzQ1Njc4OWFiY2RlZg==";

  private Storage storage;

  /**
   * Returns a new, empty store.
   *
   * @return the store
   */
  protected abstract Storage newStorage();

  /**
   * Returns the media type the servers store values in, below the encryption ({@link
   * StorageMediaType#JSON} unless overridden).
   *
   * @return the media type
   */
  protected StorageMediaType storageMediaType() {
    return StorageMediaType.JSON;
  }

  /** How a value the server stores without encryption starts: JSON's brace, or protobuf's magic. */
  private String plainStart() {
    return storageMediaType() == StorageMediaType.PROTOBUF ? "k8s\0" : "{";
  }

  @BeforeEach
  void open() {
    storage = newStorage();
  }

  @AfterEach
  void closeStorage() {
    storage.close();
  }

  private static EncryptionConfiguration config(String providers) {
    return EncryptionConfiguration.parse(
        ("kind: EncryptionConfiguration\n"
                + "apiVersion: apiserver.config.k8s.io/v1\n"
                + "resources:\n"
                + "- resources: [roles.rbac.authorization.k8s.io]\n"
                + "  providers:\n"
                + providers)
            .getBytes(StandardCharsets.UTF_8),
        "test");
  }

  private static String aescbc(String... keys) {
    StringBuilder out = new StringBuilder("  - aescbc:\n      keys:\n");
    for (int i = 0; i < keys.length; i += 2) {
      out.append("      - name: ").append(keys[i]).append('\n');
      out.append("        secret: ").append(keys[i + 1]).append('\n');
    }
    return out.toString();
  }

  private ApiServer server(EncryptionConfiguration config) {
    return ApiServer.builder(SCHEME)
        .storage(storage)
        .storageMediaType(storageMediaType())
        .encryption(config)
        .addResource(ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
        .addResource(
            ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "ClusterRole"), false).build())
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

  private static String role(String kind, String name) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\""
        + kind
        + "\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"secrets\"],"
        + "\"verbs\":[\"get\"]}]}";
  }

  private String raw(String name) {
    String key =
        StorageKeys.objectKey(
            StorageKeys.resourcePrefix(GroupResource.of(RbacV1.GROUP, "roles")), "ns", name);
    return new String(storage.get(key).orElseThrow().value(), StandardCharsets.ISO_8859_1);
  }

  private void create(ApiServer server, String path, String body) {
    ApiResponse created = call(server, "POST", path, body);
    assertEquals(201, created.status(), text(created));
  }

  @Test
  void valuesAreStoredUnderTheFirstKeyAndReadInTheClear() throws IOException {
    try (ApiServer server = server(config(aescbc("key1", KEY1)))) {
      create(server, ROLES, role("Role", "r1"));
      create(server, CLUSTER_ROLES, role("ClusterRole", "c1"));
      String stored = raw("r1");
      assertTrue(stored.startsWith("k8s:enc:aescbc:v1:key1:"), stored);
      assertFalse(stored.contains("secrets"), "the rules are not kept in the clear");
      ApiResponse got = call(server, "GET", ROLES + "/r1", null);
      assertEquals(200, got.status(), text(got));
      assertEquals(
          "secrets",
          JSON.readTree(got.body()).path("rules").get(0).path("resources").get(0).asText());
      ApiResponse list = call(server, "GET", ROLES, null);
      assertEquals(1, JSON.readTree(list.body()).path("items").size(), text(list));
      String clusterKey =
          StorageKeys.objectKey(
              StorageKeys.resourcePrefix(GroupResource.of(RbacV1.GROUP, "clusterroles")),
              null,
              "c1");
      assertTrue(
          new String(storage.get(clusterKey).orElseThrow().value(), StandardCharsets.ISO_8859_1)
              .startsWith(plainStart()),
          "a resource the configuration does not name is stored as it is");
    }
  }

  /** kube's documented rotation: a new first key, then every object replaced unchanged. */
  @Test
  void aNewFirstKeyReadsOldValuesAndAReplaceRewritesThem() throws IOException {
    try (ApiServer first = server(config(aescbc("key1", KEY1)))) {
      create(first, ROLES, role("Role", "r1"));
      create(first, ROLES, role("Role", "r2"));
    }
    try (ApiServer second = server(config(aescbc("key2", KEY2, "key1", KEY1)))) {
      ApiResponse got = call(second, "GET", ROLES + "/r1", null);
      assertEquals(200, got.status(), text(got));
      assertTrue(raw("r1").startsWith("k8s:enc:aescbc:v1:key1:"));
      String before = JSON.readTree(got.body()).path("metadata").path("resourceVersion").asText();
      ApiResponse replaced = call(second, "PUT", ROLES + "/r1", text(got));
      assertEquals(200, replaced.status(), text(replaced));
      assertTrue(raw("r1").startsWith("k8s:enc:aescbc:v1:key2:"), raw("r1"));
      JsonNode after = JSON.readTree(replaced.body());
      assertFalse(
          before.equals(after.path("metadata").path("resourceVersion").asText()),
          "the stale value was written again");
      // A value already under the first key is not written again by an unchanged replace.
      ApiResponse again = call(second, "GET", ROLES + "/r1", null);
      ApiResponse same = call(second, "PUT", ROLES + "/r1", text(again));
      assertEquals(
          JSON.readTree(again.body()).path("metadata").path("resourceVersion").asText(),
          JSON.readTree(same.body()).path("metadata").path("resourceVersion").asText());
      assertTrue(raw("r2").startsWith("k8s:enc:aescbc:v1:key1:"));
    }
    // Once every value is rewritten, the old key can go.
    try (ApiServer second = server(config(aescbc("key2", KEY2, "key1", KEY1)))) {
      ApiResponse got = call(second, "GET", ROLES + "/r2", null);
      assertEquals(200, call(second, "PUT", ROLES + "/r2", text(got)).status());
    }
    try (ApiServer third = server(config(aescbc("key2", KEY2)))) {
      ApiResponse list = call(third, "GET", ROLES, null);
      assertEquals(200, list.status(), text(list));
      assertEquals(2, JSON.readTree(list.body()).path("items").size());
    }
  }

  /** Moving away from encryption: identity first reads encrypted values and writes plain ones. */
  @Test
  void identityFirstDecryptsOnRewrite() throws IOException {
    try (ApiServer first = server(config(aescbc("key1", KEY1)))) {
      create(first, ROLES, role("Role", "r1"));
    }
    try (ApiServer plain = server(config("  - identity: {}\n" + aescbc("key1", KEY1)))) {
      ApiResponse got = call(plain, "GET", ROLES + "/r1", null);
      assertEquals(200, got.status(), text(got));
      assertEquals(200, call(plain, "PUT", ROLES + "/r1", text(got)).status());
      assertTrue(raw("r1").startsWith(plainStart()), raw("r1"));
    }
  }

  @Test
  void aValueNoKeyReadsIsAClearErrorAndTheRestIsServed() throws IOException {
    try (ApiServer first = server(config(aescbc("key1", KEY1)))) {
      create(first, ROLES, role("Role", "r1"));
      create(first, CLUSTER_ROLES, role("ClusterRole", "c1"));
    }
    try (ApiServer wrong = server(config(aescbc("key3", KEY3)))) {
      ApiResponse got = call(wrong, "GET", ROLES + "/r1", null);
      assertEquals(500, got.status(), text(got));
      JsonNode status = JSON.readTree(got.body());
      assertEquals("InternalError", status.path("reason").asText());
      String message = status.path("message").asText();
      assertTrue(message.contains("/registry/roles/ns/r1"), message);
      assertTrue(message.contains("roles.rbac.authorization.k8s.io"), message);
      assertTrue(message.contains("no matching key was found"), message);

      ApiResponse list = call(wrong, "GET", ROLES, null);
      assertEquals(500, list.status(), text(list));

      create(wrong, ROLES, role("Role", "r2"));
      ApiResponse r2 = call(wrong, "GET", ROLES + "/r2", null);
      assertEquals(200, r2.status(), text(r2));
      ApiResponse c1 = call(wrong, "GET", CLUSTER_ROLES + "/c1", null);
      assertEquals(200, c1.status(), text(c1));
    }
  }
}
