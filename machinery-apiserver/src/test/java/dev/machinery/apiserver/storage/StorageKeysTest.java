package dev.machinery.apiserver.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The key layout below the store's prefix. The expected key of every built-in resource is checked
 * against Kubernetes' own table in machinery-builtins' {@code EtcdKeyLayoutTest}; here, what that
 * table does not cover: other groups, custom resources in any group, the refusals, and the keys a
 * server writes into a {@link MemoryStorage}.
 */
@Timeout(60)
class StorageKeysTest {
  @Test
  void kubernetesGroupsAreKeptUnderTheResourceName() {
    assertEquals("configmaps/", StorageKeys.resourcePrefix(GroupResource.of("", "configmaps")));
    assertEquals(
        "deployments/", StorageKeys.resourcePrefix(GroupResource.of("apps", "deployments")));
    assertEquals("services/specs/", StorageKeys.resourcePrefix(GroupResource.of("", "services")));
    assertEquals(
        "apiextensions.k8s.io/customresourcedefinitions/",
        StorageKeys.resourcePrefix(
            GroupResource.of("apiextensions.k8s.io", "customresourcedefinitions")));
  }

  @Test
  void anyOtherGroupIsKeptUnderGroupAndResource() {
    assertEquals(
        "example.dev/widgets/",
        StorageKeys.resourcePrefix(GroupResource.of("example.dev", "widgets")));
    assertEquals(
        "gateway.networking.k8s.io/gateways/",
        StorageKeys.resourcePrefix(GroupResource.of("gateway.networking.k8s.io", "gateways")));
  }

  @Test
  void aCustomResourceIsUnderItsGroupWhateverTheGroup() {
    assertEquals("example.com/foos/", StorageKeys.customResourcePrefix("example.com", "foos"));
    assertEquals(
        "networking.k8s.io/foos/",
        StorageKeys.customResourcePrefix("networking.k8s.io", "foos"),
        "an approved CRD in a Kubernetes group is still kept as a custom resource");
  }

  @Test
  void objectKeysAndNamespacePrefixes() {
    assertEquals("configmaps/ns/cm", StorageKeys.objectKey("configmaps/", "ns", "cm"));
    assertEquals("clusterroles/admin", StorageKeys.objectKey("clusterroles/", null, "admin"));
    assertEquals("configmaps/ns/", StorageKeys.namespacePrefix("configmaps/", "ns"));
    assertEquals("configmaps/", StorageKeys.namespacePrefix("configmaps/", ""));
    assertEquals("configmaps/", StorageKeys.namespacePrefix("configmaps/", null));
  }

  @Test
  void aSegmentThatIsEmptyOrHoldsASlashIsRefused() {
    assertEquals(
        "the resource of a storage key is empty",
        assertThrows(
                IllegalArgumentException.class,
                () -> StorageKeys.resourcePrefix(GroupResource.of("apps", "")))
            .getMessage());
    assertEquals(
        "the group of a storage key holds a '/': a/b",
        assertThrows(
                IllegalArgumentException.class,
                () -> StorageKeys.customResourcePrefix("a/b", "foos"))
            .getMessage());
    assertEquals(
        "the plural of a storage key is empty",
        assertThrows(
                IllegalArgumentException.class,
                () -> StorageKeys.customResourcePrefix("example.com", ""))
            .getMessage());
  }

  /** A server over a MemoryStorage writes the same keys as over etcd, without the prefix. */
  @Test
  void aServerWritesTheLayoutIntoMemoryStorage() {
    MemoryStorage storage = new MemoryStorage();
    ApiServer server =
        ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build())
            .storage(storage)
            .addUnstructuredResource(
                ResourceDefinition.builder(GroupKind.of("", "ConfigMap"), true).build(),
                GroupVersion.of("", "v1"),
                List.of(GroupVersion.of("", "v1")))
            .addUnstructuredResource(
                ResourceDefinition.builder(GroupKind.of("", "Service"), true).build(),
                GroupVersion.of("", "v1"),
                List.of(GroupVersion.of("", "v1")))
            .addUnstructuredResource(
                ResourceDefinition.builder(GroupKind.of("x.dev", "Thing"), false).build(),
                GroupVersion.of("x.dev", "v1"),
                List.of(GroupVersion.of("x.dev", "v1")))
            .build();
    try {
      create(server, "/api/v1/namespaces/default/configmaps", "v1", "ConfigMap", "cm1");
      create(server, "/api/v1/namespaces/default/services", "v1", "Service", "service1");
      create(server, "/apis/x.dev/v1/things", "x.dev/v1", "Thing", "t1");
      Set<String> keys = new TreeSet<>();
      storage.list("", 0, null, 0).items().forEach(kv -> keys.add(kv.key()));
      assertEquals(
          Set.of("configmaps/default/cm1", "services/specs/default/service1", "x.dev/things/t1"),
          keys);
    } finally {
      storage.close();
    }
  }

  private static void create(
      ApiServer server, String path, String apiVersion, String kind, String name) {
    String body =
        "{\"apiVersion\":\""
            + apiVersion
            + "\",\"kind\":\""
            + kind
            + "\",\"metadata\":{\"name\":\""
            + name
            + "\"}}";
    ApiResponse response =
        server.handle(
            new ApiRequest(
                "POST",
                path,
                Map.of(),
                Map.of("Content-Type", List.of("application/json")),
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
    assertTrue(
        response.status() == 201,
        path
            + ": "
            + response.status()
            + " "
            + new String(response.body(), StandardCharsets.UTF_8));
  }
}
