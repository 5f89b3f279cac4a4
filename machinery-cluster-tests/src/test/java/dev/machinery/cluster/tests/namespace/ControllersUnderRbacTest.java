package dev.machinery.cluster.tests.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.api.KubernetesApi;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The garbage collector and the namespace controller on a server that authorizes with RBAC: each
 * acts as its service account ({@code generic-garbage-collector}, {@code namespace-controller})
 * within kube's {@code system:controller:*} roles, while a user without rights is refused.
 */
class ControllersUnderRbacTest {
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final GroupVersionResource CONFIGMAPS =
      GroupVersionResource.of("", "v1", "configmaps");
  private static final GroupVersionResource NAMESPACES =
      GroupVersionResource.of("", "v1", "namespaces");

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < end) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(50);
    }
    fail("within " + DEADLINE + " never: " + what);
  }

  private static Unstructured object(String apiVersion, String kind, String ns, String name) {
    Unstructured object = new Unstructured();
    object.setApiVersion(apiVersion);
    object.setKind(kind);
    if (ns != null) {
      object.setNamespace(ns);
    }
    object.setName(name);
    return object;
  }

  private static boolean gone(ResourceClient<Unstructured> resources, String name) {
    try {
      resources.get(name);
      return false;
    } catch (RuntimeException e) {
      return ApiErrors.isNotFound(e);
    }
  }

  @Test
  void bothControllersWorkWithinKubesControllerRoles() throws Exception {
    try (NamespaceCluster cluster =
            new NamespaceCluster(
                List.of("garbage-collector-controller", "namespace-controller"), false, true);
        Client admin = client(cluster, "admin", List.of("system:masters"));
        Client nobody = client(cluster, "nobody", List.of("system:authenticated"))) {
      assertThrows(
          RuntimeException.class,
          () -> nobody.resources(CONFIGMAPS).inNamespace("default").list(new ListOptions()),
          "RBAC is on: a user without rights is refused");
      admin.resources(NAMESPACES).create(object("v1", "Namespace", null, "rbac"));
      ResourceClient<Unstructured> maps = admin.resources(CONFIGMAPS).inNamespace("rbac");
      Unstructured owner = maps.create(object("v1", "ConfigMap", "rbac", "owner"));
      Unstructured dependent = object("v1", "ConfigMap", "rbac", "dependent");
      OwnerReference ref = new OwnerReference();
      ref.setApiVersion("v1");
      ref.setKind("ConfigMap");
      ref.setName("owner");
      ref.setUid(owner.getUid());
      dependent.setOwnerReferences(List.of(ref));
      maps.create(dependent);
      maps.delete("owner", new DeleteOptions());
      await("the dependent collected by generic-garbage-collector", () -> gone(maps, "dependent"));

      maps.create(object("v1", "ConfigMap", "rbac", "content"));
      admin.resources(NAMESPACES).delete("rbac");
      await(
          "the namespace emptied and finalized by namespace-controller",
          () -> gone(admin.resources(NAMESPACES), "rbac"));
      assertEquals(0, maps.listAll(new ListOptions()).size());
      assertTrue(gone(maps, "content"));
    }
  }

  private static Client client(NamespaceCluster cluster, String user, List<String> groups) {
    Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
    return Client.builder(
            InProcessTransport.as(cluster.server::handleAs, UserInfo.of(user, groups)))
        .scheme(scheme)
        .build();
  }
}
